import { describe, expect, it } from 'vitest';
import { salvageMalformedLine } from './salvage-malformed-line.js';

const userLine =
  '{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":"Deploy the \\"staging\\" branch now"},"uuid":"u2","timestamp":"2026-01-01T00:00:00Z"}';

describe('salvageMalformedLine', () => {
  it('should read the uuid, the parent and the typed text of a line cut after its uuid', () => {
    expect(salvageMalformedLine(userLine.slice(0, -30))).toEqual({
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      description: 'a user message ("Deploy the "staging" branch now")',
    });
  });

  it('should quote the part of the text that survived a cut inside it, never a dangling escape', () => {
    const cut = userLine.slice(0, userLine.indexOf('staging') - 1);
    expect(salvageMalformedLine(cut)).toEqual({ type: 'user', parentUuid: 'a1', description: 'a user message ("Deploy the")' });
  });

  it('should name the tool of a cut assistant tool call and the call a cut tool result answers', () => {
    expect(salvageMalformedLine('{"parentUuid":null,"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","inp').description).toBe(
      'an assistant tool call (Bash)',
    );
    expect(salvageMalformedLine('{"parentUuid":"x","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_re').description).toBe(
      'a tool result (for toolu_1)',
    );
  });

  it('should say a root was lost when the line starts with parentUuid null, and claim nothing from unreadable text', () => {
    expect(salvageMalformedLine('{"parentUuid":null,"isSide')).toEqual({ parentUuid: null, description: 'a record that could not be identified' });
    expect(salvageMalformedLine('\u0000\u0001garbage')).toEqual({ description: 'a record that could not be identified' });
  });
});
