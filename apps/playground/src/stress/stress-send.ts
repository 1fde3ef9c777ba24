import type { PassReport, TurnReport } from '@ctx/core';

/** Which model call of a turn a send is: the one after the user's message, or the one after the tool results. */
export type StressCall = 'user-message' | 'tool-results';

/** One simulated model call: what the orchestrator did before it and what the provider counted. */
export interface StressSend {
  /** 0-based position among the session's sends. */
  readonly index: number;
  /** 1-based turn. */
  readonly turn: number;
  readonly call: StressCall;
  /** Our tokens of the request (history + system + tools) when the before-send check started, new content included. */
  readonly tokensBefore: number;
  /** Our tokens of the request as sent. */
  readonly ourTokens: number;
  /** The provider's count of the request as sent: `ceil(tokenRatio × ourTokens)`. */
  readonly realTokens: number;
  readonly tokenRatio: number;
  /** The context window of the session. */
  readonly contextLimit: number;
  /** What `ensureCompressionBeforeSend()` returned. */
  readonly report: TurnReport;
  /** The provider refused it: its count was over the window (an overflow); the agent asked again. */
  readonly rejected: boolean;
}

/** A compression or emergency pass that changed the history: what the matrix counts as a compaction. */
export function isCompaction(pass: PassReport): boolean {
  return (pass.pass === 'compression' || pass.pass === 'emergency') && pass.outcome === 'applied';
}

/** The passes of a report that are compactions. */
export function compactionsOf(report: TurnReport): readonly PassReport[] {
  return report.passes.filter(isCompaction);
}
