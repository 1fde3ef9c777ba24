import { CtxError } from './ctx-error.js';

const name = 'SummarizerError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Why a summarizer call failed:
 * - `timeout`: no answer within the summarizer's time limit;
 * - `rate-limited`: HTTP 429, after the retries;
 * - `server-error`: HTTP 5xx (or another status the provider reports as retryable), after the retries;
 * - `request-rejected`: HTTP 4xx other than 429 (a bad key, an unknown model, a request over the model's window);
 * - `connection-failed`: the endpoint could not be reached (refused, reset, DNS);
 * - `malformed-response`: the answer could not be read (not JSON, not the expected shape);
 * - `empty-summary`: the model answered with no text;
 * - `aborted`: the caller's abort signal fired;
 * - `other`: anything else (the cause says what).
 */
export type SummarizerFailureReason =
  | 'timeout'
  | 'rate-limited'
  | 'server-error'
  | 'request-rejected'
  | 'connection-failed'
  | 'malformed-response'
  | 'empty-summary'
  | 'aborted'
  | 'other';

/**
 * Thrown by a `Summarizer` when it could not produce a summary. LLM strategies catch it and fall back to a
 * mechanical summary (spec 002 §6.3) or return a no-op with the reason; `reason` lets them (and reports) say why
 * without parsing messages.
 */
export class SummarizerError extends CtxError {
  private readonly [symbol] = true;

  /** What kind of failure it was. */
  readonly reason: SummarizerFailureReason;
  /** The summarizer's `name`. */
  readonly summarizer: string;
  /** The HTTP status, when the failure was an HTTP response. */
  readonly statusCode: number | undefined;

  /**
   * @param options - `summarizer`: the summarizer's name; `reason`: the failure kind; `message`: what happened, one
   *   line; `statusCode`: the HTTP status, if any; `cause`: the underlying error.
   */
  constructor({
    summarizer,
    reason,
    message,
    statusCode,
    cause,
  }: {
    summarizer: string;
    reason: SummarizerFailureReason;
    message: string;
    statusCode?: number;
    cause?: unknown;
  }) {
    super({ name, message: `Summarizer ${summarizer} failed (${reason}): ${message}`, cause });
    this.reason = reason;
    this.summarizer = summarizer;
    this.statusCode = statusCode;
  }

  /** Returns true when `error` is a `SummarizerError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is SummarizerError {
    return CtxError.hasMarker(error, marker);
  }
}
