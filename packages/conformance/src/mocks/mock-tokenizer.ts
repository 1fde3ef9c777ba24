import type { Tokenizer } from '@ctx/core';
import { resolveMockResponse, type MockResponse } from './mock-response.js';

/**
 * A {@link Tokenizer} for tests. Answers with a fixed count, a list of counts, or a function of the text, and
 * records every text it was asked about. Throws "not implemented" when constructed without a response.
 *
 * @example
 * ```ts
 * const tokenizer = new MockTokenizer((text) => Math.ceil(text.length / 4));
 * tokenizer.countTokens('abcdefgh'); // 2
 * tokenizer.calls; // ['abcdefgh']
 * ```
 */
export class MockTokenizer implements Tokenizer {
  readonly specificationVersion = 'v1';
  readonly name: string;
  /** Every text counted, in order. */
  readonly calls: string[] = [];
  private readonly response: MockResponse<string, number> | undefined;

  constructor(response?: MockResponse<string, number>, options: { readonly name?: string } = {}) {
    this.response = response;
    this.name = options.name ?? 'mock-tokenizer';
  }

  countTokens(text: string): number {
    const callIndex = this.calls.length;
    this.calls.push(text);
    return resolveMockResponse('MockTokenizer', this.response, text, callIndex);
  }
}

/** A deterministic tokenizer for tests and the conformance kit: one token per 4 characters, rounded up. */
export function createCharacterTokenizer(): MockTokenizer {
  return new MockTokenizer((text) => Math.ceil(text.length / 4), { name: 'characters/4' });
}
