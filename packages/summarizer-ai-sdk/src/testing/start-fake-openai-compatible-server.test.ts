import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAICompatibleServer, type FakeOpenAICompatibleServer } from './start-fake-openai-compatible-server.js';
import type { FakeServerScript } from './fake-server-script.js';

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

function postChat(server: FakeOpenAICompatibleServer, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-secret-123' },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
}

describe('startFakeOpenAICompatibleServer', () => {
  it('should listen on 127.0.0.1 and give a base URL ending in /v1', async () => {
    const server = await startServer([]);

    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('should answer a scripted summary as an OpenAI chat completion with usage', async () => {
    const server = await startServer([{ summary: 'Short.', usage: { inputTokens: 30, outputTokens: 2, cacheReadTokens: 10 } }]);

    const response = await postChat(server, { model: 'm1', messages: [] });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      model: 'm1',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Short.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 30, completion_tokens: 2, total_tokens: 32, prompt_tokens_details: { cached_tokens: 10 } },
    });
  });

  it('should record each request with its parsed body and the credentials masked', async () => {
    const server = await startServer([{ summary: 'a' }, { summary: 'b' }]);

    await postChat(server, { model: 'm', messages: [{ role: 'user', content: 'one' }] });
    await postChat(server, { model: 'm', messages: [{ role: 'user', content: 'two' }] });

    expect(server.requests.map((request) => [request.index, request.method, request.path])).toEqual([
      [0, 'POST', '/v1/chat/completions'],
      [1, 'POST', '/v1/chat/completions'],
    ]);
    expect(server.requests[1]?.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'two' }] });
    expect(server.requests[0]?.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(server.requests)).not.toContain('sk-secret-123');
  });

  it('should answer HTTP 400 naming the request once a list script runs out', async () => {
    const server = await startServer([{ summary: 'only one' }]);

    await postChat(server, {});
    const response = await postChat(server, {});

    expect(response.status).toBe(400);
    expect(await response.text()).toContain('no answer for request #2 (it has 1)');
  });

  it('should answer statuses with their headers and body', async () => {
    const server = await startServer([
      { status: 429, headers: { 'retry-after-ms': '10' } },
      { status: 502, body: 'bad gateway' },
    ]);

    const limited = await postChat(server, {});
    const gateway = await postChat(server, {});

    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after-ms')).toBe('10');
    expect(await limited.json()).toEqual({ error: { message: 'fake server: HTTP 429', type: 'fake_error' } });
    expect(gateway.status).toBe(502);
    expect(await gateway.text()).toBe('bad gateway');
  });

  it('should answer a function script with the request and its index', async () => {
    const server = await startServer((request, index) => ({ summary: `#${index} for ${String((request.body as { model: string }).model)}` }));

    const response = await postChat(server, { model: 'm9' });

    expect(await response.json()).toMatchObject({ choices: [{ message: { content: '#0 for m9' } }] });
  });

  it('should answer malformed bodies with status 200', async () => {
    const server = await startServer([{ malformed: 'not-json' }, { malformed: 'no-choices' }]);

    const notJson = await postChat(server, {});
    const noChoices = await postChat(server, {});

    const notJsonText = await notJson.text();
    expect(notJson.status).toBe(200);
    expect(() => JSON.parse(notJsonText) as unknown).toThrow(SyntaxError);
    expect(await noChoices.json()).not.toHaveProperty('choices');
  });

  it('should answer 404 for routes other than POST /v1/chat/completions', async () => {
    const server = await startServer([{ summary: 'unused' }]);

    const response = await fetch(`${server.url}/models`);

    expect(response.status).toBe(404);
    expect(server.requests[0]?.path).toBe('/v1/models');
  });

  it('should stream the summary as server-sent events when the request asks for stream: true', async () => {
    const server = await startServer([{ summary: 'Streamed summary.', usage: { inputTokens: 12, outputTokens: 3 } }]);
    const provider = createOpenAICompatible({ baseURL: server.url, name: 'fake', apiKey: 'test-key', includeUsage: true });

    const result = streamText({ model: provider('fake-model'), prompt: 'hi', maxRetries: 0 });

    expect(await result.text).toBe('Streamed summary.');
    expect((await result.usage).inputTokens).toBe(12);
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
  });

  it('should end a hanging request when closed, so nothing is left open', async () => {
    const server = await startFakeOpenAICompatibleServer([{ hang: true }]);
    const pending = postChat(server, {}).then(
      () => 'answered',
      () => 'connection ended',
    );
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    await server.close();

    expect(await pending).toBe('connection ended');
    await server.close();
  });

  it('should end a delayed answer when closed instead of waiting for it', async () => {
    const server = await startFakeOpenAICompatibleServer([{ delayMs: 60_000, then: { summary: 'never' } }]);
    const pending = postChat(server, {}).then(
      () => 'answered',
      () => 'connection ended',
    );
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    await server.close();

    expect(await pending).toBe('connection ended');
  });

  it('should answer a delayed answer after its delay', async () => {
    const server = await startServer([{ delayMs: 50, then: { summary: 'later' } }]);

    const response = await postChat(server, {});

    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'later' } }] });
    expect(server.requests).toHaveLength(1);
  });
});
