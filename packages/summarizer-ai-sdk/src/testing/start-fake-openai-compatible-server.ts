import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeServerAnswer, FakeServerScript, FakeServerUsage, RecordedRequest } from './fake-server-script.js';

/** A running fake server; see {@link startFakeOpenAICompatibleServer}. */
export interface FakeOpenAICompatibleServer {
  /** The base URL to give a client, ending in `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Every request received so far, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Stops the server: ends hanging and delayed requests, closes every connection. Safe to call twice. */
  close(): Promise<void>;
}

const credentialHeaders = new Set(['authorization', 'x-api-key', 'api-key']);
const chatCompletionsPath = '/v1/chat/completions';

/**
 * Starts an HTTP server on 127.0.0.1 (a free port) that speaks enough of the OpenAI chat completions API for a
 * summarizer test: `POST /v1/chat/completions` answers from `script` (JSON, or server-sent events when the request
 * asks for `stream: true`); every other route answers 404. Each request is recorded with its parsed body and headers
 * (credentials masked). Use it with `createOpenAICompatible({ baseURL: server.url, name: 'fake', apiKey: 'test' })` and
 * close it after each test.
 *
 * @param script - The answers, as a list or a function; see {@link FakeServerScript}.
 * @returns The server's base URL, its recorded requests and `close()`.
 *
 * @example
 * ```ts
 * const server = await startFakeOpenAICompatibleServer([
 *   { status: 429, headers: { 'retry-after-ms': '10' } },
 *   { summary: 'The user fixed the failing test.', usage: { inputTokens: 900, outputTokens: 12 } },
 * ]);
 * try {
 *   // … point a client at server.url …
 *   expect(server.requests).toHaveLength(2);
 * } finally {
 *   await server.close();
 * }
 * ```
 */
export async function startFakeOpenAICompatibleServer(script: FakeServerScript): Promise<FakeOpenAICompatibleServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const answerFor = (request: RecordedRequest): FakeServerAnswer => {
    if (typeof script === 'function') return script(request, request.index);
    return (
      script[request.index] ?? {
        status: 400,
        body: errorBody(`fake server: the script has no answer for request #${request.index + 1} (it has ${script.length})`),
      }
    );
  };

  const respond = (response: ServerResponse, answer: FakeServerAnswer, requestBody: unknown): void => {
    if (closed || response.destroyed || response.writableEnded) return;
    if ('hang' in answer) return;
    if ('delayMs' in answer) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        respond(response, answer.then, requestBody);
      }, answer.delayMs);
      timers.add(timer);
      return;
    }
    if ('status' in answer) {
      const body = answer.body ?? errorBody(`fake server: HTTP ${answer.status}`);
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      const contentType = typeof body === 'string' ? 'text/plain' : 'application/json';
      response.writeHead(answer.status, { 'content-type': contentType, ...answer.headers });
      response.end(text);
      return;
    }
    if ('malformed' in answer) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(answer.malformed === 'not-json' ? 'this is not JSON {' : JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion' }));
      return;
    }
    const model = isRecord(requestBody) && typeof requestBody.model === 'string' ? requestBody.model : 'fake-model';
    const usage = answer.usage === undefined ? undefined : openAIUsage(answer.usage);
    const finishReason = answer.finishReason ?? 'stop';
    if (isRecord(requestBody) && requestBody.stream === true) {
      const includeUsage = isRecord(requestBody.stream_options) && requestBody.stream_options.include_usage === true;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: object, finish: string | null, extra: object = {}) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: now(), model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      response.write(chunk({ role: 'assistant', content: '' }, null));
      response.write(chunk({ content: answer.summary }, null));
      response.write(chunk({}, finishReason, includeUsage && usage !== undefined ? { usage } : {}));
      response.end('data: [DONE]\n\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: now(),
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: answer.summary }, finish_reason: finishReason }],
        ...(usage === undefined ? {} : { usage }),
      }),
    );
  };

  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const recorded: RecordedRequest = {
        index: requests.length,
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: recordHeaders(request),
        body: parseBody(text),
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      if (recorded.method !== 'POST' || recorded.path.split('?')[0] !== chatCompletionsPath) {
        respond(response, { status: 404, body: errorBody(`fake server: only POST ${chatCompletionsPath} is implemented`) }, undefined);
        return;
      }
      let answer: FakeServerAnswer;
      try {
        answer = answerFor(recorded);
      } catch (error) {
        answer = { status: 500, body: errorBody(`fake server: the script function threw: ${String(error)}`) };
      }
      respond(response, answer, recorded.body);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Hanging and delayed requests hold their sockets open; `close()` alone would wait for them forever.
      server.closeAllConnections();
      await stopped;
    },
  };
}

function errorBody(message: string): object {
  return { error: { message, type: 'fake_error' } };
}

function openAIUsage(usage: FakeServerUsage): object {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    ...(usage.cacheReadTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: usage.cacheReadTokens } }),
  };
}

function recordHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name] = credentialHeaders.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of request) chunks.push(chunk as Buffer);
  } catch {
    // The client went away mid-body; record what arrived.
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}
