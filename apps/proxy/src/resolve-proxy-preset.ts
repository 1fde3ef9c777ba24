import { readFileSync } from 'node:fs';
import type { CompressionStrategy } from '@ctx/core';
import { builtInPresets, createPresetStrategy, parsePresetJson, type Preset, type PresetStrategyFactory } from '@ctx/presets';
import { createHighDensityStrategy } from '@ctx/strategy-high-density';
import { createLosslessStrategy } from '@ctx/strategy-lossless';
import { createMiddleOutStrategy } from '@ctx/strategy-middle-out';
import { createSmartPassesStrategy } from '@ctx/strategy-smart-passes';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { createWatermarkStrategy } from '@ctx/strategy-watermark';
import { InvalidProxyOptionsError } from './invalid-proxy-options-error.js';

/** The strategies a proxy preset may name: the mechanical ones the proxy ships with. */
const factories: Readonly<Record<string, PresetStrategyFactory>> = {
  'high-density': createHighDensityStrategy,
  lossless: createLosslessStrategy,
  'middle-out': createMiddleOutStrategy,
  'smart-passes': createSmartPassesStrategy,
  truncation: createTruncationStrategy,
  watermark: createWatermarkStrategy,
};

/** A preset ready to compress: its name and a factory of fresh strategies (one per conversation, as they keep state). */
export interface ProxyPreset {
  readonly name: string;
  /** Creates a new strategy for the preset; strategies such as `lossless` keep per-conversation state. */
  readonly createStrategy: () => CompressionStrategy;
}

function readPreset(nameOrPath: string): Preset {
  const builtIn = (builtInPresets as Readonly<Record<string, Preset>>)[nameOrPath];
  if (builtIn !== undefined) return builtIn;
  if (!nameOrPath.endsWith('.json')) {
    throw new InvalidProxyOptionsError({
      option: 'preset',
      message: `Expected \`preset\` to be a built-in preset (${Object.keys(builtInPresets).join(', ')}) or a .json preset file, got \`${nameOrPath}\`; see \`ctx presets\`.`,
    });
  }
  let text: string;
  try {
    text = readFileSync(nameOrPath, 'utf8');
  } catch (error) {
    throw new InvalidProxyOptionsError({
      option: 'preset',
      message: `Expected \`preset\` ${nameOrPath} to be a readable preset file, got ${error instanceof Error ? error.message : String(error)}; check the path.`,
      cause: error,
    });
  }
  try {
    return parsePresetJson(text);
  } catch (error) {
    throw new InvalidProxyOptionsError({
      option: 'preset',
      message: `Expected \`preset\` ${nameOrPath} to be a valid preset: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}

/**
 * Resolves `--preset` to a {@link ProxyPreset}: a built-in preset by name or a preset JSON file, made of the
 * mechanical strategies the proxy ships with (`lossless`, `high-density`, `truncation`, `smart-passes`,
 * `middle-out`, `watermark`). Presets that need a model (`quality`, `cost`) are refused: the proxy has no
 * summarizer.
 *
 * @throws {@link InvalidProxyOptionsError} when the preset is unknown, unreadable, invalid, names another strategy,
 *   or needs a model.
 */
export function resolveProxyPreset(nameOrPath: string): ProxyPreset {
  const preset = readPreset(nameOrPath);
  const createStrategy = (): CompressionStrategy => createPresetStrategy(preset, { factories });
  let probe: CompressionStrategy;
  try {
    probe = createStrategy();
  } catch (error) {
    throw new InvalidProxyOptionsError({
      option: 'preset',
      message: `Expected \`preset\` ${preset.name} to use only the strategies the proxy ships with (${Object.keys(factories).join(', ')}): ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  if (probe.requiresLLM) {
    throw new InvalidProxyOptionsError({
      option: 'preset',
      message: `Expected a mechanical preset, got \`${preset.name}\`, which needs a summarizer model the proxy does not have; use coding-agent, speed or balanced.`,
    });
  }
  return { name: preset.name, createStrategy };
}
