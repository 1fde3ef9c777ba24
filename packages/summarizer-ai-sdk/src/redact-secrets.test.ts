import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('should mask provider keys and bearer tokens', () => {
    expect(redactSecrets('Incorrect API key provided: sk-proj-abc123. Try again.')).toBe(
      'Incorrect API key provided: [redacted]. Try again.',
    );
    expect(redactSecrets('header was Bearer abc.def')).toBe('header was Bearer [redacted]');
    expect(redactSecrets('anthropic key sk-ant-api03-XYZ rejected')).toBe('anthropic key [redacted] rejected');
  });

  it('should leave ordinary error text alone', () => {
    const text = 'max_tokens is too large: 500000 > 128000 for model gpt-4.1-mini';

    expect(redactSecrets(text)).toBe(text);
  });
});
