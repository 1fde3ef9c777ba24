import { SummarizerError, type SummarizeRequest, type SummarizeResult, type Summarizer, type ValidationIssue } from '@ctx/core';
import { generateText, type LanguageModel } from 'ai';
import type { AiSdkSummarizerOptions } from './ai-sdk-summarizer-options.js';
import { classifySummarizerError } from './classify-summarizer-error.js';
import { defaultSummaryPrompt } from './default-summary-prompt.js';
import { InvalidSummarizerOptionsError } from './invalid-summarizer-options-error.js';
import { mapUsage } from './map-usage.js';
import { renderTranscript } from './render-transcript.js';

const defaultTimeoutMs = 120_000;
const defaultMaxRetries = 2;
// Timers take at most a signed 32-bit delay; a longer one fires at once.
const longestTimeoutMs = 2_147_483_647;

/**
 * Creates a ctx {@link Summarizer} that asks an AI SDK language model for each summary. A call renders the entries as
 * a plain-text transcript ({@link renderTranscript}), sends it with the request's `instructions` as the system prompt,
 * and returns the trimmed text with the token usage the provider reported. Failures throw `SummarizerError` with
 * their reason: `timeout`, `rate-limited`, `server-error`, `request-rejected`, `connection-failed`,
 * `malformed-response`, `empty-summary`, `aborted` or `other`.
 *
 * @param options - The model and call settings; see {@link AiSdkSummarizerOptions}.
 * @returns The summarizer.
 * @throws InvalidSummarizerOptionsError when an option is out of range (e.g. a negative `maxRetries`).
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { createAiSdkSummarizer } from '@ctx/summarizer-ai-sdk';
 *
 * const summarizer = createAiSdkSummarizer({ model: anthropic('claude-haiku-4-5'), contextWindow: 200_000 });
 * const { text, usage } = await summarizer.summarize({ entries, instructions: 'Summarize for the next turn.' });
 * ```
 */
export function createAiSdkSummarizer(options: AiSdkSummarizerOptions): Summarizer {
  validateOptions(options);
  const { model, contextWindow, temperature, headers, providerOptions } = options;
  const name = options.name ?? modelName(model);
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const maxRetries = options.maxRetries ?? defaultMaxRetries;
  const system = options.system ?? defaultSummaryPrompt;

  async function summarize(request: SummarizeRequest): Promise<SummarizeResult> {
    const { entries, instructions, maxOutputTokens, signal } = request;
    if (hasFired(signal)) {
      throw classifySummarizerError({ error: signal?.reason, summarizer: name, abortedBy: 'caller', timeoutMs });
    }
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException(`No summary within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    const abortSignal = signal === undefined ? timeout.signal : AbortSignal.any([signal, timeout.signal]);
    let result: Awaited<ReturnType<typeof generateText>>;
    try {
      result = await generateText({
        model,
        system: instructions ?? system,
        prompt: renderTranscript(entries),
        maxRetries,
        abortSignal,
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
        ...(temperature === undefined ? {} : { temperature }),
        ...(headers === undefined ? {} : { headers }),
        ...(providerOptions === undefined ? {} : { providerOptions }),
      });
    } catch (error) {
      // The caller's signal is checked first: when both fired, the caller asked to stop, which is what they see.
      const abortedBy = hasFired(signal) ? 'caller' : hasFired(timeout.signal) ? 'timeout' : undefined;
      throw classifySummarizerError({ error, summarizer: name, timeoutMs, ...(abortedBy === undefined ? {} : { abortedBy }) });
    } finally {
      clearTimeout(timer);
    }
    const text = result.text.trim();
    if (text === '') {
      throw new SummarizerError({
        summarizer: name,
        reason: 'empty-summary',
        message: `expected summary text, the model answered with none (finish reason: ${result.finishReason}); check the model and \`maxOutputTokens\``,
      });
    }
    const usage = mapUsage(result.usage);
    return usage === undefined ? { text } : { text, usage };
  }

  return {
    specificationVersion: 'v1',
    name,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    summarize,
  };
}

/** A function rather than inline checks: TypeScript would keep an earlier `aborted` check's narrowing across `await`. */
function hasFired(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function modelName(model: LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}/${model.modelId}`;
}

function validateOptions(options: AiSdkSummarizerOptions): void {
  const issues: ValidationIssue[] = [];
  const expect = (path: string, value: number | undefined, valid: (value: number) => boolean, expected: string) => {
    if (value !== undefined && !valid(value)) issues.push({ path, message: `Expected ${expected}, got ${value}` });
  };
  expect('timeoutMs', options.timeoutMs, (value) => value > 0 && value <= longestTimeoutMs, `a number of milliseconds > 0 and ≤ ${longestTimeoutMs}`);
  expect('maxRetries', options.maxRetries, (value) => Number.isInteger(value) && value >= 0, 'an integer ≥ 0');
  expect('contextWindow', options.contextWindow, (value) => Number.isInteger(value) && value > 0, 'an integer ≥ 1');
  if (options.name?.trim() === '') issues.push({ path: 'name', message: 'Expected a non-empty name, got an empty string' });
  if (issues.length > 0) throw new InvalidSummarizerOptionsError({ issues });
}
