import { SummarizerError, type SummarizerFailureReason } from '@ctx/core';
import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  NoContentGeneratedError,
  RetryError,
  TypeValidationError,
} from 'ai';
import { redactSecrets } from './redact-secrets.js';

/** What {@link classifySummarizerError} needs to know besides the error. */
export interface ClassifySummarizerErrorOptions {
  /** What `generateText` threw. */
  readonly error: unknown;
  /** The summarizer's name, for the error. */
  readonly summarizer: string;
  /**
   * Which signal ended the call, when one did: the caller's (`caller`) or the summarizer's own time limit (`timeout`).
   * Decided by the summarizer from the signals themselves: the thrown error looks the same for both.
   */
  readonly abortedBy?: 'caller' | 'timeout';
  /** The time limit, quoted in the `timeout` message. */
  readonly timeoutMs: number;
}

const longestDetail = 300;

/**
 * Turns what the AI SDK threw into a {@link SummarizerError} with the failure's reason and a one-line message:
 * - `APICallError` (directly, or as the last error of a `RetryError`): HTTP 429 → `rate-limited`, 5xx and other
 *   statuses the provider calls retryable → `server-error`, other 4xx → `request-rejected`, a 2xx whose body could not
 *   be parsed → `malformed-response`, no status (fetch failed: refused, reset, DNS) → `connection-failed`;
 * - `JSONParseError`, `TypeValidationError`, `InvalidResponseDataError`, `NoContentGeneratedError`,
 *   `EmptyResponseBodyError` → `malformed-response`;
 * - an ended signal → `aborted` or `timeout` (see `abortedBy`);
 * - anything else → `other`.
 * Text from the provider is cut to one line and key-like strings in it are masked.
 *
 * @param options - The error, the summarizer's name, which signal fired (if any) and the time limit.
 * @returns The error to throw; a `SummarizerError` passed in comes back unchanged.
 */
export function classifySummarizerError({
  error,
  summarizer,
  abortedBy,
  timeoutMs,
}: ClassifySummarizerErrorOptions): SummarizerError {
  if (SummarizerError.isInstance(error)) return error;
  const fail = (reason: SummarizerFailureReason, message: string, statusCode?: number): SummarizerError =>
    new SummarizerError({ summarizer, reason, message, cause: error, ...(statusCode === undefined ? {} : { statusCode }) });

  if (abortedBy === 'caller') return fail('aborted', "the caller's abort signal fired before the summary arrived");
  if (abortedBy === 'timeout') {
    return fail(
      'timeout',
      `expected a summary within ${timeoutMs} ms (\`timeoutMs\`, retries included), got none; raise \`timeoutMs\` or use a faster model`,
    );
  }

  const attempts = RetryError.isInstance(error) ? error.errors.length : 1;
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const after = attempts === 1 ? 'after 1 attempt' : `after ${attempts} attempts`;

  if (APICallError.isInstance(last)) {
    const { statusCode, url } = last;
    if (statusCode === undefined) {
      return fail('connection-failed', `could not reach ${url} ${after}: ${describeNetworkFailure(last)}`);
    }
    if (isMalformed(last.cause) || (statusCode >= 200 && statusCode < 300)) {
      return fail('malformed-response', `could not read the answer from ${url}: ${describeMalformed(last.cause) ?? describe(last)}`, statusCode);
    }
    const summary = `HTTP ${statusCode} from ${url} ${after}: ${describe(last)}`;
    if (statusCode === 429) return fail('rate-limited', summary, statusCode);
    if (statusCode >= 500 || last.isRetryable) return fail('server-error', summary, statusCode);
    return fail('request-rejected', summary, statusCode);
  }
  if (isMalformed(last)) return fail('malformed-response', `could not read the model's answer: ${describeMalformed(last) ?? describe(last)}`);
  if (last instanceof Error && last.name === 'TimeoutError') return fail('timeout', `the request timed out: ${describe(last)}`);
  if (last instanceof Error && last.name === 'AbortError') return fail('aborted', `the request was aborted: ${describe(last)}`);
  return fail('other', describe(last));
}

function isMalformed(error: unknown): boolean {
  return (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    NoContentGeneratedError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error)
  );
}

/** Says what was wrong with an answer without quoting it: parse errors repeat the whole body. */
function describeMalformed(error: unknown): string | undefined {
  if (JSONParseError.isInstance(error)) return 'expected a JSON body, got text that does not parse as JSON';
  if (TypeValidationError.isInstance(error)) return "expected the provider's response shape, got JSON that does not match it";
  if (isMalformed(error)) return describe(error);
  return undefined;
}

/** The innermost cause with a message, e.g. `connect ECONNREFUSED 127.0.0.1:4000`. */
function describeNetworkFailure(error: Error): string {
  let current: unknown = error;
  let detail = error.message;
  const seen = new Set<unknown>();
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (current.message !== '') detail = current.message;
    current = current.cause;
  }
  return oneLine(detail);
}

function describe(error: unknown): string {
  if (error instanceof Error) return oneLine(error.message === '' ? error.name : error.message);
  return oneLine(String(error));
}

function oneLine(text: string): string {
  const line = redactSecrets(text).replace(/\s+/g, ' ').trim();
  return line.length > longestDetail ? `${line.slice(0, longestDetail - 1)}…` : line;
}
