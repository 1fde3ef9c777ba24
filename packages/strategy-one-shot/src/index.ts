export { createOneShotStrategy } from './one-shot-strategy.js';
export type { OneShotSettings, OneShotSettingsInput } from './one-shot-settings.js';
