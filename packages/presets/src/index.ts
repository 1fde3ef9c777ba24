export { builtInPresets } from './built-in-presets.js';
export {
  createPresetStrategy,
  type CreatePresetStrategyOptions,
  type PresetStrategyFactory,
} from './create-preset-strategy.js';
export { InvalidPresetError } from './invalid-preset-error.js';
export { parsePreset, parsePresetJson, presetToJson } from './parse-preset.js';
export type { Preset, PresetStep } from './preset.js';
