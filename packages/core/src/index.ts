// Errors
export { CtxError } from './errors/ctx-error.js';
export { CompressionFailedError } from './errors/compression-failed-error.js';
export { CompressionStrategyError } from './errors/compression-strategy-error.js';
export {
  ContextWindowExceededError,
  type ContextWindowExceededReason,
} from './errors/context-window-exceeded-error.js';
export { HistoryLockedError } from './errors/history-locked-error.js';
export { InvalidFormatError } from './errors/invalid-format-error.js';
export { InvalidHistoryError } from './errors/invalid-history-error.js';
export { InvalidSettingsError } from './errors/invalid-settings-error.js';
export { InvalidStrategyError } from './errors/invalid-strategy-error.js';
export { InvalidStrategySettingsError } from './errors/invalid-strategy-settings-error.js';
export { StaleDensityResultError } from './errors/stale-density-result-error.js';
export { SummarizerError, type SummarizerFailureReason } from './errors/summarizer-error.js';
export { TokenCountError } from './errors/token-count-error.js';
export { ToolPairingError } from './errors/tool-pairing-error.js';
export { InvalidModelPriceError } from './errors/invalid-model-price-error.js';
export { InvalidApiProfileError } from './errors/invalid-api-profile-error.js';
export { UnknownModelError } from './errors/unknown-model-error.js';
export { UnknownStrategyError } from './errors/unknown-strategy-error.js';
export { formatIssuePath, formatValidationIssues, type ValidationIssue } from './errors/validation-issue.js';

// Format codecs
export type {
  ConversationCodec,
  ConversationDecoder,
  DecodeResult,
  EncodeResult,
  FormatWarning,
} from './format/conversation-codec.js';

// History model
export type {
  ContentBlock,
  MediaBlock,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResponseBlock,
} from './history/content-block.js';
export type { Conversation, ToolDefinition } from './history/conversation.js';
export type { EntryMetadata, EntryUsage, HistoryEntry, Speaker } from './history/history-entry.js';
export {
  isJsonArray,
  isJsonObject,
  isJsonValue,
  jsonValueSchema,
  type JsonObject,
  type JsonValue,
} from './history/json-value.js';
export { isSameJson } from './history/is-same-json.js';
export { providerMetadataSchema, type ProviderMetadata } from './history/provider-metadata.js';
export {
  parseConversation,
  parseHistory,
  parseHistoryEntry,
  parseSystemInstructions,
  parseToolDefinitions,
} from './history/parse-history.js';
export { isValidatedEntry } from './history/is-validated-entry.js';
export {
  describeToolPairingProblem,
  findNewToolPairingProblems,
  findToolPairingProblems,
  type ToolPairingProblem,
} from './history/tool-pairing.js';
export {
  HistoryService,
  type AddEntriesOptions,
  type ApplyDensityResultOptions,
  type HistoryEvent,
  type HistoryServiceOptions,
} from './history/history-service.js';
export type { AddedToolPairingProblem } from './history/tool-call-ledger.js';
export { vouchedSharedPrefix } from './history/snapshot-lineage.js';

// Tokens
export type { Tokenizer } from './tokens/tokenizer.js';
export { createTokenCounter, type TokenCounter, type TokenCountingOptions } from './tokens/token-counter.js';
export { splitAtLineStarts } from './tokens/line-start-chunks.js';
export { composedTextRecipe, noteComposedText, type TextPiece } from './tokens/composed-texts.js';
export {
  createCountingTokenizer,
  type CountingTokenizer,
  type CountingTokenizerOptions,
  type TokenizerUsage,
} from './tokens/counting-tokenizer.js';
export { measureTokenizedCharacters, type MeasureTokenizedCharactersOptions } from './tokens/tokenized-characters.js';
export {
  createTokenCalibration,
  type CalibrationMethod,
  type CalibrationSample,
  type CalibrationSource,
  type CalibrationState,
  type TokenCalibration,
  type TokenCalibrationOptions,
} from './tokens/token-calibration.js';

// Emergency cut (also usable by strategies that must make a protected tool output fit)
export {
  cutOversizedToolResults,
  describeToolResultCuts,
  type CutOversizedToolResultsOptions,
  type CutOversizedToolResultsResult,
  type ToolResultCut,
} from './emergency/cut-oversized-tool-results.js';
export { cutTextToTokens, type TextCut } from './emergency/cut-text-to-tokens.js';

