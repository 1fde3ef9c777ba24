import {
  createCompressionOrchestrator,
  createTokenCounter,
  HistoryService,
  InvalidStrategySettingsError,
  type CompressionStrategy,
} from '@ctx/core';
import { createHighDensityStrategy } from '@ctx/strategy-high-density';
import { createLosslessStrategy } from '@ctx/strategy-lossless';
import { createMiddleOutStrategy } from '@ctx/strategy-middle-out';
import { createSmartPassesStrategy } from '@ctx/strategy-smart-passes';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { describe, expect, it } from 'vitest';
import { builtInPresets } from './built-in-presets.js';
import { createPresetStrategy, type PresetStrategyFactory } from './create-preset-strategy.js';
import { InvalidPresetError } from './invalid-preset-error.js';
import type { Preset } from './preset.js';

/** The factories of every strategy a built-in preset names. */
const factories: Record<string, PresetStrategyFactory> = {
  lossless: createLosslessStrategy,
  'high-density': createHighDensityStrategy,
  truncation: createTruncationStrategy,
  'middle-out': createMiddleOutStrategy,
  'smart-passes': createSmartPassesStrategy,
};

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('createPresetStrategy', () => {
  it('should create every built-in preset as one strategy named after it', () => {
    for (const preset of Object.values(builtInPresets)) {
      const strategy = createPresetStrategy(preset, { factories });
      expect(strategy.name).toBe(preset.name);
      expect(strategy.description).toBe(preset.description);
      expect(strategy.settings?.steps.map((step) => step.strategy)).toEqual(preset.strategies.map((step) => step.strategy));
    }
  });

  it('should say which package to install when a step\'s strategy is not available', () => {
    const error = caught(() => createPresetStrategy(builtInPresets.balanced, { factories: { lossless: factories.lossless as PresetStrategyFactory } }));
    expect(InvalidPresetError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('strategies[1].strategy: no strategy "high-density" is available');
    expect((error as Error).message).toContain('@ctx/strategy-high-density');
  });

  it('should name the step whose settings its strategy rejected, with the strategy\'s error as the cause', () => {
    const preset: Preset = {
      name: 'broken',
      description: 'A bad setting in the second step.',
      strategies: [{ strategy: 'lossless' }, { strategy: 'truncation', settings: { preserveRecentCount: -1 } }],
    };
    const error = caught(() => createPresetStrategy(preset, { factories })) as InvalidPresetError;
    expect(error.message).toContain('strategies[1]: truncation rejected its settings');
    expect(InvalidStrategySettingsError.isInstance(error.cause)).toBe(true);
  });

  it('should hand smart passes the lossless strategy as its prelude when the preset enables it (FR-SM-003)', () => {
    const created: string[] = [];
    const recording: Record<string, PresetStrategyFactory> = {
      ...factories,
      lossless: ((settings?: unknown) => {
        created.push(JSON.stringify(settings));
        return createLosslessStrategy(settings as never);
      }),
    };
    const preset: Preset = {
      name: 'with-prelude',
      description: 'Smart passes with the lossless prelude.',
      strategies: [{ strategy: 'smart-passes', settings: { losslessPrelude: { enabled: true, operations: { deduplicateFileReads: true, consolidateToolResults: false, removeObsoleteState: true } } } }],
    };
    createPresetStrategy(preset, { factories: recording });
    expect(created).toEqual([JSON.stringify({ deduplicateFileReads: true, consolidateToolResults: false, removeObsoleteState: true })]);
  });

  it('should use the preset\'s threshold as the trigger threshold', () => {
    const strategy = createPresetStrategy({ ...builtInPresets.speed, threshold: 0.7 }, { factories });
    expect(strategy.trigger.defaultThreshold).toBe(0.7);
  });

  it('should run in the orchestrator with its steps\' counts in the report', async () => {
    const text = (words: number) => Array.from({ length: words }, (_, index) => `w${index}`).join(' ');
    const strategy: CompressionStrategy = createPresetStrategy(builtInPresets.speed, { factories });
    const service = new HistoryService({
      tokenCounter: createTokenCounter({ specificationVersion: 'v1', name: 'words', countTokens: (value) => value.split(/\s+/).filter(Boolean).length }),
      history: [
        { speaker: 'human', blocks: [{ type: 'text', text: 'Fix the parser' }] },
        ...Array.from({ length: 12 }, (_, index) => [
          { speaker: 'ai' as const, blocks: [{ type: 'tool_call' as const, id: `c${index}`, name: 'Bash', parameters: { command: `run ${index}` } }] },
          { speaker: 'tool' as const, blocks: [{ type: 'tool_response' as const, callId: `c${index}`, toolName: 'Bash', result: text(400) }] },
        ]).flat(),
        { speaker: 'ai', blocks: [{ type: 'text', text: 'Done.' }] },
      ],
    });
    const orchestrator = createCompressionOrchestrator({ history: service, strategies: [strategy], contextLimit: 4_000, calibration: false });
    const report = await orchestrator.ensureCompressionBeforeSend();
    const compression = report.passes.find((pass) => pass.pass === 'compression');
    expect(compression?.strategy).toBe('speed');
    expect(compression?.outcome).toBe('applied');
    expect(Object.keys(compression?.compressionMetadata?.counts ?? {}).every((key) => key.startsWith('truncation.'))).toBe(true);
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
    orchestrator.dispose();
  });
});
