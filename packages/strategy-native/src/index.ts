export { createNativeStrategy, type NativeStrategyOptions } from './native-strategy.js';
export type { NativeSettings, NativeSettingsInput } from './native-settings.js';
