import {
  createCompressionBudget,
  createTokenCounter,
  SummarizerError,
  type CompressionContext,
  type HistoryEntry,
  type SummarizeRequest,
  type SummarizeResult,
  type Summarizer,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { answer, call, calls, human, result } from '../test-support/entries.js';
import { requestSummary, type SummaryRequestOptions } from './request-summary.js';

/** One token per word. */
const tokenCounter = createTokenCounter({ specificationVersion: 'v1', name: 'words', countTokens: (text) => text.split(/\s+/).filter(Boolean).length });
const words = (count: number, word = 'word') => Array.from({ length: count }, () => word).join(' ');

function summarizerAnswering(
  answerWith: (request: SummarizeRequest) => Promise<SummarizeResult>,
  contextWindow?: number,
): Summarizer & { requests: SummarizeRequest[] } {
  const requests: SummarizeRequest[] = [];
  return {
    specificationVersion: 'v1',
    name: 'stub-model',
    ...(contextWindow === undefined ? {} : { contextWindow }),
    requests,
    summarize: (request) => {
      requests.push(request);
      return answerWith(request);
    },
  };
}

const history: HistoryEntry[] = [
  human(`Fix the parser ${words(200)}`),
  calls(call('c1', 'Read', { file_path: '/src/parser.ts' })),
  result('c1', 'Read', words(300, 'code')),
  answer(`The parser returns early ${words(100)}`),
];

function options(summarizer: Summarizer, overrides: Partial<SummaryRequestOptions> = {}, signal?: AbortSignal): SummaryRequestOptions {
  const context: CompressionContext = {
    history,
    system: [],
    tools: [],
    tokenCounter,
    budget: createCompressionBudget({ contextLimit: 1_000, threshold: 0.85 }),
    summarizer,
    ...(signal === undefined ? {} : { signal }),
  };
  return { context, entries: history, instructions: 'Summarize.', maxSummaryTokens: 100, summarizerWindow: 100_000, fallbackOnFailure: true, ...overrides };
}

describe('requestSummary', () => {
  it("should return the model's summary with its usage, asking for at most maxSummaryTokens", async () => {
    const summarizer = summarizerAnswering(() => Promise.resolve({ text: ' The parser returned early; fixed. ', usage: { inputTokens: 620, outputTokens: 6 } }));
    const summary = await requestSummary(options(summarizer));
    expect(summary).toMatchObject({ kind: 'summary', source: 'model', text: 'The parser returned early; fixed.', usage: { inputTokens: 620, outputTokens: 6 }, warnings: [] });
    expect(summarizer.requests[0]).toMatchObject({ instructions: 'Summarize.', maxOutputTokens: 100, entries: history });
  });

  it("(002 §6.2) should keep the request within 80% of the summarizer's window, cutting the large tool output first", async () => {
    const summarizer = summarizerAnswering(() => Promise.resolve({ text: 'short summary' }), 700);
    const summary = await requestSummary(options(summarizer));
    const sent = summarizer.requests[0]?.entries ?? [];
    expect(tokenCounter.countEntries(sent)).toBeLessThanOrEqual(560 - 1);
    expect(sent[0]).toBe(history[0]); // the first message survives: the tool output was cut, not the oldest entry
    expect(summary.warnings[0]?.message).toMatch(/saw [\d,]+ of [\d,]+ tokens: to stay within 80% of its 700-token window, ctx cut 1 large tool outputs/);
  });

  it('(002 §6.2) should still send a request that fits when one entry alone is far over the window', async () => {
    const summarizer = summarizerAnswering(() => Promise.resolve({ text: 'short summary' }), 1_000);
    const giant = [human(words(100_000))];
    await requestSummary(options(summarizer, { entries: giant }));
    expect(tokenCounter.countEntries(summarizer.requests[0]?.entries ?? [])).toBeLessThanOrEqual(800);
  });

  it('(002 §6.2) should send a request that fits when a single tool output has 400k tokens, keeping its beginning and end', async () => {
    const summarizer = summarizerAnswering(() => Promise.resolve({ text: 'short summary' }), 128_000);
    const output = `FIRST ${words(400_000, 'log')} LAST`;
    const entries = [human('Run the full test suite'), calls(call('c9', 'Bash', { command: 'npm test' })), result('c9', 'Bash', output), answer('It failed.')];
    const summary = await requestSummary(options(summarizer, { entries }));
    const sent = summarizer.requests[0]?.entries ?? [];
    expect(tokenCounter.countEntries(sent)).toBeLessThanOrEqual(0.8 * 128_000);
    expect(sent).toHaveLength(4);
    const cut = JSON.stringify(sent[2]);
    expect(cut).toContain('FIRST');
    expect(cut).toContain('LAST');
    expect(summary.kind).toBe('summary');
  });

  it.each([
    ['timeout', new SummarizerError({ summarizer: 'stub-model', reason: 'timeout', message: 'no answer in 120 s' })],
    ['rate-limited', new SummarizerError({ summarizer: 'stub-model', reason: 'rate-limited', statusCode: 429, message: 'HTTP 429 after 3 attempts' })],
    ['other', new Error('socket hang up')],
  ])('(002 §6.3) should fall back to the mechanical summary when the call fails (%s), with a fallback warning', async (reason, error) => {
    const summary = await requestSummary(options(summarizerAnswering(() => Promise.reject(error))));
    expect(summary).toMatchObject({ kind: 'summary', source: 'fallback', failure: { reason } });
    if (summary.kind !== 'summary') return;
    expect(summary.text).toContain('human: Fix the parser');
    expect(summary.text).toContain('[Read returned a result]');
    expect(tokenCounter.countText(summary.text)).toBeLessThanOrEqual(100);
    expect(summary.warnings.at(-1)).toMatchObject({ type: 'fallback', message: expect.stringContaining('used a mechanical summary') as string });
  });

  it('should treat an empty summary and a summary larger than what it replaces (inflation) as failures', async () => {
    const empty = await requestSummary(options(summarizerAnswering(() => Promise.resolve({ text: '  ' }))));
    expect(empty).toMatchObject({ source: 'fallback', failure: { reason: 'empty-summary' } });
    const inflated = await requestSummary(options(summarizerAnswering(() => Promise.resolve({ text: words(5_000) }))));
    expect(inflated).toMatchObject({ source: 'fallback', failure: { reason: 'inflation' } });
  });

  it('should report the failure instead of a fallback when the caller asked for no fallback', async () => {
    const error = new SummarizerError({ summarizer: 'stub-model', reason: 'server-error', statusCode: 503, message: 'HTTP 503' });
    const summary = await requestSummary(options(summarizerAnswering(() => Promise.reject(error)), { fallbackOnFailure: false }));
    expect(summary).toMatchObject({ kind: 'failed', reason: 'server-error', modelCalled: true });
  });

  it('should never cover an abort with a fallback', async () => {
    const controller = new AbortController();
    const summarizer = summarizerAnswering(() => {
      controller.abort();
      return Promise.reject(new SummarizerError({ summarizer: 'stub-model', reason: 'aborted', message: 'aborted by the caller' }));
    });
    const summary = await requestSummary(options(summarizer, {}, controller.signal));
    expect(summary).toMatchObject({ kind: 'aborted', reason: 'aborted' });
  });
});
