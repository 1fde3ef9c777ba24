export { createMiddleOutStrategy } from './middle-out-strategy.js';
export type { MiddleOutSettings, MiddleOutSettingsInput } from './middle-out-settings.js';
