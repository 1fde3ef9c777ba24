import { describe, expect, it } from 'vitest';
import { CtxError } from './ctx-error.js';
import { SummarizerError } from './summarizer-error.js';
import { TokenCountError } from './token-count-error.js';

describe('SummarizerError', () => {
  it('should say which summarizer failed and why, and keep the status and the cause', () => {
    const cause = new Error('HTTP 429 Too Many Requests');
    const error = new SummarizerError({ summarizer: 'qwen3', reason: 'rate-limited', statusCode: 429, message: 'still 429 after 3 attempts', cause });
    expect(error.message).toBe('Summarizer qwen3 failed (rate-limited): still 429 after 3 attempts');
    expect(error).toMatchObject({ name: 'SummarizerError', reason: 'rate-limited', statusCode: 429, summarizer: 'qwen3', cause });
  });

  it('should be recognised by its own isInstance and CtxError.isInstance, and rejected by a sibling class', () => {
    const error = new SummarizerError({ summarizer: 'm', reason: 'timeout', message: 'no answer in 1 s' });
    expect(SummarizerError.isInstance(error)).toBe(true);
    expect(CtxError.isInstance(error)).toBe(true);
    expect(TokenCountError.isInstance(error)).toBe(false);
    expect(SummarizerError.isInstance(new TokenCountError({ cause: 'x' }))).toBe(false);
  });
});
