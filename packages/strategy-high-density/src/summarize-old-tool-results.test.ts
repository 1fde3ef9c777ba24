import {
  createCompressionBudget,
  createTokenCounter,
  findToolPairingProblems,
  getHistoryTokenTarget,
  type CompressionContext,
  type HistoryEntry,
  type TextBlock,
  type ToolResponseBlock,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createHighDensityStrategy } from './high-density-strategy.js';
import {
  aiText,
  bash,
  bashTurns,
  edit,
  exchange,
  history,
  human,
  read,
  resultText,
  turn,
} from './test-support/history-fixtures.js';
import { wordTokenizer, words } from './test-support/word-tokens.js';

function contextFor(entries: readonly HistoryEntry[], contextLimit: number): CompressionContext {
  return {
    history: entries,
    system: [],
    tools: [],
    tokenCounter: createTokenCounter(wordTokenizer()),
    budget: createCompressionBudget({ contextLimit, threshold: 0.85 }),
  };
}

function responses(entries: readonly HistoryEntry[]): ToolResponseBlock[] {
  return entries.flatMap((entry) => entry.blocks.filter((block): block is ToolResponseBlock => block.type === 'tool_response'));
}

/** Six bash turns of 200 words each, then a closing exchange. */
const longSession = () =>
  history(
    human('please fix the build'),
    ...bashTurns(6, { command: (index) => `make step${index}`, output: words(200) }),
    aiText('Done.'),
  );

