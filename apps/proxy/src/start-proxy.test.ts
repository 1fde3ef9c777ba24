import { afterEach, describe, expect, it } from 'vitest';
import { InvalidProxyOptionsError } from './invalid-proxy-options-error.js';
import { startProxy, type RunningProxy } from './start-proxy.js';
import { closedPortUrl, startFakeUpstream, type FakeUpstream } from './test-support/fake-upstream.js';

const secretKey = 'sk-ant-secret-4f9c2b7e';
const secretBearer = 'Bearer sk-openai-secret-8d1a';

const smallAnthropicRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 64,
  messages: [{ role: 'user', content: 'Say hello' }],
};

const smallOpenAIRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello' }] };

describe('startProxy', () => {
  const cleanups: (() => Promise<void>)[] = [];
  const logs: string[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    logs.length = 0;
  });

  async function start(
    options: { upstream?: FakeUpstream; upstreamUrl?: string; timeoutMs?: number; maxBodyBytes?: number; window?: number } = {},
  ): Promise<RunningProxy> {
    const proxy = await startProxy({
      upstream: options.upstreamUrl ?? options.upstream?.url ?? 'http://127.0.0.1:9',
      port: 0,
      log: (line) => logs.push(line),
      ...(options.window === undefined ? {} : { window: options.window }),
      ...(options.timeoutMs === undefined ? {} : { upstreamTimeoutMs: options.timeoutMs }),
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    });
    cleanups.push(() => proxy.close());
    return proxy;
  }

  async function upstreamWith(...args: Parameters<typeof startFakeUpstream>): Promise<FakeUpstream> {
    const upstream = await startFakeUpstream(...args);
    cleanups.push(() => upstream.close());
    return upstream;
  }

  it('should listen on 127.0.0.1 by default', async () => {
    const proxy = await start();
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('should warn when listening on an address other machines can reach', async () => {
    const proxy = await startProxy({ upstream: 'http://127.0.0.1:9', port: 0, host: '0.0.0.0', log: (line) => logs.push(line) });
    cleanups.push(() => proxy.close());
    expect(logs.join('\n')).toMatch(/WARNING: listening on 0\.0\.0\.0/);
  });

  it('should refuse a preset that needs a model, and an unknown preset, at start-up', async () => {
    await expect(startProxy({ upstream: 'http://127.0.0.1:9', port: 0, preset: 'quality' })).rejects.toSatisfy(
      (error: unknown) => InvalidProxyOptionsError.isInstance(error) && /needs a summarizer/.test(error.message),
    );
    await expect(startProxy({ upstream: 'http://127.0.0.1:9', port: 0, preset: 'no-such-preset' })).rejects.toSatisfy(
      (error: unknown) => InvalidProxyOptionsError.isInstance(error) && /coding-agent/.test(error.message),
    );
    await expect(startProxy({ upstream: 'ftp://example.test', port: 0 })).rejects.toSatisfy(
      (error: unknown) => InvalidProxyOptionsError.isInstance(error) && error.option === 'upstream',
    );
  });

  it('should forward unknown paths unchanged: method, path, query, headers and body', async () => {
    const upstream = await upstreamWith((_request, response) => {
      response.writeHead(201, { 'content-type': 'text/plain', 'x-upstream': 'yes' });
      response.end('created');
    });
    const proxy = await start({ upstream });
    const body = Buffer.from([0, 1, 2, 250, 251, 252]);
    const response = await fetch(`${proxy.url}/v1/files/abc?purpose=batch&x=%20y`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'x-custom': 'kept', 'anthropic-beta': 'files-api' },
      body,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-upstream')).toBe('yes');
    expect(await response.text()).toBe('created');
    const received = upstream.received[0];
    expect(received?.method).toBe('PUT');
    expect(received?.url).toBe('/v1/files/abc?purpose=batch&x=%20y');
    expect(received?.headers['x-custom']).toBe('kept');
    expect(received?.headers['anthropic-beta']).toBe('files-api');
    expect(received?.body.equals(body)).toBe(true);
  });

  it('should forward a small conversation request byte for byte while it needs no compression', async () => {
    const upstream = await upstreamWith();
    const proxy = await start({ upstream });
    const text = JSON.stringify(smallAnthropicRequest, null, 2);
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-ctx-conversation': 'c1' }, body: text });
    expect(response.status).toBe(200);
    expect(upstream.received[0]?.body.toString('utf8')).toBe(text);
    // Our own header is for the proxy only.
    expect(upstream.received[0]?.headers['x-ctx-conversation']).toBeUndefined();
  });

  it('should send a request it does not compress on as the very bytes it received, not decoded and encoded again', async () => {
    const upstream = await upstreamWith();
    const proxy = await start({ upstream });
    // Not valid UTF-8 (0xff 0xfe): decoded, it reads as two replacement characters; the upstream must get the bytes.
    const bytes = Buffer.concat([Buffer.from('{"model": "claude-sonnet-4-5", "note": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes });
    expect(response.status).toBe(200);
    expect(upstream.received[0]?.body.equals(bytes)).toBe(true);
  });

  it('should pass a streamed response through chunk by chunk, in order, without buffering', async () => {
    let releaseSecond: () => void = () => undefined;
    const secondAllowed = new Promise<void>((resolve) => {
      releaseSecond = resolve;
    });
    const upstream = await upstreamWith(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":12}}}\n\n');
      // The second event is sent only once the client has read the first: a proxy that buffers never delivers it.
      await secondAllowed;
      response.write('event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"Hello"}}\n\n');
      response.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    });
    const proxy = await start({ upstream });
    const response = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...smallAnthropicRequest, stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const first = await Promise.race([
      reader.read(),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('the first event did not arrive: buffered')), 5_000)),
    ]);
    const events = [decoder.decode(first.value)];
    expect(events[0]).toContain('message_start');
    releaseSecond();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      events.push(decoder.decode(value));
    }
    const all = events.join('');
    expect(all.indexOf('message_start')).toBeLessThan(all.indexOf('content_block_delta'));
    expect(all.indexOf('content_block_delta')).toBeLessThan(all.indexOf('message_stop'));
  });

  it('should answer 502 in the provider error shape when the upstream is down', async () => {
    const proxy = await start({ upstreamUrl: await closedPortUrl() });
    const anthropic = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', body: JSON.stringify(smallAnthropicRequest) });
    expect(anthropic.status).toBe(502);
    const anthropicBody = (await anthropic.json()) as { type: string; error: { type: string; message: string } };
    expect(anthropicBody.type).toBe('error');
    expect(anthropicBody.error.type).toBe('api_error');
    expect(anthropicBody.error.message).toMatch(/could not reach the upstream/);
    const openai = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(smallOpenAIRequest) });
    expect(openai.status).toBe(502);
    const openaiBody = (await openai.json()) as { error: { type: string; message: string } };
    expect(openaiBody.error.type).toBe('server_error');
    expect(openaiBody.error.message).toMatch(/could not reach the upstream/);
  });

  it('should send a request once more when the upstream drops the connection before answering', async () => {
    let calls = 0;
    const upstream = await upstreamWith((_request, response) => {
      calls += 1;
      if (calls === 1) {
        response.socket?.destroy();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    const proxy = await start({ upstream });
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', body: JSON.stringify(smallAnthropicRequest) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(upstream.received).toHaveLength(2);
  });

  it('should answer 504 in the provider error shape when the upstream sends nothing within the timeout', async () => {
    const upstream = await upstreamWith(() => {
      // Never answers.
    });
    const proxy = await start({ upstream, timeoutMs: 300 });
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', body: JSON.stringify(smallAnthropicRequest) });
    expect(response.status).toBe(504);
    const body = (await response.json()) as { type: string; error: { type: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'timeout_error' } });
    expect(proxy.stats().proxyErrors).toBe(1);
  });

  it('should abort the upstream request when the client aborts', async () => {
    let receivedResolve: () => void = () => undefined;
    const receivedPromise = new Promise<void>((resolve) => {
      receivedResolve = resolve;
    });
    const upstream = await upstreamWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: ping\ndata: {}\n\n');
      receivedResolve();
      // Then keeps the stream open.
    });
    const proxy = await start({ upstream });
    const controller = new AbortController();
    const response = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ ...smallAnthropicRequest, stream: true }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await receivedPromise;
    controller.abort();
    const aborted = upstream.received[0]?.aborted;
    await expect(
      Promise.race([aborted, new Promise((_resolve, reject) => setTimeout(() => reject(new Error('upstream not aborted')), 5_000))]),
    ).resolves.toBeUndefined();
  });

  it('should abort the upstream request when the client aborts before the response started', async () => {
    const upstream = await upstreamWith(() => {
      // Never answers.
    });
    const proxy = await start({ upstream });
    const controller = new AbortController();
    const pending = fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(smallOpenAIRequest), signal: controller.signal });
    for (let attempt = 0; attempt < 100 && upstream.received.length === 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect(
      Promise.race([upstream.received[0]?.aborted, new Promise((_resolve, reject) => setTimeout(() => reject(new Error('upstream not aborted')), 5_000))]),
    ).resolves.toBeUndefined();
  });

  it('should answer 413 in the provider error shape for a body over the limit, without calling the upstream', async () => {
    const upstream = await upstreamWith();
    const proxy = await start({ upstream, maxBodyBytes: 1_000 });
    const big = { ...smallAnthropicRequest, messages: [{ role: 'user', content: 'x'.repeat(5_000) }] };
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', body: JSON.stringify(big) });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    const openai = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(big) });
    expect(openai.status).toBe(413);
    expect(await openai.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(upstream.received).toHaveLength(0);
  });

  it('should pass API keys through to the upstream and never write them to the log', async () => {
    const upstream = await upstreamWith();
    const proxy = await start({ upstream });
    const headers = { 'x-api-key': secretKey, authorization: secretBearer, 'content-type': 'application/json' };
    await (await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(smallAnthropicRequest) })).text();
    await (await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(smallOpenAIRequest) })).text();
    await (await fetch(`${proxy.url}/v1/models?key=1`, { headers })).text();
    await (await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers, body: 'not json' })).text();
    expect(upstream.received.every((request) => request.headers['x-api-key'] === secretKey && request.headers.authorization === secretBearer)).toBe(true);
    // A failing upstream too: error paths log as well.
    await upstream.close();
    await (await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(smallAnthropicRequest) })).text();
    expect(logs.length).toBeGreaterThanOrEqual(5);
    const all = logs.join('\n');
    expect(all).not.toContain('secret');
    expect(all).not.toContain('sk-');
  });

  it('should send a request it cannot read on unchanged and say why in the log', async () => {
    const upstream = await upstreamWith();
    const proxy = await start({ upstream });
    const odd = JSON.stringify({ model: 'claude-sonnet-4-5', messages: 'not a list' });
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', body: odd });
    expect(response.status).toBe(200);
    expect(upstream.received[0]?.body.toString('utf8')).toBe(odd);
    expect(logs.join('\n')).toMatch(/forwarded unchanged: not a request the anthropic codec reads/);
    expect(proxy.stats().failedOpen).toBe(1);
  });

  it('should append to a conversation whose provider numbers tool calls per turn, and forward the ids the client sent', async () => {
    const upstream = await upstreamWith();
    const proxy = await start({ upstream, window: 8_000 });
    // Kimi on some hosts gives the first call of every turn the same id.
    const id = 'functions.list_dir:0';
    const turn = (index: number, lines: number) => [
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'list_dir', arguments: `{"path":"/repo/pkg-${index}"}` } }] },
      { role: 'tool', tool_call_id: id, content: `pkg-${index}/src/file.ts\n`.repeat(lines) },
    ];
    const messages = [{ role: 'user', content: 'Map the packages.' }, ...Array.from({ length: 30 }, (_, index) => turn(index, 150)).flat()];
    // The first request is compacted; the next two add short turns, which fit without compacting again.
    for (const list of [messages, [...messages, ...turn(30, 3)], [...messages, ...turn(30, 3), ...turn(31, 3)]]) {
      const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'kimi-k3', messages: list }) });
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(logs.filter((line) => line.includes('/v1/chat/completions')).map((line) => /· prefix (\w+)/.exec(line)?.[1] ?? 'none')).toEqual(['none', 'kept', 'kept']);
    const sent = JSON.parse(upstream.received.at(-1)?.body.toString('utf8') ?? '{}') as { messages: { tool_calls?: { id: string }[]; tool_call_id?: string }[] };
    const ids = new Set(sent.messages.flatMap((message) => [...(message.tool_calls ?? []).map((call) => call.id), ...(message.tool_call_id === undefined ? [] : [message.tool_call_id])]));
    expect(ids).toEqual(new Set([id]));
  });

  it('should report what it did at GET /ctx/stats', async () => {
    const upstream = await upstreamWith();
    const proxy = await start({ upstream });
    for (let turn = 0; turn < 2; turn += 1) {
      const messages = [
        { role: 'user', content: 'Say hello' },
        ...(turn === 1 ? [{ role: 'assistant', content: 'Hello' }, { role: 'user', content: 'Again' }] : []),
      ];
      await (await fetch(`${proxy.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ ...smallAnthropicRequest, messages }) })).text();
    }
    const stats = (await (await fetch(`${proxy.url}/ctx/stats`)).json()) as { conversationRequests: number; cachePrefix: { compared: number; kept: number; rate: number } };
    expect(stats.conversationRequests).toBe(2);
    expect(stats.cachePrefix).toMatchObject({ compared: 1, kept: 1, rate: 1 });
  });
});
