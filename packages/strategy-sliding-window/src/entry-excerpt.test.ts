import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { describeEntryExcerpt } from './entry-excerpt.js';
import { aiText, call, human, result } from './test-support/entries.js';

describe('describeEntryExcerpt', () => {
  it('spec 002 §6.3: should keep the first 200 characters of a message and mark the cut with ...', () => {
    const long = 'x'.repeat(300);
    expect(describeEntryExcerpt(human(long), 200)).toBe(`user: ${'x'.repeat(200)}...`);
    expect(describeEntryExcerpt(human('x'.repeat(200)), 200)).toBe(`user: ${'x'.repeat(200)}`);
    expect(describeEntryExcerpt(aiText('hi there'), 200)).toBe('assistant: hi there');
  });

  it('should put each message on one line by collapsing whitespace', () => {
    expect(describeEntryExcerpt(human('  first line\n\n  second\tline  '), 200)).toBe('user: first line second line');
  });

  it('should describe tool calls with their parameters and results with their outcome', () => {
    expect(describeEntryExcerpt(call('c1', '/repo/a.ts'), 200)).toBe('assistant: [called Read /repo/a.ts]');
    const structured: HistoryEntry = {
      speaker: 'ai',
      blocks: [
        { type: 'text', text: 'Running the tests.' },
        { type: 'tool_call', id: 'c2', name: 'Bash', parameters: { command: 'npm test' } },
      ],
    };
    expect(describeEntryExcerpt(structured, 200)).toBe('assistant: Running the tests. [called Bash {"command":"npm test"}]');
    expect(describeEntryExcerpt(result('c1', 'export const a = 1;'), 200)).toBe('tool: [Read returned: export const a = 1;]');
    const failed: HistoryEntry = {
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: 'c2', toolName: 'Bash', result: 'Exit code 1\nFAIL date.test.ts', isError: true }],
    };
    expect(describeEntryExcerpt(failed, 200)).toBe('tool: [Bash failed: Exit code 1 FAIL date.test.ts]');
  });

  it('should leave thinking out and return undefined when nothing readable is left', () => {
    const thinking: HistoryEntry = { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'secret plan', signature: 's' }] };
    expect(describeEntryExcerpt(thinking, 200)).toBeUndefined();
    expect(describeEntryExcerpt({ ...thinking, blocks: [...thinking.blocks, { type: 'text', text: 'ok' }] }, 200)).toBe('assistant: ok');
    expect(describeEntryExcerpt(human('   '), 200)).toBeUndefined();
  });

  it('should describe media by type and file name', () => {
    const image: HistoryEntry = {
      speaker: 'human',
      blocks: [{ type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=', filename: 'screen.png' }, { type: 'text', text: 'see?' }],
    };
    expect(describeEntryExcerpt(image, 200)).toBe('user: [image/png screen.png] see?');
  });

  it('should not cut a surrogate pair in half', () => {
    const excerpt = describeEntryExcerpt(human(`${'a'.repeat(19)}😀${'b'.repeat(10)}`), 20);
    expect(excerpt).toBe(`user: ${'a'.repeat(19)}...`);
  });

  it('should read only the start of a huge result', () => {
    const huge = result('big', `${'line of output\n'.repeat(200_000)}`);
    const excerpt = describeEntryExcerpt(huge, 200);
    expect(excerpt).toMatch(/^tool: \[Read returned: line of output line of output/);
    expect(excerpt?.endsWith('...')).toBe(true);
    expect(excerpt?.length).toBeLessThanOrEqual('tool: '.length + 203);
  });
});
