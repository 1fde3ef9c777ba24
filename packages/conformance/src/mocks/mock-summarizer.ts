import type { SummarizeRequest, SummarizeResult, Summarizer } from '@ctx/core';
import { resolveMockResponse, type MockResponse } from './mock-response.js';

/**
 * A {@link Summarizer} for tests. Answers with a summary text (or a full result), a list of them, or a function of
 * the request; records every request. Throws "not implemented" when constructed without a response — which is how
 * the conformance kit proves that a strategy declaring `requiresLLM: false` never calls a model.
 *
 * @example
 * ```ts
 * const summarizer = new MockSummarizer('The user asked to fix the date test; it now passes.');
 * await summarizer.summarize({ entries });
 * summarizer.calls.length; // 1
 * ```
 */
export class MockSummarizer implements Summarizer {
  readonly specificationVersion = 'v1';
  readonly name: string;
  /** Every request, in order. */
  readonly calls: SummarizeRequest[] = [];
  private readonly response: MockResponse<SummarizeRequest, string | SummarizeResult> | undefined;

  constructor(
    response?: MockResponse<SummarizeRequest, string | SummarizeResult>,
    options: { readonly name?: string } = {},
  ) {
    this.response = response;
    this.name = options.name ?? 'mock-summarizer';
  }

  summarize(request: SummarizeRequest): Promise<SummarizeResult> {
    const callIndex = this.calls.length;
    this.calls.push(request);
    try {
      const answer = resolveMockResponse('MockSummarizer', this.response, request, callIndex);
      return Promise.resolve(typeof answer === 'string' ? { text: answer } : answer);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
