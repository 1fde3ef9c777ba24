import { createCharacterTokenizer, createSyntheticHistory } from '@ctx/conformance';
import {
  createCompressionBudget,
  createTokenCounter,
  findNewToolPairingProblems,
  getEntryGenerator,
  getHistoryTokenTarget,
  parseHistory,
  type ContentBlock,
  type HistoryEntry,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, listUserTexts } from '@ctx/retention';
import { isSafeCutIndex } from '@ctx/strategy-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SlidingWindowSettingsInput } from './sliding-window-settings.js';
import { createSlidingWindowStrategy } from './sliding-window-strategy.js';
import { expectSameOrCut } from './test-support/kept-entries.js';
import { propertyRuns } from '@ctx/test-properties';

/** One turn of a generated conversation; tool turns vary in how providers and agents store them. */
type Turn =
  | { readonly kind: 'human' | 'text'; readonly size: number }
  | {
      readonly kind: 'tools';
      readonly calls: number;
      readonly resultSizes: readonly number[];
      /** Claude Code stores one entry per call; others one entry per turn. */
      readonly splitCalls: boolean;
      readonly splitResults: boolean;
      readonly leadingText: boolean;
    };

const turnArbitrary: fc.Arbitrary<Turn> = fc.oneof(
  fc.record({ kind: fc.constantFrom('human' as const, 'text' as const), size: fc.integer({ min: 1, max: 400 }) }),
  fc.integer({ min: 1, max: 3 }).chain((calls) =>
    fc.record({
      kind: fc.constant('tools' as const),
      calls: fc.constant(calls),
      resultSizes: fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: calls, maxLength: calls }),
      splitCalls: fc.boolean(),
      splitResults: fc.boolean(),
      leadingText: fc.boolean(),
    }),
  ),
);

function buildHistory(turns: readonly Turn[]): HistoryEntry[] {
  const history: HistoryEntry[] = [];
  let nextId = 0;
  for (const turn of turns) {
    if (turn.kind !== 'tools') {
      const speaker = turn.kind === 'human' ? 'human' : 'ai';
      history.push({ speaker, blocks: [{ type: 'text', text: speaker.charAt(0).repeat(turn.size) }] });
    } else {
      const ids = Array.from({ length: turn.calls }, () => `call_${nextId++}`);
      const calls: ContentBlock[] = ids.map((id) => ({ type: 'tool_call', id, name: 'Bash', parameters: { command: `echo ${id}` } }));
      const results: ContentBlock[] = ids.map((id, index) => ({
        type: 'tool_response',
        callId: id,
        toolName: 'Bash',
        result: 'r'.repeat(turn.resultSizes[index] ?? 0),
      }));
      if (turn.leadingText) history.push({ speaker: 'ai', blocks: [{ type: 'text', text: 'Let me run it.' }] });
      if (turn.splitCalls) for (const block of calls) history.push({ speaker: 'ai', blocks: [block] });
      else history.push({ speaker: 'ai', blocks: calls });
      if (turn.splitResults) for (const block of results) history.push({ speaker: 'tool', blocks: [block] });
      else history.push({ speaker: 'tool', blocks: results });
    }
  }
  return history;
}

const historyArbitrary = fc.oneof(
  fc.array(turnArbitrary, { maxLength: 40 }).map(buildHistory),
  // Pure-tool runs (spec 002's all-tool conversations), with and without an opening request.
  fc.tuple(fc.boolean(), fc.array(turnArbitrary.filter((turn) => turn.kind === 'tools'), { maxLength: 30 })).map(([request, turns]) =>
    buildHistory(request ? [{ kind: 'human', size: 50 }, ...turns] : turns),
  ),
  fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 1_000 })).map(([entries, seed]) => createSyntheticHistory({ entries, seed })),
);

