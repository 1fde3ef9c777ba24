export { createTruncationStrategy } from './truncation-strategy.js';
export type {
  TruncationContentMode,
  TruncationSettings,
  TruncationSettingsInput,
} from './truncation-settings.js';
export { SUPPRESSED_CONTENT_MARKER } from './truncation-markers.js';
