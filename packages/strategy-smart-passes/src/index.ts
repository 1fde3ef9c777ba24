export { createSmartPassesStrategy, type SmartPassesRuntime } from './smart-passes-strategy.js';
export type {
  ContentOperation,
  ContentOperationConfig,
  PassConfig,
  PassConfigInput,
  PassToolKind,
  SmartPassesSettings,
  SmartPassesSettingsInput,
} from './smart-passes-settings.js';
export { defaultPasses, summarizeOldToolResultsPass } from './default-passes.js';
export { decomposeEntry, recomposeEntry, type DecomposedEntry } from './decompose-entry.js';
export { SUMMARIZED_CONTENT_PREFIX, SUPPRESSED_CONTENT_MARKER, truncationMarker } from './content-markers.js';
export { defaultTruncationLimits, type ContentType } from './content-operations.js';
export type { TruncationLimits } from './shorten-text.js';
export { selectPassRange } from './select-pass-range.js';
