import { SummarizerError } from '@ctx/core';
import { APICallError, InvalidResponseDataError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifySummarizerError } from './classify-summarizer-error.js';

const url = 'http://127.0.0.1:9/v1/chat/completions';

function apiCallError(statusCode: number, message = 'provider says no'): APICallError {
  return new APICallError({ message, url, requestBodyValues: {}, statusCode, isRetryable: statusCode === 429 || statusCode >= 500 });
}

describe('classifySummarizerError', () => {
  it('should read the status and attempt count from the last error of a RetryError', () => {
    const error = new RetryError({
      message: 'Failed after 2 attempts',
      reason: 'errorNotRetryable',
      errors: [apiCallError(429), apiCallError(403, 'model not allowed')],
    });

    const classified = classifySummarizerError({ error, summarizer: 'small', timeoutMs: 1_000 });

    expect(classified.reason).toBe('request-rejected');
    expect(classified.statusCode).toBe(403);
    expect(classified.message).toBe(`Summarizer small failed (request-rejected): HTTP 403 from ${url} after 2 attempts: model not allowed`);
    expect(classified.cause).toBe(error);
  });

  it('should call a status the provider marks retryable a server error', () => {
    const error = new APICallError({ message: 'conflict', url, requestBodyValues: {}, statusCode: 409, isRetryable: true });

    expect(classifySummarizerError({ error, summarizer: 's', timeoutMs: 1 }).reason).toBe('server-error');
  });

  it('should call invalid response data malformed', () => {
    const error = new InvalidResponseDataError({ data: {}, message: 'Expected a string' });

    expect(classifySummarizerError({ error, summarizer: 's', timeoutMs: 1 }).reason).toBe('malformed-response');
  });

  it('should report which signal ended the call, whatever was thrown', () => {
    const error = new DOMException('This operation was aborted', 'AbortError');

    expect(classifySummarizerError({ error, summarizer: 's', timeoutMs: 50, abortedBy: 'timeout' }).message).toBe(
      'Summarizer s failed (timeout): expected a summary within 50 ms (`timeoutMs`, retries included), got none; raise `timeoutMs` or use a faster model',
    );
    expect(classifySummarizerError({ error, summarizer: 's', timeoutMs: 50, abortedBy: 'caller' }).reason).toBe('aborted');
  });

  it('should keep a provider message to one line', () => {
    const error = apiCallError(400, 'first line\nsecond line\n\n  third');

    expect(classifySummarizerError({ error, summarizer: 's', timeoutMs: 1 }).message).toMatch(/first line second line third$/);
  });

  it('should return a SummarizerError unchanged', () => {
    const error = new SummarizerError({ summarizer: 's', reason: 'empty-summary', message: 'no text' });

    expect(classifySummarizerError({ error, summarizer: 'other', timeoutMs: 1 })).toBe(error);
  });
});
