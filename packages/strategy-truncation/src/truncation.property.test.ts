import { createCharacterTokenizer, createSyntheticHistory, createTestCompressionContext } from '@ctx/conformance';
import { findNewToolPairingProblems, getHistoryTokenTarget, parseHistory, type HistoryEntry } from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, listUserTexts } from '@ctx/retention';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectZones } from './select-zones.js';
import type { TruncationSettingsInput } from './truncation-settings.js';
import { createTruncationStrategy } from './truncation-strategy.js';
import { propertyRuns } from '@ctx/test-properties';

const contentMode = fc.constantFrom<'keep' | 'suppress' | 'truncate'>('keep', 'suppress', 'truncate');

const settingsArbitrary: fc.Arbitrary<TruncationSettingsInput> = fc.record(
  {
    preserveRecentCount: fc.integer({ min: 0, max: 8 }),
    truncationMode: fc.constantFrom<'suppress' | 'truncate'>('suppress', 'truncate'),
    contentModes: fc.record(
      { messageText: contentMode, toolParameters: contentMode, toolResults: contentMode },
      { requiredKeys: [] },
    ),
    maxToolResultLines: fc.integer({ min: 1, max: 20 }),
    maxToolResultChars: fc.integer({ min: 1, max: 2_000 }),
    maxToolParamChars: fc.integer({ min: 1, max: 300 }),
    maxMessageTextChars: fc.integer({ min: 1, max: 600 }),
    preserveUserMessages: fc.boolean(),
    preserveAssistantText: fc.boolean(),
    preserveErrors: fc.boolean(),
    preserveThinking: fc.boolean(),
    stopAtTarget: fc.boolean(),
    cutOversizedToolResults: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** The marker `cutOversizedToolResults` (from `@ctx/core`) puts in a tool result it cuts to its beginning and end. */
const cutMarker = 'were cut by ctx to fit the context window';

/**
 * A protected entry (first message, recent zone) is passed through as the same object, unless it is a tool entry
 * whose results were cut to fit the budget: then only their text changed, and it says so.
 */
function expectSameOrCut(entry: HistoryEntry | undefined, original: HistoryEntry | undefined, resultsCut: number): void {
  if (entry === original) return;
  expect(resultsCut).toBeGreaterThan(0);
  expect(entry?.speaker).toBe('tool');
  expect(entry?.blocks.map((block) => block.type)).toEqual(original?.blocks.map((block) => block.type));
  expect(JSON.stringify(entry?.blocks)).toContain(cutMarker);
}

/** The thinking blocks of a history, serialized, to compare by value (shortened entries are validated copies). */
const thinkingOf = (history: readonly HistoryEntry[]) =>
  new Set(history.flatMap((entry) => entry.blocks.filter((block) => block.type === 'thinking').map((block) => JSON.stringify(block))));

describe('createTruncationStrategy (properties)', () => {
  it('should keep pairing, validity, the protected zones, user text and thinking, never grow, be deterministic and idempotent', async () => {
    let appliedRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 160 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.double({ min: 0.05, max: 1.5, noNaN: true }),
        settingsArbitrary,
        async (entries, seed, windowShare, settings) => {
          // Frozen: any mutation of the input throws.
          const history = parseHistory(createSyntheticHistory({ entries, seed }));
          const tokenizer = createCharacterTokenizer();
          const full = createTestCompressionContext({ history, tokenizer });
          const contextLimit = Math.max(1, Math.round(full.budget.contextLimit * windowShare));
          const context = createTestCompressionContext({ history, tokenizer, contextLimit });
          const strategy = createTruncationStrategy(settings);
          const outcome = await strategy.compress(context);
          expect(await createTruncationStrategy(settings).compress(createTestCompressionContext({ history, tokenizer, contextLimit }))).toEqual(outcome);
          if (outcome.type === 'no-op') {
            expect(['empty-history', 'already-under-target', 'too-few-compressible']).toContain(outcome.reason);
            return;
          }
          appliedRuns++;
          const output = outcome.newHistory;
          const counter = context.tokenCounter;
          expect(counter.countEntries(output)).toBeLessThan(counter.countEntries(history));
          expect(findNewToolPairingProblems(history, output)).toEqual([]);
          const introduced = findNewValidityProblems(checkProviderValidity({ history }), checkProviderValidity({ history: output }));
          expect(introduced).toEqual({ anthropic: [], openai: [] });

          // The first message and the recent zone are passed through as the same objects, except tool results cut to
          // fit the budget (only with cutOversizedToolResults).
          const resultsCut = outcome.metadata.counts?.['toolResultsCut'] ?? 0;
          if (strategy.settings?.cutOversizedToolResults === false) expect(resultsCut).toBe(0);
          const zones = selectZones(history, strategy.settings?.preserveRecentCount ?? 5);
          for (let index = 0; index < zones.oldStart; index++) expectSameOrCut(output[index], history[index], resultsCut);
          const recent = history.length - zones.oldEnd;
          for (let offset = 1; offset <= recent; offset++) {
            expectSameOrCut(output[output.length - offset], history[history.length - offset], resultsCut);
          }
          // Over the target only when it says so — and, with cutOversizedToolResults, only once every tool result is
          // down to the 200 tokens a cut keeps at least.
          if (counter.countEntries(output) > getHistoryTokenTarget(context.budget)) {
            expect(outcome.warnings?.map((warning) => warning.type)).toContain('target-not-met');
            if (strategy.settings?.cutOversizedToolResults === true) {
              for (const entry of output) {
                for (const block of entry.blocks) {
                  if (block.type !== 'tool_response') continue;
                  expect(counter.countText(typeof block.result === 'string' ? block.result : JSON.stringify(block.result))).toBeLessThanOrEqual(200);
                }
              }
            }
          }

          if (strategy.settings?.preserveUserMessages === true) {
            expect(listUserTexts(output).map((userText) => userText.text)).toEqual(listUserTexts(history).map((userText) => userText.text));
          }
          // Thinking is kept verbatim, signature included, or dropped whole.
          const original = thinkingOf(history);
          for (const block of thinkingOf(output)) expect(original.has(block)).toBe(true);

          // Compressing the result again with the same budget changes nothing.
          const again = await createTruncationStrategy(settings).compress(createTestCompressionContext({ history: output, tokenizer, contextLimit }));
          expect(again.type).toBe('no-op');
        },
      ),
      { numRuns: propertyRuns(150) },
    );
    // The generated cases must mostly exercise the applied path, or the properties above prove little.
    expect(appliedRuns).toBeGreaterThan(50);
  });
});
