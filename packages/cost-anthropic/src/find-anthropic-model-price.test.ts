import { corpusExists, listCorpusFiles, readClaudeCodeMessages } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropicCostModel } from './anthropic-cost-model.js';
import { fromAnthropicUsage, type AnthropicApiUsage } from './anthropic-usage.js';
import { findAnthropicModelPrice } from './find-anthropic-model-price.js';

describe('findAnthropicModelPrice', () => {
  it('should find a model by canonical id, by alias and by a dated id of its undated base', () => {
    expect(findAnthropicModelPrice('claude-opus-4-6')?.model).toBe('claude-opus-4-6');
    expect(findAnthropicModelPrice('claude-sonnet-4-20250514')?.model).toBe('claude-sonnet-4-0');
    expect(findAnthropicModelPrice('claude-3-7-sonnet-20250219')?.model).toBe('claude-3-7-sonnet-latest');
    expect(findAnthropicModelPrice('claude-sonnet-4-6-20270101')?.model).toBe('claude-sonnet-4-6');
    expect(findAnthropicModelPrice('claude-3-5-haiku-20241022')?.model).toBe('claude-3-5-haiku-latest');
    expect(findAnthropicModelPrice('claude-sonnet-4-5@20250929')?.model).toBe('claude-sonnet-4-5');
  });

  it('should return undefined for a model it has no price for, rather than guess', () => {
    expect(findAnthropicModelPrice('claude-3-5-sonnet-20241022')).toBeUndefined();
    expect(findAnthropicModelPrice('sonnet')).toBeUndefined();
    expect(findAnthropicModelPrice('')).toBeUndefined();
  });

  const sessionFiles = listCorpusFiles('claude-code', '.jsonl');
  it.skipIf(!corpusExists || sessionFiles.length === 0)(
    'should price every assistant message of the recorded Claude Code sessions (skipped: corpus absent)',
    () => {
      const models = new Set<string>();
      let priced = 0;
      for (const file of sessionFiles) {
        for (const { message } of readClaudeCodeMessages(file)) {
          const { role, model, usage } = message as { role?: string; model?: string; usage?: AnthropicApiUsage };
          // Claude Code writes `<synthetic>` for messages it made itself (no API call, no bill).
          if (role !== 'assistant' || model === undefined || model === '<synthetic>' || usage === undefined) continue;
          models.add(model);
          const usd = createAnthropicCostModel(model).price(fromAnthropicUsage(usage));
          expect(Number.isFinite(usd) && usd >= 0, `${file}: ${model}`).toBe(true);
          priced += 1;
        }
      }
      expect(priced).toBeGreaterThan(0);
      expect([...models].sort()).toEqual(expect.arrayContaining(['claude-opus-4-6', 'claude-sonnet-4-5-20250929']));
    },
  );
});
