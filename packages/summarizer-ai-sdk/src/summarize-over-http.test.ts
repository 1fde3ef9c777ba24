import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { HistoryEntry } from '@ctx/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createAiSdkSummarizer } from './create-ai-sdk-summarizer.js';
import { summarizerRejection } from './test-support/summarizer-rejection.js';
import type { AiSdkSummarizerOptions } from './ai-sdk-summarizer-options.js';
import { startFakeOpenAICompatibleServer, type FakeOpenAICompatibleServer, type FakeServerScript } from './testing/index.js';

// Every test talks to a fake OpenAI-compatible server on 127.0.0.1 through the real provider package and the real
// `fetch`: what is tested is what a user of `@ai-sdk/openai-compatible` gets, status codes and retries included.
// Retries are kept fast by the fake's `retry-after-ms` header, which the AI SDK honours instead of its 2 s backoff.

const entries: HistoryEntry[] = [
  { speaker: 'human', blocks: [{ type: 'text', text: 'Why does the build fail?' }] },
  { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'run', parameters: { command: 'pnpm build' } }] },
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'run', result: 'TS2307: missing module' }] },
];
const fastRetry = { 'retry-after-ms': '10' };

let servers: FakeOpenAICompatibleServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function startServer(script: FakeServerScript): Promise<FakeOpenAICompatibleServer> {
  const server = await startFakeOpenAICompatibleServer(script);
  servers.push(server);
  return server;
}

function summarizerFor(baseURL: string, options: Partial<AiSdkSummarizerOptions> = {}, apiKey = 'test-key') {
  const provider = createOpenAICompatible({ baseURL, name: 'fake', apiKey });
  return createAiSdkSummarizer({ model: provider('fake-model'), timeoutMs: 5_000, ...options });
}


