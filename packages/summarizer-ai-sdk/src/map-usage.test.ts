import type { LanguageModelUsage } from 'ai';
import { describe, expect, it } from 'vitest';
import { mapUsage } from './map-usage.js';

function usage(overrides: Partial<LanguageModelUsage>): LanguageModelUsage {
  return {
    inputTokens: undefined,
    inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
    outputTokens: undefined,
    outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
    totalTokens: undefined,
    ...overrides,
  };
}

describe('mapUsage', () => {
  it('should pass input, output, cache read and cache write tokens through', () => {
    const mapped = mapUsage(
      usage({
        inputTokens: 1200,
        outputTokens: 80,
        inputTokenDetails: { noCacheTokens: 150, cacheReadTokens: 1000, cacheWriteTokens: 50 },
      }),
    );

    expect(mapped).toEqual({ inputTokens: 1200, outputTokens: 80, cacheReadTokens: 1000, cacheWriteTokens: 50 });
  });

  it('should leave out cache counts the provider did not report', () => {
    expect(mapUsage(usage({ inputTokens: 10, outputTokens: 2 }))).toEqual({ inputTokens: 10, outputTokens: 2 });
  });

  it('should return undefined when the provider reported no token counts', () => {
    expect(mapUsage(usage({}))).toBeUndefined();
  });
});
