import { SummarizerError, type HistoryEntry } from '@ctx/core';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createAiSdkSummarizer } from './create-ai-sdk-summarizer.js';
import { summarizerRejection } from './test-support/summarizer-rejection.js';
import { defaultSummaryPrompt } from './default-summary-prompt.js';
import { InvalidSummarizerOptionsError } from './invalid-summarizer-options-error.js';

type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const entries: HistoryEntry[] = [
  { speaker: 'human', blocks: [{ type: 'text', text: 'Rename parse to parseConfig' }] },
  { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'edit', parameters: { file: 'a.ts' } }] },
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'edit', result: 'ok' }] },
];

function answer(text: string, usage: Partial<LanguageModelV3GenerateResult['usage']> = {}): LanguageModelV3GenerateResult {
  return {
    content: text === '' ? [] : [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 500, noCache: 500, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 20, text: 20, reasoning: undefined },
      ...usage,
    },
    warnings: [],
  };
}

function mockModel(text = 'The user renamed parse to parseConfig.', usage?: Partial<LanguageModelV3GenerateResult['usage']>) {
  return new MockLanguageModelV3({ provider: 'mock-provider', modelId: 'mock-model', doGenerate: answer(text, usage) });
}


describe('createAiSdkSummarizer', () => {
  it('should send the instructions as the system prompt and the transcript as the prompt', async () => {
    const model = mockModel();
    const summarizer = createAiSdkSummarizer({ model, temperature: 0.2, headers: { 'x-run': 'r1' } });

    await summarizer.summarize({ entries, instructions: 'Summarize for a coding agent.', maxOutputTokens: 256 });

    const [call] = model.doGenerateCalls;
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'Summarize for a coding agent.' },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'human: Rename parse to parseConfig\n\nai: [called tool edit with {"file":"a.ts"}]\n\ntool: [tool edit returned: ok]',
          },
        ],
      },
    ]);
    expect(call?.maxOutputTokens).toBe(256);
    expect(call?.temperature).toBe(0.2);
    expect(call?.headers).toMatchObject({ 'x-run': 'r1' });
  });

  it('should fall back to the `system` option, then to the default prompt, when the request has no instructions', async () => {
    const withSystem = mockModel();
    await createAiSdkSummarizer({ model: withSystem, system: 'Be brief.' }).summarize({ entries });
    const withDefault = mockModel();
    await createAiSdkSummarizer({ model: withDefault }).summarize({ entries });

    expect(withSystem.doGenerateCalls[0]?.prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(withDefault.doGenerateCalls[0]?.prompt[0]).toEqual({ role: 'system', content: defaultSummaryPrompt });
  });

  it('should return the trimmed text with input, output and cache tokens', async () => {
    const model = mockModel('\n  The user renamed parse.  \n', {
      inputTokens: { total: 5000, noCache: 200, cacheRead: 4000, cacheWrite: 800 },
      outputTokens: { total: 64, text: 64, reasoning: undefined },
    });

    const result = await createAiSdkSummarizer({ model }).summarize({ entries });

    expect(result).toEqual({
      text: 'The user renamed parse.',
      usage: { inputTokens: 5000, outputTokens: 64, cacheReadTokens: 4000, cacheWriteTokens: 800 },
    });
  });

  it('should return no usage when the model reported none', async () => {
    const model = mockModel('Summary.', {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    });

    const result = await createAiSdkSummarizer({ model }).summarize({ entries });

    expect(result).toEqual({ text: 'Summary.' });
  });

  it('should name itself after the model and pass the context window through', () => {
    const summarizer = createAiSdkSummarizer({ model: mockModel(), contextWindow: 128_000 });

    expect(summarizer).toMatchObject({ specificationVersion: 'v1', name: 'mock-provider/mock-model', contextWindow: 128_000 });
    expect(createAiSdkSummarizer({ model: mockModel(), name: 'cheap' }).name).toBe('cheap');
    expect('contextWindow' in createAiSdkSummarizer({ model: mockModel() })).toBe(false);
  });

  it('should throw SummarizerError empty-summary when the model answers with blank text', async () => {
    const error = await summarizerRejection(createAiSdkSummarizer({ model: mockModel('  \n ') }).summarize({ entries }));

    expect(error.reason).toBe('empty-summary');
    expect(error.summarizer).toBe('mock-provider/mock-model');
  });

  it('should throw SummarizerError empty-summary when the model answers with no content at all', async () => {
    const error = await summarizerRejection(createAiSdkSummarizer({ model: mockModel('') }).summarize({ entries }));

    expect(error.reason).toBe('empty-summary');
  });

  it('should throw SummarizerError aborted without calling the model when the signal has already fired', async () => {
    const model = mockModel();

    const error = await summarizerRejection(createAiSdkSummarizer({ model }).summarize({ entries, signal: AbortSignal.abort() }));

    expect(error.reason).toBe('aborted');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('should throw SummarizerError other, with the cause, when the model throws something unknown', async () => {
    const failure = new Error('model exploded');
    const model = new MockLanguageModelV3({
      doGenerate: () => {
        throw failure;
      },
    });

    const error = await summarizerRejection(createAiSdkSummarizer({ model, name: 'mock' }).summarize({ entries }));

    expect(error.reason).toBe('other');
    expect(error.message).toBe('Summarizer mock failed (other): model exploded');
    expect(error.cause).toBe(failure);
  });

  it('should reject out-of-range options with every problem listed', () => {
    const create = () => createAiSdkSummarizer({ model: mockModel(), timeoutMs: 0, maxRetries: 1.5, contextWindow: -1 });

    expect(create).toThrow(InvalidSummarizerOptionsError);
    expect(create).toThrow(/timeoutMs: Expected a number of milliseconds > 0.*got 0\n.*maxRetries: Expected an integer ≥ 0, got 1\.5\n.*contextWindow/s);
  });
});

describe('InvalidSummarizerOptionsError', () => {
  it('should be recognised by its own isInstance and not by a sibling error class', () => {
    const error = new InvalidSummarizerOptionsError({ issues: [{ path: 'timeoutMs', message: 'Expected > 0, got 0' }] });
    const sibling = new SummarizerError({ summarizer: 's', reason: 'other', message: 'x' });

    expect(InvalidSummarizerOptionsError.isInstance(error)).toBe(true);
    expect(InvalidSummarizerOptionsError.isInstance(sibling)).toBe(false);
    expect(SummarizerError.isInstance(error)).toBe(false);
  });
});