describe('compress (summarizeOldToolResults)', () => {
  it('BR-THRESH-004: should summarize old results until the history fits threshold × contextLimit × 0.6', async () => {
    const entries = longSession();
    const context = contextFor(entries, 1_600);
    const target = getHistoryTokenTarget(context.budget);
    expect(target).toBe(816);
    const result = await createHighDensityStrategy().compress(context);
    if (result.type !== 'applied') throw new Error(`expected applied, got ${result.reason}`);
    const after = context.tokenCounter.countEntries(result.newHistory);
    expect(after).toBeLessThanOrEqual(target);
    // It stops as soon as the target is met: results summarized oldest first, the newer ones untouched.
    const summarized = responses(result.newHistory).map((block) => resultText(block).startsWith('[Bash '));
    expect(summarized).toEqual([true, true, true, false, false, false]);
    expect(result.metadata.counts).toMatchObject({ toolResultsSummarized: 3 });
  });

  it('should write `[<tool> <key parameter>: <outcome> — re-run to view]` and mark it as generated', async () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts', words(300))),
      turn(bash('b1', 'npm test', `FAIL src/a.test.ts\n${words(300)}`)),
      turn(exchange('b2', 'Bash', { command: 'false' }, words(10), { isError: true })),
      turn(bash('b3', 'ls', words(5))),
      aiText('ok'),
    );
    const strategy = createHighDensityStrategy({ preserveRecentTurns: 1 });
    const result = await strategy.compress(contextFor(entries, 200));
    if (result.type !== 'applied') throw new Error(`expected applied, got ${result.reason}`);
    const [readResult, testResult] = responses(result.newHistory);
    expect(readResult?.result).toBe('[Read /repo/a.ts: success (1 line) — re-run to view]');
    expect(testResult?.result).toBe('[Bash npm test: success (2 lines) — re-run to view]');
    expect(readResult?.providerMetadata?.ctx?.summarizedBy).toBe('high-density');
  });

  it('should keep every tool call, human message and assistant text, and the same objects where nothing changed', async () => {
    const entries = longSession();
    const result = await createHighDensityStrategy().compress(contextFor(entries, 1_600));
    if (result.type !== 'applied') throw new Error('expected applied');
    expect(result.newHistory).toHaveLength(entries.length);
    result.newHistory.forEach((entry, index) => {
      const original = entries[index] as HistoryEntry;
      if (original.speaker !== 'tool') expect(entry).toBe(original);
      else expect(entry.blocks.map((block) => block.type)).toEqual(original.blocks.map((block) => block.type));
    });
    expect(findToolPairingProblems(result.newHistory)).toEqual([]);
  });

  it('should never summarize the preserved tail (the last preserveRecentTurns assistant turns)', async () => {
    const entries = longSession();
    const result = await createHighDensityStrategy({ preserveRecentTurns: 3 }).compress(contextFor(entries, 100));
    if (result.type !== 'applied') throw new Error('expected applied');
    const summarized = responses(result.newHistory).map((block) => resultText(block).startsWith('[Bash '));
    // Turn 6 is the closing text-only turn: the tail is that plus bash turns 4 and 5.
    expect(summarized).toEqual([true, true, true, true, false, false]);
    expect(result.warnings?.map((warning) => warning.type)).toContain('target-not-met');
  });

  it('should keep errors until summarizing them is what meets the target', async () => {
    const entries = history(
      human('go'),
      turn(exchange('e1', 'Bash', { command: 'make' }, words(100), { isError: true })),
      turn(bash('b1', 'ls', words(100))),
      aiText('a'),
      human('again'),
      aiText('b'),
    );
    const result = await createHighDensityStrategy({ preserveRecentTurns: 1 }).compress(contextFor(entries, 300));
    if (result.type !== 'applied') throw new Error('expected applied');
    const [error, listing] = responses(result.newHistory);
    expect(resultText(error)).toBe(words(100));
    expect(resultText(listing)).toMatch(/^\[Bash ls/);
  });

  /** Reads a.ts whole, runs a build, edits a.ts, checks the edit with a ranged read, edits again. */
  const editingSession = () =>
    history(
      human('go'),
      turn(read('r1', '/repo/a.ts', words(300))),
      turn(bash('b1', 'npm run build', words(300))),
      turn(edit('e1', '/repo/a.ts')),
      turn(exchange('r2', 'Read', { file_path: '/repo/a.ts', offset: 1, limit: 10 }, words(20))),
      turn(edit('e2', '/repo/a.ts')),
      aiText('done'),
    );

  it('should summarize older shell output before the latest state of a file still being edited', async () => {
    const entries = editingSession();
    const context = contextFor(entries, 1_000);
    // One 300-word result must go: the build output, not the file's last whole read (a ranged read came later).
    expect(context.tokenCounter.countEntries(entries) - 300).toBeLessThanOrEqual(getHistoryTokenTarget(context.budget));
    const result = await createHighDensityStrategy({ preserveRecentTurns: 1 }).compress(context);
    if (result.type !== 'applied') throw new Error(`expected applied, got ${result.reason}`);
    const byId = new Map(responses(result.newHistory).map((block) => [block.callId, resultText(block)]));
    expect(byId.get('r1')).toBe(words(300));
    expect(byId.get('b1')).toMatch(/^\[Bash npm run build: success/);
    expect(result.metadata.counts).toMatchObject({ toolResultsSummarized: 1, latestFileStatesSummarized: 0 });
    expect(result.warnings?.map((warning) => warning.message).join('\n')).not.toMatch(/latest content/);
  });

  it('should summarize the latest state of a file only when everything cheaper is not enough, and say so', async () => {
    const result = await createHighDensityStrategy({ preserveRecentTurns: 1 }).compress(contextFor(editingSession(), 400));
    if (result.type !== 'applied') throw new Error(`expected applied, got ${result.reason}`);
    const byId = new Map(responses(result.newHistory).map((block) => [block.callId, resultText(block)]));
    expect(byId.get('b1')).toMatch(/^\[Bash /);
    expect(byId.get('r1')).toMatch(/^\[Read \/repo\/a.ts: success/);
    expect(result.metadata.counts).toMatchObject({ latestFileStatesSummarized: 1 });
    const warning = result.warnings?.find((item) => item.message.startsWith('summarized the latest content of 1 file:'));
    expect(warning?.type).toBe('lossy');
  });

  it('should report already-under-target when the history fits', async () => {
    const result = await createHighDensityStrategy().compress(contextFor(longSession(), 100_000));
    expect(result).toMatchObject({ type: 'no-op', reason: 'already-under-target' });
  });

  it('should report too-few-compressible when every result is in the tail or already short', async () => {
    const entries = history(human(words(500)), turn(bash('b1', 'ls', 'a')), aiText('done'));
    const result = await createHighDensityStrategy().compress(contextFor(entries, 100));
    expect(result).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });

  it('should report aborted when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await createHighDensityStrategy().compress({ ...contextFor(longSession(), 100), signal: controller.signal });
    expect(result).toMatchObject({ type: 'no-op', reason: 'aborted' });
  });

  it('should be idempotent: compressing its own output finds nothing more to summarize in the same range', async () => {
    const entries = longSession();
    const strategy = createHighDensityStrategy({ preserveRecentTurns: 5 });
    const first = await strategy.compress(contextFor(entries, 100));
    if (first.type !== 'applied') throw new Error('expected applied');
    const second = await strategy.compress(contextFor(first.newHistory, 100));
    expect(second).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });

  it('should estimate what compress() would do without doing it', async () => {
    const entries = longSession();
    const context = contextFor(entries, 1_600);
    const strategy = createHighDensityStrategy();
    const estimate = await strategy.estimateReduction?.(context);
    const result = await strategy.compress(context);
    if (result.type !== 'applied') throw new Error('expected applied');
    expect(estimate).toEqual({
      tokensBefore: context.tokenCounter.countEntries(entries),
      estimatedTokensAfter: context.tokenCounter.countEntries(result.newHistory),
    });
  });

  it('ERR-003: should reject (not throw synchronously) when compress fails', async () => {
    const context = { ...contextFor(longSession(), 100), tokenCounter: undefined as never };
    const strategy = createHighDensityStrategy();
    const pending = strategy.compress(context);
    await expect(pending).rejects.toThrow();
  });

  it('should keep human text verbatim', async () => {
    const entries = longSession();
    const result = await createHighDensityStrategy().compress(contextFor(entries, 100));
    if (result.type !== 'applied') throw new Error('expected applied');
    expect((result.newHistory[0]?.blocks[0] as TextBlock).text).toBe('please fix the build');
  });
});
