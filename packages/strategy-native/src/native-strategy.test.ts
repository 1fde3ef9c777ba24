import { findToolPairingProblems, getEntryGenerator, SummarizerError, type HistoryEntry } from '@ctx/core';
import { createSyntheticHistory, createTestCompressionContext, MockSummarizer } from '@ctx/conformance';
import { describe, expect, it } from 'vitest';
import { createNativeStrategy } from './native-strategy.js';

const history = createSyntheticHistory({ entries: 50, seed: 3 });
const failing = (name: string) =>
  new MockSummarizer(
    () => {
      throw new SummarizerError({ summarizer: name, reason: 'rate-limited', statusCode: 429, message: 'HTTP 429 after 3 attempts' });
    },
    { name },
  );
const context = (summarizer?: MockSummarizer) => createTestCompressionContext({ history, ...(summarizer === undefined ? {} : { summarizer }) });
async function applied(strategy: ReturnType<typeof createNativeStrategy>, summarizer?: MockSummarizer) {
  const given = context(summarizer);
  const result = await strategy.compress(given);
  if (result.type !== 'applied') throw new Error(`expected applied, got ${result.reason}: ${result.message ?? ''}`);
  return { given, result };
}
const summaryOf = (entries: readonly HistoryEntry[]) => entries.find((entry) => getEntryGenerator(entry) === 'native');

describe('createNativeStrategy', () => {
  it('(FR-PA-003) should keep the first message and the last messages and summarize the rest, pair-safe', async () => {
    const { given, result } = await applied(createNativeStrategy(), new MockSummarizer('the rest, summarized'));
    expect(result.newHistory[0]).toBe(given.history[0]);
    const index = result.newHistory.findIndex((entry) => getEntryGenerator(entry) === 'native');
    expect(result.newHistory.length - index - 1).toBeGreaterThanOrEqual(3);
    expect(result.newHistory.slice(index + 1)).toEqual(given.history.slice(given.history.length - (result.newHistory.length - index - 1)));
    expect(findToolPairingProblems(result.newHistory)).toEqual([]);
  });

  it("(FR-PR-001, FR-PR-002) should summarize with the condensing profile's summarizer instead of the conversation's", async () => {
    const condensing = new MockSummarizer('cheap summary', { name: 'cheap-model' });
    const conversation = new MockSummarizer('expensive summary', { name: 'main-model' });
    const { result } = await applied(createNativeStrategy({}, { condensingSummarizer: condensing }), conversation);
    expect(condensing.calls).toHaveLength(1);
    expect(conversation.calls).toHaveLength(0);
    expect(JSON.stringify(summaryOf(result.newHistory))).toContain('cheap summary');
  });

  it("(FR-PR-002) should fall back to the conversation's summarizer when the condensing one fails, and say so", async () => {
    const conversation = new MockSummarizer('main summary', { name: 'main-model' });
    const { result } = await applied(createNativeStrategy({}, { condensingSummarizer: failing('cheap-model') }), conversation);
    expect(JSON.stringify(summaryOf(result.newHistory))).toContain('main summary');
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ type: 'fallback', message: expect.stringMatching(/condensing summarizer cheap-model failed \(rate-limited.*used the conversation's summarizer main-model/) as string }),
    );
  });

  it('(002 §6.3) should summarize mechanically when both summarizers fail, or report summarizer-failed when asked not to', async () => {
    const { result } = await applied(createNativeStrategy({}, { condensingSummarizer: failing('cheap-model') }), failing('main-model'));
    expect(result.metadata.counts).toMatchObject({ fallbackSummary: 1 });
    const strict = await createNativeStrategy({ fallbackOnFailure: false }, { condensingSummarizer: failing('cheap-model') }).compress(context(failing('main-model')));
    expect(strict).toMatchObject({ type: 'no-op', reason: 'summarizer-failed' });
  });

  it('(FR-PR-003) should condense with the custom prompt', async () => {
    const summarizer = new MockSummarizer('s');
    await applied(createNativeStrategy({ customPrompt: 'List the decisions and the open questions.' }), summarizer);
    expect(summarizer.calls[0]?.instructions).toMatch(/^List the decisions and the open questions\./);
  });

  it("(FR-PR-003) should condense with the condensing profile's prompt before its own custom prompt", async () => {
    const summarizer = new MockSummarizer('s');
    const strategy = createNativeStrategy({ customPrompt: 'The strategy prompt.' });
    await strategy.compress({ ...context(summarizer), condensingPrompt: 'The profile prompt.' });
    expect(summarizer.calls[0]?.instructions).toMatch(/^The profile prompt\./);
    expect(summarizer.calls[0]?.instructions).not.toContain('The strategy prompt.');
  });

  it('should return missing-summarizer when neither a condensing nor a conversation summarizer is given', async () => {
    expect(await createNativeStrategy().compress(context())).toMatchObject({ type: 'no-op', reason: 'missing-summarizer' });
  });
});
