import { createTokenCounter } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import {
  bashTurns,
  callIds,
  exchange,
  history,
  human,
  optimize,
  optimizeAndApply,
  read,
  responsesById,
  turn,
} from './test-support/history-fixtures.js';

const pointer = '[Result pruned — re-run tool to retrieve]';

describe('RecencyPruning (optimize, spec 000 §3c)', () => {
  it('BR-RECENCY-001: should count responses per tool name, newest first', () => {
    const entries = history(
      human('go'),
      ...bashTurns(4),
      turn(read('r1', '/repo/a.ts')),
      turn(read('r2', '/repo/b.ts')),
    );
    const next = optimizeAndApply(entries, { recencyPruning: true, recencyRetention: 3 });
    const responses = responsesById(next);
    expect(responses.get('b0')?.result).toBe(pointer);
    expect(responses.get('b1')?.result).not.toBe(pointer);
    expect(responses.get('r1')?.result).not.toBe(pointer);
  });

  it('BR-RECENCY-002: should replace older payloads with the spec pointer past the retention', () => {
    const entries = history(human('go'), ...bashTurns(5));
    const result = optimize(entries, { recencyPruning: true, recencyRetention: 2 });
    expect(result.metadata.recencyPruned).toBe(3);
    const responses = responsesById(optimizeAndApply(entries, { recencyPruning: true, recencyRetention: 2 }));
    expect(['b0', 'b1', 'b2', 'b3', 'b4'].map((id) => responses.get(id)?.result === pointer)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('BR-RECENCY-003: should keep the call and response structure, replacing only the result', () => {
    const entries = history(human('go'), ...bashTurns(2));
    const before = responsesById(entries).get('b0');
    const next = optimizeAndApply(entries, { recencyPruning: true, recencyRetention: 1 });
    expect(callIds(next)).toEqual(['b0', 'b1']);
    expect(responsesById(next).get('b0')).toEqual({ ...before, result: pointer });
  });

  it("(issue 16) recencyScope 'all-tools' should keep the newest results across every tool, as SWE-agent's last-N observations do", () => {
    const entries = history(human('go'), ...bashTurns(4), turn(read('r1', '/repo/a.ts')), turn(read('r2', '/repo/b.ts')));
    const perTool = responsesById(optimizeAndApply(entries, { recencyPruning: true, recencyRetention: 3 }));
    const allTools = responsesById(optimizeAndApply(entries, { recencyPruning: true, recencyRetention: 3 }, { recencyScope: 'all-tools' }));
    const pruned = (responses: typeof perTool) => ['b0', 'b1', 'b2', 'b3', 'r1', 'r2'].filter((id) => responses.get(id)?.result === pointer);
    expect(pruned(perTool)).toEqual(['b0']);
    expect(pruned(allTools)).toEqual(['b0', 'b1', 'b2']);
  });

  it("(issue 16) recencyScope 'all-tools' should keep N results in all, where per-tool counting keeps N of each tool", () => {
    const mixed = history(human('go'), ...bashTurns(3), turn(read('r1', '/repo/a.ts')), turn(read('r2', '/repo/b.ts')), turn(read('r3', '/repo/c.ts')));
    expect(optimize(mixed, { recencyPruning: true, recencyRetention: 3 }).metadata.recencyPruned).toBe(0);
    expect(optimize(mixed, { recencyPruning: true, recencyRetention: 3 }, { recencyScope: 'all-tools' }).metadata.recencyPruned).toBe(3);
  });

  it('BR-RECENCY-004: should be off by default', () => {
    const entries = history(human('go'), ...bashTurns(6));
    expect(optimize(entries).replacements.size).toBe(0);
  });

  it('BR-RECENCY-005: should treat a retention below 1 as 1', () => {
    const entries = history(human('go'), ...bashTurns(3));
    const result = optimize(entries, { recencyPruning: true, recencyRetention: -4 });
    expect(result.metadata.recencyPruned).toBe(2);
  });

  it('EC-030: should keep all results of a tool with fewer results than the retention', () => {
    const entries = history(human('go'), ...bashTurns(2));
    expect(optimize(entries, { recencyPruning: true, recencyRetention: 3 }).replacements.size).toBe(0);
  });

  it('EC-031: should keep the most recent result when the retention is 0', () => {
    const entries = history(human('go'), ...bashTurns(3));
    const responses = responsesById(optimizeAndApply(entries, { recencyPruning: true, recencyRetention: 0 }));
    expect(responses.get('b2')?.result).not.toBe(pointer);
    expect(responses.get('b1')?.result).toBe(pointer);
  });

  it('EC-032: should count every response block on its own, even with a shared callId', () => {
    // A tool entry after a human message answers no turn: each of its blocks still counts.
    const entries = history(human('go'), {
      speaker: 'tool',
      blocks: [
        { type: 'tool_response', callId: 'same', toolName: 'Bash', result: 'first output\n'.repeat(10) },
        { type: 'tool_response', callId: 'same', toolName: 'Bash', result: 'second output\n'.repeat(10) },
      ],
    });
    const result = optimize(entries, { recencyPruning: true, recencyRetention: 1 });
    expect(result.metadata.recencyPruned).toBe(1);
    const blocks = result.replacements.get(1)?.blocks ?? [];
    expect(blocks.map((block) => (block.type === 'tool_response' ? block.result : ''))).toEqual([
      pointer,
      'second output\n'.repeat(10),
    ]);
  });

  it('should leave a result that is already no longer than the pointer (it would not save anything)', () => {
    const entries = history(
      human('go'),
      turn(exchange('s1', 'Bash', { command: 'true' }, '')),
      ...bashTurns(2),
    );
    const result = optimize(entries, { recencyPruning: true, recencyRetention: 1 });
    expect([...result.replacements.keys()]).toEqual([4]);
    expect(result.metadata.recencyPruned).toBe(1);
  });

  it('should leave a result the pointer would not make smaller in tokens, even when it is a little longer in characters', async () => {
    // 45 characters against the pointer's 41, but fewer tokens: paths pack more characters into a token than prose.
    const created = 'File created successfully at: /repo/src/c.ts';
    const entries = history(
      human('go'),
      turn(exchange('w1', 'Write', { file_path: '/repo/src/c.ts', content: 'x' }, created)),
      turn(exchange('w2', 'Write', { file_path: '/repo/a.ts', content: 'x' }, 'File created successfully at: /repo/a.ts')),
    );
    const result = optimize(entries, { recencyPruning: true, recencyRetention: 1 });
    expect(result.replacements.size).toBe(0);
    const counter = createTokenCounter(await createGptTokenizer());
    expect(counter.countText(created)).toBeLessThan(counter.countText(pointer));
  });

  it('should keep SWE-agent status lines after the pointer', () => {
    const observation = (text: string) => `${text}\n(Open file: /repo/a.py)\n(Current directory: /repo)`;
    const entries = history(
      human('go'),
      turn(exchange('s1', 'bash', { command: 'ls' }, observation('a_long_file_name.py\n'.repeat(20)))),
      turn(exchange('s2', 'bash', { command: 'ls' }, observation('a.py'))),
    );
    const next = optimizeAndApply(entries, { recencyPruning: true, recencyRetention: 1 });
    expect(responsesById(next).get('s1')?.result).toBe(`${pointer}\n(Open file: /repo/a.py)\n(Current directory: /repo)`);
  });
});
