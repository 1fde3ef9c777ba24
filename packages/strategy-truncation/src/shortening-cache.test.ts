import { parseHistory, type AppliedCompressionResult, type CompressionResult, type CompressionStrategy, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { aiText, call, contextFor, human, lines, readSession, result } from './test-support/entries.js';
import { createTruncationStrategy } from './truncation-strategy.js';

function applied(outcome: CompressionResult): AppliedCompressionResult {
  if (outcome.type !== 'applied') throw new Error(`expected an applied result, got no-op (${outcome.reason}): ${outcome.message ?? ''}`);
  return outcome;
}

/** A fresh strategy's result: what a strategy that compressed other histories before must return too. */
async function freshResult(history: readonly HistoryEntry[]): Promise<AppliedCompressionResult> {
  return applied(await createTruncationStrategy().compress(contextFor(history)));
}

/** Compresses `history` twice, so the strategy keeps its shortenings (it keeps from its second call on). */
async function compressTwice(strategy: CompressionStrategy, history: readonly HistoryEntry[]): Promise<AppliedCompressionResult> {
  await strategy.compress(contextFor(history));
  return applied(await strategy.compress(contextFor(history)));
}

describe('createTruncationStrategy (shortenings kept between calls)', () => {
  it('should hand back the same validated entries when it compresses the same history again', async () => {
    const strategy = createTruncationStrategy();
    const context = contextFor(readSession(6));
    const first = applied(await strategy.compress(context));
    // Shortenings are kept from the second call on: the third gets the second's objects back.
    const second = applied(await strategy.compress(context));
    const third = applied(await strategy.compress(context));
    expect(second.newHistory).toEqual(first.newHistory);
    third.newHistory.forEach((entry, index) => expect(entry).toBe(second.newHistory[index]));
    expect(third.metadata.counts).toEqual(first.metadata.counts);
  });

  it('should shorten an old entry that changed, never return the shortening of the entry it replaced', async () => {
    const strategy = createTruncationStrategy();
    const before = parseHistory(readSession(6));
    await compressTwice(strategy, before);
    const after = [...before];
    after[2] = result('c1', lines(40, 'rewritten line'));
    const warm = applied(await strategy.compress(contextFor(after)));
    expect(warm.newHistory).toEqual((await freshResult(after)).newHistory);
    expect(JSON.stringify(warm.newHistory[2])).toContain('rewritten line 1');
  });

  it('should drop the thinking it kept while the turn was in its tool loop once that loop has ended', async () => {
    const opener: HistoryEntry = {
      speaker: 'ai',
      blocks: [
        { type: 'thinking', thought: lines(20, 'thought'), signature: 'sig' },
        { type: 'tool_call', id: 'c1', name: 'Read', parameters: { file_path: '/repo/a.ts' } },
      ],
    };
    const open = parseHistory([human('Fix the parser.'), opener, result('c1', lines(40)), call('c2'), result('c2', lines(40))]);
    const strategy = createTruncationStrategy({ preserveRecentCount: 1 });
    const inLoop = await compressTwice(strategy, open);
    expect(inLoop.newHistory[1]?.blocks.map((block) => block.type)).toEqual(['thinking', 'tool_call']);

    const ended = [...open, ...parseHistory([aiText('Fixed.'), human('Thanks; now the lexer.')])];
    const warm = applied(await strategy.compress(contextFor(ended)));
    expect(warm.newHistory[1]?.blocks.map((block) => block.type)).toEqual(['tool_call']);
    expect(warm.newHistory).toEqual(
      applied(await createTruncationStrategy({ preserveRecentCount: 1 }).compress(contextFor(ended))).newHistory,
    );
  });

  it('should judge a kept result by the call that now answers to its id (preserveErrors)', async () => {
    // The same result entry answers a Read first, then a Bash call, for which its `Exit code 2` makes it an error
    // that is kept whole.
    const output = `Exit code 2\n${lines(40)}`;
    const history = parseHistory([human('Run it.'), call('c1'), result('c1', output, { toolName: '' }), ...readSession(4).slice(1)]);
    const strategy = createTruncationStrategy();
    const asRead = await compressTwice(strategy, history);
    expect(JSON.stringify(asRead.newHistory[2])).not.toContain('line 40');
    const rerun = [...history];
    rerun[1] = parseHistory([call('c1', { command: 'make test' }, 'Bash')])[0] as HistoryEntry;
    const warm = applied(await strategy.compress(contextFor(rerun)));
    expect(warm.newHistory[2]).toEqual(rerun[2]);
    expect(warm.newHistory).toEqual((await freshResult(rerun)).newHistory);
  });
});
