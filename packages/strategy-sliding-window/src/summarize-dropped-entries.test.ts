import { MockSummarizer } from '@ctx/conformance';
import { createTokenCounter } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { summarizeDroppedEntries } from './summarize-dropped-entries.js';
import { aiText, human, wordTokenizer, words } from './test-support/entries.js';

const entries = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? human(`q${index} ${words(9)}`) : aiText(`a${index} ${words(9)}`)));

describe('summarizeDroppedEntries', () => {
  it('should pass the entries, the output bound, the signal and instructions with the todo list', async () => {
    const summarizer = new MockSummarizer('  A short summary.  ');
    const signal = new AbortController().signal;
    const outcome = await summarizeDroppedEntries({
      summarizer,
      entries,
      counter: createTokenCounter(wordTokenizer()),
      contextLimit: 10_000,
      maxOutputTokens: 400,
      todos: [{ content: 'Ship it', status: 'pending' }],
      signal,
    });
    expect(outcome).toEqual({ outcome: 'summarized', text: 'A short summary.', entriesSummarized: 10 });
    const request = summarizer.calls[0];
    expect(request?.entries).toBe(entries);
    expect(request?.maxOutputTokens).toBe(400);
    expect(request?.signal).toBe(signal);
    expect(request?.instructions).toContain('## Next steps');
    expect(request?.instructions).toContain('- [pending] Ship it');
    expect(request?.instructions).toContain('in at most 300 words');
  });

  it('spec 002 §6.2: should drop the oldest entries until the input takes at most 80% of the window, keeping two', async () => {
    const summarizer = new MockSummarizer('summary');
    const counter = createTokenCounter(wordTokenizer());
    // Ten 13-token entries (130): 80% of a 100-token window is 80 → the newest six.
    await summarizeDroppedEntries({ summarizer, entries, counter, contextLimit: 100, maxOutputTokens: 10 });
    expect(summarizer.calls[0]?.entries).toEqual(entries.slice(4));
    await summarizeDroppedEntries({ summarizer, entries, counter, contextLimit: 1, maxOutputTokens: 10 });
    expect(summarizer.calls[1]?.entries).toEqual(entries.slice(8));
  });

  it('spec 002 §6.3: should report a failure (for the excerpt fallback) when the summarizer throws or returns nothing', async () => {
    const counter = createTokenCounter(wordTokenizer());
    const throwing = new MockSummarizer(() => {
      throw new Error('503 overloaded');
    }, { name: 'haiku' });
    expect(await summarizeDroppedEntries({ summarizer: throwing, entries, counter, contextLimit: 1_000, maxOutputTokens: 10 })).toEqual({
      outcome: 'failed',
      message: 'the summarizer "haiku" failed: 503 overloaded',
    });
    expect(await summarizeDroppedEntries({ summarizer: new MockSummarizer(''), entries, counter, contextLimit: 1_000, maxOutputTokens: 10 })).toEqual({
      outcome: 'failed',
      message: 'the summarizer "mock-summarizer" returned an empty summary',
    });
  });

  it('should rethrow when the signal was aborted', async () => {
    const controller = new AbortController();
    const summarizer = new MockSummarizer(() => {
      controller.abort(new Error('user cancelled'));
      throw new Error('request aborted');
    });
    await expect(
      summarizeDroppedEntries({ summarizer, entries, counter: createTokenCounter(wordTokenizer()), contextLimit: 1_000, maxOutputTokens: 10, signal: controller.signal }),
    ).rejects.toThrow('user cancelled');
  });
});