// Strategy contract
export { applyDensityResultToHistory } from './strategy/apply-density-result.js';
export {
  composeStrategies,
  type ComposedStep,
  type ComposedStrategy,
  type ComposedStrategySettings,
  type ComposeStrategiesOptions,
} from './strategy/compose-strategies.js';
export { validateCompressedHistory } from './strategy/validate-compressed-history.js';
export {
  COMPRESSION_TARGET_FACTOR,
  createCompressionBudget,
  getHistoryTokenTarget,
  type CompressionBudget,
} from './strategy/compression-budget.js';
export type { CompressionContext } from './strategy/compression-context.js';
export type {
  AppliedCompressionResult,
  CompressionMetadata,
  CompressionResult,
  NoOpCompressionResult,
  NoOpReason,
  StrategyWarning,
} from './strategy/compression-result.js';
export type {
  CompressionStrategy,
  CompressionStrategyFactory,
  ReductionEstimate,
  StrategyCapabilities,
} from './strategy/compression-strategy.js';
export type { CostEstimate, CostModel, TokenUsage } from './strategy/cost-model.js';
export { unitPricesOf, type UnitPrices } from './cost/unit-prices.js';
export { weighCompaction, type CompactionEconomics, type CompactionWeighing } from './cost/weigh-compaction.js';
export {
  countSummarizeRequest,
  meterSummarizer,
  type MeteredSummarizer,
  type SummarizerCall,
} from './cost/meter-summarizer.js';
export { firstChangedIndex } from './cost/first-changed-index.js';
export {
  estimateStrategyCost,
  type StrategyCostEstimate,
  type StrategyCostOptions,
} from './cost/estimate-strategy-cost.js';
export { MAX_CONDENSING_PROMPT_CHARACTERS, parseApiProfiles, type ApiProfile } from './profiles/api-profile.js';
export {
  selectCondensingProfile,
  type CondensingProfileSelection,
  type SelectedCondensingProfile,
} from './profiles/select-condensing-profile.js';
export {
  compareCondensingProfiles,
  type CondensingProfileComparison,
  type CondensingProfileCost,
} from './profiles/compare-condensing-profiles.js';
export type { CachePlanningOptions } from './orchestration/cache-planner.js';
export {
  createEmptyDensityResult,
  isEmptyDensityResult,
  type DensityConfig,
  type DensityResult,
  type DensityResultMetadata,
} from './strategy/density-result.js';
export { getEntryGenerator, markGeneratedEntry } from './strategy/generated-entry.js';
export { parseStrategySettings } from './strategy/parse-strategy-settings.js';
export type {
  StandardSchemaV1,
  StandardSchemaV1Issue,
  StandardSchemaV1Result,
} from './strategy/standard-schema.js';
export {
  assertCompressionStrategy,
  createStrategyRegistry,
  parseCompressionStrategyName,
  type StrategyInfo,
  type StrategyRegistry,
} from './strategy/strategy-registry.js';
export { DEFAULT_COMPRESSION_THRESHOLD, type StrategyTrigger } from './strategy/strategy-trigger.js';
export type { SummarizeRequest, SummarizeResult, Summarizer } from './strategy/summarizer.js';
export type { Todo } from './strategy/todo.js';

// Thresholds
export {
  INHERIT_THRESHOLD,
  MAX_CONDENSE_THRESHOLD,
  MIN_CONDENSE_THRESHOLD,
  TOKEN_BUFFER_PERCENTAGE,
} from './thresholds/threshold-constants.js';
export {
  resolveThreshold,
  type ResolvedThreshold,
  type ThresholdSource,
  type ThresholdSources,
} from './thresholds/resolve-threshold.js';
export {
  decideCompression,
  type CompressionDecision,
  type CompressionDecisionInput,
} from './thresholds/decide-compression.js';

// Settings
export {
  densityDefaults,
  describeCompressionSettings,
  parseCompressionSettings,
  type CompressionSettings,
  type CompressionSettingsInput,
  type SettingDescriptor,
} from './settings/compression-settings.js';
export { findPrototypeKeys, PROTOTYPE_KEYS } from './settings/find-prototype-keys.js';

// Orchestration
export {
  createCompressionOrchestrator,
  type CompressionOrchestrator,
  type CompressionOrchestratorOptions,
  type RunOptions,
} from './orchestration/compression-orchestrator.js';
export type { EffectiveCompressionSettings } from './orchestration/effective-settings.js';
export { formatTurnReport } from './orchestration/format-turn-report.js';
export type { RequestEstimate, UsageReport } from './orchestration/request-estimator.js';
export type { PassReport, RequestReport, TurnReport } from './orchestration/turn-report.js';
export { formatCount, formatRoundedCount } from './text/format-count.js';
