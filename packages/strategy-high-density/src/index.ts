export { createHighDensityStrategy } from './high-density-strategy.js';
export type { HighDensitySettings, HighDensitySettingsInput } from './high-density-settings.js';
