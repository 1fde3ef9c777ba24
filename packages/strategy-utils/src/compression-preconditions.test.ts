import {
  createCompressionBudget,
  createTokenCounter,
  parseHistory,
  type CompressionContext,
  type HistoryEntry,
  type Tokenizer,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { checkCompressionPreconditions } from './compression-preconditions.js';

// One token per character: the numbers in the messages are easy to check.
const characters: Tokenizer = { specificationVersion: 'v1', name: 'characters', countTokens: (text) => text.length };

function contextFor(entries: HistoryEntry[], contextLimit: number, signal?: AbortSignal): CompressionContext {
  return {
    history: parseHistory(entries),
    system: [],
    tools: [],
    tokenCounter: createTokenCounter(characters),
    budget: createCompressionBudget({ contextLimit, threshold: 0.85, overheadTokens: 0 }),
    ...(signal === undefined ? {} : { signal }),
  };
}

const long: HistoryEntry = { speaker: 'human', blocks: [{ type: 'text', text: 'x'.repeat(4_000) }] };

describe('checkCompressionPreconditions', () => {
  it('should say aborted first, then empty, then already under the target with both numbers', () => {
    const aborted = new AbortController();
    aborted.abort();
    expect(checkCompressionPreconditions(contextFor([long], 100, aborted.signal))).toEqual({
      kind: 'no-op',
      result: { type: 'no-op', reason: 'aborted' },
    });
    expect(checkCompressionPreconditions(contextFor([], 100))).toMatchObject({ result: { reason: 'empty-history' } });
    const under = checkCompressionPreconditions(contextFor([long], 1_000_000));
    expect(under).toMatchObject({ kind: 'no-op', result: { reason: 'already-under-target' } });
    expect(under.kind === 'no-op' && under.result.message).toMatch(/^the history has [\d,]+ tokens; the target is 510,000$/);
  });

  it('should hand over the history tokens and the target when there is work to do', () => {
    const context = contextFor([long], 1_000);
    const start = checkCompressionPreconditions(context);
    expect(start).toEqual({ kind: 'proceed', tokensBefore: context.tokenCounter.countEntries(context.history), target: 510 });
  });
});
