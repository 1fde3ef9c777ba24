// Provider validity
export {
  checkProviderValidity,
  type ProviderValidity,
  type ValidityProblem,
} from './provider-validity.js';
export { findNewValidityProblems } from './find-new-validity-problems.js';
export { findAnthropicToolLoop, type ToolLoopMessage } from './provider-validity-tool-loop.js';

// User texts
export { listUserTexts, type UserText } from './list-user-texts.js';

// Retention
export {
  measureRetention,
  type MeasureRetentionOptions,
  type RetentionReport,
} from './measure-retention.js';
export type { RetentionMeasure } from './retention-measure.js';
