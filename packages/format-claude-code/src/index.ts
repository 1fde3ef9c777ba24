// Reading
export {
  claudeCodeFormat,
  createClaudeCodeSessionReader,
  parseClaudeCodeSession,
  type ClaudeCodeReadOptions,
  type ClaudeCodeSessionReader,
} from './claude-code-session-reader.js';
export {
  getAssistantMessageId,
  getFirstText,
  getRecordBlocks,
  getRecordContent,
  getRecordMessage,
  isCompactBoundaryRecord,
  isCompactSummaryRecord,
  isMessageRecord,
  knownClaudeCodeRecordTypes,
  type ClaudeCodeRecord,
} from './claude-code-record.js';
export type {
  ClaudeCodeBranch,
  ClaudeCodeCompaction,
  ClaudeCodeEpoch,
  ClaudeCodeFileStatistics,
  ClaudeCodeMalformedLine,
  ClaudeCodeOrphan,
  ClaudeCodeOrphanReason,
  ClaudeCodePreservedSegment,
  ClaudeCodeReconnection,
  ClaudeCodeSession,
  ClaudeCodeSidechain,
} from './claude-code-session.js';

// Conversion
export {
  convertClaudeCodeSession,
  type ClaudeCodeView,
  type ConvertClaudeCodeSessionOptions,
} from './convert-claude-code-session.js';
export { decodeClaudeCodeSession } from './decode-claude-code-session.js';
export { claudeCodeCompactionGenerator } from './assemble-history.js';
export { classifyUserText, type ClaudeCodeUserTextKind } from './user-text-kind.js';
export { UnknownClaudeCodeRecordError } from './unknown-claude-code-record-error.js';

// Compactions (spec 001)
export { analyzeCompacts, type CompactStatistics } from './compact-statistics.js';
export {
  getConversationFlow,
  traceLogicalParents,
  type ClaudeCodeFlowStep,
} from './conversation-flow.js';
export {
  estimateCompactTrigger,
  type CompactTriggerEstimate,
  type CompactTriggerPoint,
  type EpochTokenEstimate,
  type EstimateCompactTriggerOptions,
} from './estimate-compact-trigger.js';
export { findParentRecord } from './find-parent-record.js';

// Inspection
export {
  summarizeClaudeCodeSession,
  type ClaudeCodeSessionSummary,
  type SummarizeClaudeCodeSessionOptions,
} from './summarize-claude-code-session.js';
export { formatClaudeCodeSessionSummary } from './format-claude-code-session-summary.js';