const settingsArbitrary: fc.Arbitrary<SlidingWindowSettingsInput> = fc.record(
  {
    recentKeep: fc.integer({ min: 3, max: 300 }),
    minRecentKeep: fc.integer({ min: 1, max: 3 }),
    maxAttempts: fc.integer({ min: 1, max: 12 }),
    summaryShare: fc.double({ min: 0.01, max: 0.9, noNaN: true }),
    keepFirstUserMessage: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('createSlidingWindowStrategy (properties)', () => {
  it('should fit the target or say why, stay pair-valid and provider-valid, keep the newest entry and the first user message when it fits', async () => {
    const tokenCounter = createTokenCounter(createCharacterTokenizer());
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.double({ min: 0.05, max: 1.5, noNaN: true }), settingsArbitrary, async (raw, windowShare, settings) => {
        const history = parseHistory(raw);
        const tokens = tokenCounter.countEntries(history);
        const budget = createCompressionBudget({ contextLimit: Math.max(1, Math.round(tokens * windowShare)), threshold: 0.85 });
        const target = getHistoryTokenTarget(budget);
        const outcome = await createSlidingWindowStrategy(settings).compress({ history, system: [], tools: [], tokenCounter, budget });

        if (outcome.type === 'no-op') {
          expect(['empty-history', 'already-under-target', 'too-few-compressible']).toContain(outcome.reason);
          if (outcome.reason === 'already-under-target') expect(tokens).toBeLessThanOrEqual(target);
          if (outcome.reason !== 'empty-history') expect(outcome.message).toBeTruthy();
          return;
        }
        const resultCuts = outcome.metadata.counts?.toolResultsCut ?? 0;
        if (outcome.metadata.counts?.entriesDropped === 0) {
          // No pair-safe split: only oversized tool results were cut, in place.
          expect(resultCuts).toBeGreaterThan(0);
          expect(outcome.newHistory).toHaveLength(history.length);
          outcome.newHistory.forEach((entry, index) => expectSameOrCut(entry, history[index]));
          expect(tokenCounter.countEntries(outcome.newHistory)).toBeLessThan(tokens);
          return;
        }
        // The first user message as `ctx compare` judges it (an oracle independent of the strategy's own finder).
        const firstUserIndex = listUserTexts(history)[0]?.entryIndex;
        const firstUser = firstUserIndex === undefined ? undefined : history[firstUserIndex];
        const pinning = settings.keepFirstUserMessage !== false;
        const summaryAt = outcome.newHistory.findIndex((entry) => getEntryGenerator(entry) === 'sliding-window');
        // The pinned first user message (if any), one marked summary, then a suffix of the input: the same objects,
        // starting at a pair-safe cut.
        expect(summaryAt).toBe(pinning && outcome.metadata.counts?.entriesPinned === 1 ? 1 : 0);
        if (summaryAt === 1) expect(outcome.newHistory[0]).toBe(firstUser);
        const summary = outcome.newHistory[summaryAt];
        const kept = outcome.newHistory.slice(summaryAt + 1);
        expect(summary?.speaker).toBe('human');
        expect(kept.length).toBeGreaterThanOrEqual(1);
        expect(kept.length).toBeLessThan(history.length);
        kept.forEach((entry, index) => expectSameOrCut(entry, history[history.length - kept.length + index]));
        expectSameOrCut(kept.at(-1), history.at(-1));
        expect(isSafeCutIndex(history, history.length - kept.length)).toBe(true);

        expect(findNewToolPairingProblems(history, outcome.newHistory)).toEqual([]);
        const introduced = findNewValidityProblems(checkProviderValidity({ history }), checkProviderValidity({ history: outcome.newHistory }));
        expect(introduced).toEqual({ anthropic: [], openai: [] });

        const after = tokenCounter.countEntries(outcome.newHistory);
        expect(after).toBeLessThan(tokens);
        const notMet = outcome.warnings?.some((warning) => warning.type === 'target-not-met') === true;
        expect(notMet).toBe(after > target);

        // keepFirstUserMessage: kept verbatim, exactly once, unless it does not fit (and then a warning says why).
        if (firstUser !== undefined) {
          const occurrences = outcome.newHistory.filter((entry) => entry === firstUser).length;
          expect(occurrences).toBeLessThanOrEqual(1);
          const notKept = outcome.warnings?.find((warning) => /first user message \(entry \d+\) was not kept/.test(warning.message));
          if (!pinning || occurrences === 1) {
            expect(notKept).toBeUndefined();
          } else {
            expect(notKept?.type).toBe('fallback');
            const summaryCap = Math.floor(target * (settings.summaryShare ?? 0.1));
            // It fits alone: it was left out only when nothing else could be compacted or it cost the target.
            if (tokenCounter.countEntry(firstUser) <= target - summaryCap) {
              expect(notKept?.message).toMatch(/no pair-safe split would compact any other entry|without them one does|either way, and it would add/);
              if (/without them one does/.test(notKept?.message ?? '')) expect(notMet).toBe(false);
            }
          }
        }
        expect(outcome.warnings?.[0]?.type).toBe('lossy');
      }),
      { numRuns: propertyRuns(250) },
    );
  });

  it('should be deterministic, idempotent and leave its input untouched', async () => {
    const tokenCounter = createTokenCounter(createCharacterTokenizer());
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.double({ min: 0.05, max: 1, noNaN: true }), async (raw, windowShare) => {
        const history = parseHistory(raw); // deep-frozen: a write would throw
        const budget = createCompressionBudget({
          contextLimit: Math.max(1, Math.round(tokenCounter.countEntries(history) * windowShare)),
          threshold: 0.85,
        });
        const context = { history, system: [], tools: [], tokenCounter, budget };
        const first = await createSlidingWindowStrategy().compress(context);
        const second = await createSlidingWindowStrategy().compress(context);
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
        // Idempotent: a result that fits is left alone by the next pass.
        if (first.type === 'applied' && !first.warnings?.some((warning) => warning.type === 'target-not-met')) {
          const again = await createSlidingWindowStrategy().compress({ ...context, history: parseHistory(first.newHistory) });
          expect(again).toMatchObject({ type: 'no-op', reason: 'already-under-target' });
        }
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
