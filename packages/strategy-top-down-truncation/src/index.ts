export { createTopDownTruncationStrategy } from './top-down-truncation-strategy.js';
export type {
  TopDownTruncationSettings,
  TopDownTruncationSettingsInput,
} from './top-down-truncation-settings.js';