describe('createAiSdkSummarizer over HTTP', () => {
  it('should return the scripted summary and usage and send instructions, transcript and max_tokens', async () => {
    const server = await startServer([
      { summary: '  The build fails on a missing module.  ', usage: { inputTokens: 1200, outputTokens: 40, cacheReadTokens: 1000 } },
    ]);
    const summarizer = summarizerFor(server.url, { temperature: 0 });

    const result = await summarizer.summarize({ entries, instructions: 'Summarize the debugging session.', maxOutputTokens: 300 });

    expect(result).toEqual({
      text: 'The build fails on a missing module.',
      usage: { inputTokens: 1200, outputTokens: 40, cacheReadTokens: 1000 },
    });
    expect(summarizer.name).toBe('fake.chat/fake-model');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('[redacted]');
    expect(request?.body).toMatchObject({
      model: 'fake-model',
      max_tokens: 300,
      temperature: 0,
      messages: [
        { role: 'system', content: 'Summarize the debugging session.' },
        {
          role: 'user',
          content:
            'human: Why does the build fail?\n\nai: [called tool run with {"command":"pnpm build"}]\n\ntool: [tool run returned: TS2307: missing module]',
        },
      ],
    });
  });

  it('should retry after HTTP 429 and return the summary of the next attempt', async () => {
    const server = await startServer([{ status: 429, headers: fastRetry }, { summary: 'Second time lucky.' }]);

    const result = await summarizerFor(server.url, { maxRetries: 2 }).summarize({ entries });

    expect(result.text).toBe('Second time lucky.');
    expect(server.requests).toHaveLength(2);
  });

  it('should throw rate-limited when every attempt gets HTTP 429', async () => {
    const server = await startServer(() => ({ status: 429, headers: fastRetry }));

    const error = await summarizerRejection(summarizerFor(server.url, { maxRetries: 1 }).summarize({ entries }));

    expect(error.reason).toBe('rate-limited');
    expect(error.statusCode).toBe(429);
    expect(server.requests).toHaveLength(2);
  });

  it('should throw server-error after maxRetries + 1 attempts when every attempt gets HTTP 503', async () => {
    const server = await startServer(() => ({ status: 503, headers: fastRetry, body: { error: { message: 'overloaded' } } }));

    const error = await summarizerRejection(summarizerFor(server.url, { maxRetries: 2 }).summarize({ entries }));

    expect(server.requests).toHaveLength(3);
    expect(error.reason).toBe('server-error');
    expect(error.statusCode).toBe(503);
    expect(error.message).toBe(
      `Summarizer fake.chat/fake-model failed (server-error): HTTP 503 from ${server.url}/chat/completions after 3 attempts: overloaded`,
    );
  });

  it('should throw request-rejected without retrying when the server answers HTTP 400', async () => {
    const server = await startServer(() => ({ status: 400, body: { error: { message: 'max_tokens is too large' } } }));

    const error = await summarizerRejection(summarizerFor(server.url, { maxRetries: 2 }).summarize({ entries }));

    expect(error.reason).toBe('request-rejected');
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain('HTTP 400');
    expect(error.message).toContain('max_tokens is too large');
    expect(server.requests).toHaveLength(1);
  });

  it('should throw connection-failed when nothing listens on the port', async () => {
    const closed = await startFakeOpenAICompatibleServer([]);
    await closed.close();

    // One attempt only: the AI SDK waits 2 s before retrying a network failure (no retry-after header to honour).
    const error = await summarizerRejection(summarizerFor(closed.url, { maxRetries: 0 }).summarize({ entries }));

    expect(error.reason).toBe('connection-failed');
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toContain(`could not reach ${closed.url}/chat/completions after 1 attempt`);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('should throw malformed-response when the body is not JSON', async () => {
    const server = await startServer([{ malformed: 'not-json' }]);

    const error = await summarizerRejection(summarizerFor(server.url).summarize({ entries }));

    expect(error.reason).toBe('malformed-response');
    expect(error.message).toContain('expected a JSON body, got text that does not parse as JSON');
    expect(server.requests).toHaveLength(1);
  });

  it('should throw malformed-response when the JSON has no choices', async () => {
    const server = await startServer([{ malformed: 'no-choices' }]);

    const error = await summarizerRejection(summarizerFor(server.url).summarize({ entries }));

    expect(error.reason).toBe('malformed-response');
    expect(error.message).toContain("expected the provider's response shape");
  });

  it('should throw empty-summary when the model answers with blank text', async () => {
    const server = await startServer([{ summary: ' \n ', usage: { inputTokens: 10, outputTokens: 0 } }]);

    const error = await summarizerRejection(summarizerFor(server.url).summarize({ entries }));

    expect(error.reason).toBe('empty-summary');
  });

  it('should throw timeout when the server answers later than timeoutMs', async () => {
    const server = await startServer([{ delayMs: 2_000, then: { summary: 'Too late.' } }]);

    const error = await summarizerRejection(summarizerFor(server.url, { timeoutMs: 200 }).summarize({ entries }));

    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('within 200 ms');
  });

  it('should throw timeout when retries use up the time limit', async () => {
    const server = await startServer(() => ({ status: 503, headers: { 'retry-after-ms': '5000' } }));

    const error = await summarizerRejection(summarizerFor(server.url, { timeoutMs: 200, maxRetries: 3 }).summarize({ entries }));

    expect(error.reason).toBe('timeout');
    expect(server.requests).toHaveLength(1);
  });

  it("should throw aborted, not timeout, when the caller's signal fires mid-request", async () => {
    const controller = new AbortController();
    const server = await startServer(() => {
      setTimeout(() => controller.abort(), 10);
      return { hang: true };
    });

    const error = await summarizerRejection(summarizerFor(server.url).summarize({ entries, signal: controller.signal }));

    expect(error.reason).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it("should throw aborted when the caller's signal fires while waiting to retry", async () => {
    const controller = new AbortController();
    const server = await startServer(() => {
      setTimeout(() => controller.abort(), 10);
      return { status: 503, headers: { 'retry-after-ms': '5000' } };
    });

    const error = await summarizerRejection(summarizerFor(server.url, { maxRetries: 2 }).summarize({ entries, signal: controller.signal }));

    expect(error.reason).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('should keep the API key out of the error even when the server echoes it', async () => {
    const apiKey = 'sk-secret-123';
    const server = await startServer(() => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${apiKey}. Bearer ${apiKey} was rejected.` } },
    }));

    const error = await summarizerRejection(summarizerFor(server.url, {}, apiKey).summarize({ entries }));

    expect(error.reason).toBe('request-rejected');
    expect(error.message).toContain('Incorrect API key provided: [redacted]');
    for (const text of [String(error), error.message, JSON.stringify(error)]) expect(text).not.toContain(apiKey);
    expect(JSON.stringify(server.requests)).not.toContain(apiKey);
  });

  it('should send the headers option with every request', async () => {
    const server = await startServer([{ summary: 'ok' }]);

    await summarizerFor(server.url, { headers: { 'x-ctx-run': 'run-7' } }).summarize({ entries });

    expect(server.requests[0]?.headers['x-ctx-run']).toBe('run-7');
  });
});
