import type { AnthropicUsage } from '@ctx/cost-anthropic';
import { describe, expect, it } from 'vitest';
import { simulateCallUsage } from './simulate-compressed-cost.js';

const recorded = { inputTokens: 10, outputTokens: 300, cacheReadTokens: 80_000, cacheWriteTokens: 15_990, cacheWrite1hTokens: 4_000 };
const request = (usage: AnthropicUsage) =>
  usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) + (usage.cacheWrite1hTokens ?? 0);

describe('simulateCallUsage', () => {
  it('should give back the recorded usage when the strategy changed nothing', () => {
    expect(simulateCallUsage(recorded, { tokens: 50_000, prefixTokens: 40_000 }, { tokens: 50_000, prefixTokens: 40_000 })).toEqual(recorded);
  });

  it('should scale the request by compressed ÷ uncompressed tokens and keep the output', () => {
    const usage = simulateCallUsage(recorded, { tokens: 50_000, prefixTokens: 40_000 }, { tokens: 25_000, prefixTokens: 20_000 });
    expect(request(usage)).toBe(request(recorded) / 2);
    expect(usage.outputTokens).toBe(300);
    expect(usage.cacheReadTokens).toBe(40_000);
  });

  it('should turn cache reads into writes when a rewrite broke the prefix', () => {
    const usage = simulateCallUsage(recorded, { tokens: 50_000, prefixTokens: 40_000 }, { tokens: 45_000, prefixTokens: 0 });
    expect(usage.cacheReadTokens).toBe(0);
    expect(request(usage)).toBe(Math.round((request(recorded) * 45_000) / 50_000));
  });
});
