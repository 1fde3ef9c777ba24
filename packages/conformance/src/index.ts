export { conformanceChecks, type ConformanceCheck } from './conformance-checks.js';
export { defaultConformanceFixtures, type ConformanceFixture } from './conformance-fixtures.js';
export {
  createTestCompressionContext,
  type TestCompressionContextOptions,
} from './create-test-compression-context.js';
export { ConformanceFailure, type BudgetKind, type ConformanceSubject } from './conformance-subject.js';
export { MockCostModel } from './mocks/mock-cost-model.js';
export type { MockResponse } from './mocks/mock-response.js';
export { MockSummarizer } from './mocks/mock-summarizer.js';
export { MockTokenizer, createCharacterTokenizer } from './mocks/mock-tokenizer.js';
export {
  formatConformanceReport,
  planConformance,
  runConformance,
  runConformanceCase,
  type ConformanceCase,
  type ConformanceCheckResult,
  type ConformanceReport,
  type RunConformanceOptions,
} from './run-conformance.js';
export {
  checkPropertyValidity,
  defaultPropertyRuns,
  resolvePropertyRuns,
  type CheckPropertyValidityOptions,
  type PropertyValidityFailure,
  type PropertyValidityReport,
} from './property-validity.js';
export {
  checkAdditiveAtLineStarts,
  type AdditivityCounterexample,
  type AdditivityReport,
  type CheckAdditiveAtLineStartsOptions,
} from './tokenizer-additivity.js';
export {
  buildRandomHistory,
  randomHistory,
  randomHistorySpec,
  type CallOutcome,
  type CallSpec,
  type RandomHistoryEnding,
  type RandomHistorySpec,
  type StepSpec,
  type TurnSpec,
} from './random-history.js';
export { createSyntheticHistory, type SyntheticHistoryOptions } from './synthetic-history.js';
