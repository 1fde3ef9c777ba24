import type { CostModel, TokenUsage } from '@ctx/core';
import { resolveMockResponse, type MockResponse } from './mock-response.js';

/**
 * A {@link CostModel} for tests. Answers with a price in USD, a list of prices, or a function of the usage;
 * records every usage priced. Throws "not implemented" when constructed without a response.
 */
export class MockCostModel implements CostModel {
  readonly specificationVersion = 'v1';
  readonly name: string;
  /** Every usage priced, in order. */
  readonly calls: TokenUsage[] = [];
  private readonly response: MockResponse<TokenUsage, number> | undefined;

  constructor(response?: MockResponse<TokenUsage, number>, options: { readonly name?: string } = {}) {
    this.response = response;
    this.name = options.name ?? 'mock-cost-model';
  }

  price(usage: TokenUsage): number {
    const callIndex = this.calls.length;
    this.calls.push(usage);
    return resolveMockResponse('MockCostModel', this.response, usage, callIndex);
  }
}
