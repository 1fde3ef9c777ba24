import { describe, expect, it } from 'vitest';
import { upstreamUrl } from './forward-to-upstream.js';

describe('upstreamUrl', () => {
  it('should keep the path and query of the request under the upstream path prefix', () => {
    expect(upstreamUrl(new URL('https://api.anthropic.com'), 'http://127.0.0.1:8787/v1/messages?beta=true').href).toBe(
      'https://api.anthropic.com/v1/messages?beta=true',
    );
    expect(upstreamUrl(new URL('https://gateway.test/api/'), 'http://127.0.0.1:8787/v1/chat/completions').href).toBe(
      'https://gateway.test/api/v1/chat/completions',
    );
  });

  it('should not double a /v1 the upstream was given with', () => {
    expect(upstreamUrl(new URL('https://api.openai.com/v1'), 'http://127.0.0.1:8787/v1/chat/completions').href).toBe(
      'https://api.openai.com/v1/chat/completions',
    );
  });
});
