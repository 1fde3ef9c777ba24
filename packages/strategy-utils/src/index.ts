// Tool semantics
export {
  emptySemantics,
  type FileAccess,
  type LineRange,
  type ToolCallKind,
  type ToolCallSemantics,
} from './tool-call-semantics.js';
export { classifyToolCall, type ClassifyToolCallOptions } from './classify-tool-call.js';
export {
  classifyToolResult,
  type ToolErrorMarker,
  type ToolResultClassification,
} from './classify-tool-result.js';
export { classifyRememberedToolCall } from './remembered-tool-call-semantics.js';
export {
  classifyHistoryToolCalls,
  type ClassifiedToolCall,
  type ClassifiedToolResponse,
  type ClassifyHistoryToolCallsOptions,
} from './classify-history-tool-calls.js';
export {
  createToolSemanticsRegistry,
  type ToolCallClassifier,
  type ToolClassificationOptions,
  type ToolClassifierContext,
  type ToolNameMatcher,
  type ToolSemanticsRegistry,
  type ToolSemanticsRegistryOptions,
} from './tool-semantics-registry.js';
export { classifyShellCommand, type ShellCommandOptions } from './shell/classify-shell-command.js';
export { toolResultParts, toolResultText } from './tool-result-text.js';
export { applyEditReplacement, editReplacementsOf, type EditReplacement } from './edit-replacements.js';

// Paths
export { findSupersededFileContent, type SupersededFileContent } from './find-superseded-file-content.js';
export { inferWorkspaceRoot, recordedWorkingDirectory } from './infer-workspace-root.js';
export { formatReconstructedRead, readContentOf, reconstructedContentOf } from './read-content.js';
export { FOLDED_EDIT_MARKER, foldFileStates, type FileStateFolds, type FoldFileStatesOptions } from './fold-file-states.js';
export { isAbsoluteToolPath, normalizeToolPath } from './normalize-tool-path.js';

// Todos
export { extractActiveTodos, type ExtractActiveTodosOptions } from './extract-active-todos.js';

// Turns
export { listAssistantTurns, type AssistantTurn } from './assistant-turns.js';
export { findSafeCutIndices, isPairSafeCutIndex, isSafeCutIndex } from './safe-cut-indices.js';
export { findOpenToolLoop, findThinkingToolLoopStart, type OpenToolLoop } from './open-tool-loop.js';
export { isBlankEntry } from './tool-loop-bounds.js';
export { countSharedPrefix } from './shared-prefix.js';

// User text
export { findFirstUserMessage, findLatestUserRequest, isHarnessEntry, typedPartOf } from './user-typed-text.js';

// Summaries (LLM strategies)
export { buildSummaryInstructions, type SummaryInstructionsOptions } from './summary/summary-instructions.js';
export { customPromptOf } from './summary/custom-prompt-of.js';
export { cutTextHead, type TextHead, type TextHeadLimits } from './text/cut-text-head.js';
export { createSummaryEntry, type SummaryEntryOptions } from './summary/summary-entry.js';
export { buildFallbackSummary } from './summary/fallback-summary.js';
export { summaryCounts } from './summary/summary-counts.js';
export { missingSummarizerResult, summaryFailureResult } from './summary/summary-no-ops.js';
export { fitSummarizerInput, type FittedSummarizerInput } from './summary/fit-summarizer-input.js';
export {
  requestSummary,
  type SummaryFailure,
  type SummaryFailureOf,
  type SummaryFailureReason,
  type SummaryRequestOptions,
  type SummaryText,
} from './summary/request-summary.js';

// Caching
export { isValidatedEntry } from './history/is-validated-entry.js';
export { isSameEntryContent } from './history/same-entry-content.js';
export { isSameJsonText } from './history/same-json-text.js';
export { toValidatedEntry } from './history/to-validated-entry.js';

// Compression
export { checkCompressionPreconditions, type CompressionPreconditions } from './compression-preconditions.js';
export {
  MAX_TOOL_RESULT_SHARE,
  capOversizedToolResults,
  whereCutOutputIs,
  type CappedToolResults,
} from './cap-oversized-tool-results.js';
