import { formatCount } from '../text/format-count.js';
import type { TurnReport } from '../orchestration/turn-report.js';
import { CtxError } from './ctx-error.js';

const name = 'ContextWindowExceededError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Why a request cannot be made to fit:
 * - `overhead-too-large`: the system instructions, tool definitions and pending message alone exceed the window;
 *   no compression of the history can help, so none was tried.
 * - `cannot-shrink-further`: every strategy ran and the largest tool results were cut, and what is left (user
 *   text, assistant text, thinking the strategies keep) is still too large.
 */
export type ContextWindowExceededReason = 'overhead-too-large' | 'cannot-shrink-further';

/**
 * Thrown by `ensureCompressionBeforeSend()` and `enforceContextWindow()` when the request cannot be made to fit the
 * context window minus the reserved output tokens. Sending it would be rejected by the provider, so the caller is
 * told instead. What was done before giving up is committed and listed in `report`.
 */
export class ContextWindowExceededError extends CtxError {
  private readonly [symbol] = true;

  /** Tokens the request would need (history + system + tools + pending message), calibrated. */
  readonly projectedTokens: number;
  /** Tokens available (context window minus reserved output tokens). */
  readonly availableTokens: number;
  readonly reason: ContextWindowExceededReason;
  /** Tokens of the system instructions and tool definitions (and pending message), calibrated. */
  readonly overheadTokens: number | undefined;
  /** What the turn did before giving up. */
  readonly report: TurnReport | undefined;

  constructor({
    projectedTokens,
    availableTokens,
    reason = 'cannot-shrink-further',
    overheadTokens,
    report,
  }: {
    projectedTokens: number;
    availableTokens: number;
    reason?: ContextWindowExceededReason;
    overheadTokens?: number;
    report?: TurnReport;
  }) {
    const tried = report?.passes.filter((pass) => pass.pass !== 'density').map((pass) => pass.strategy) ?? [];
    const message =
      reason === 'overhead-too-large'
        ? `The system instructions, tool definitions and pending message alone need ${formatCount(overheadTokens ?? projectedTokens)} tokens but only ${formatCount(availableTokens)} fit the context window: no compression of the history can make the request fit. Shorten the system prompt or tool definitions, send a smaller message, use a model with a larger window, or lower reservedOutputTokens.`
        : `The request needs ${formatCount(projectedTokens)} tokens but only ${formatCount(availableTokens)} fit the context window${tried.length > 0 ? ` after ${[...new Set(tried)].join(', ')}` : ''}; what is left cannot shrink further with the configured strategies. Add a strategy that drops or summarizes old turns (e.g. sliding-window) as a fallback, use a larger window, or lower reservedOutputTokens.`;
    super({ name, message });
    this.projectedTokens = projectedTokens;
    this.availableTokens = availableTokens;
    this.reason = reason;
    this.overheadTokens = overheadTokens;
    this.report = report;
  }

  /** Returns true when `error` is a `ContextWindowExceededError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is ContextWindowExceededError {
    return CtxError.hasMarker(error, marker);
  }
}
