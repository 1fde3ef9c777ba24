import { performance } from 'node:perf_hooks';
import { createTokenCounter } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { conversationHeader, conversationKey } from './conversation-key.js';
import { createCostModelLookup } from './cost-model-lookup.js';
import { formatRequestLog } from './format-request-log.js';
import { forwardToUpstream } from './forward-to-upstream.js';
import { dialectOfPath, providerErrorResponse, type ProviderDialect } from './provider-error-response.js';
import { resolveProxyOptions, type ProxyOptions, type ResolvedProxyOptions } from './proxy-options.js';
import { ProxyStats, type ProxyStatsSnapshot } from './proxy-stats.js';
import { RequestCompressor, type CompressedRequest } from './request-compressor.js';
import { resolveProxyPreset } from './resolve-proxy-preset.js';
import { tapReportedUsage } from './usage-tap.js';

/** A proxy application, not yet listening: mount its `fetch` in any server (see {@link startProxy}). */
export interface ProxyApp {
  /** Answers one request (the Fetch API handler the hono app exposes). */
  readonly fetch: (request: Request) => Response | Promise<Response>;
  /** What the proxy has done so far (also served at `GET /ctx/stats`). */
  readonly stats: () => ProxyStatsSnapshot;
  /** The options in effect, defaults filled in. */
  readonly options: ResolvedProxyOptions;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** Request bodies are UTF-8 JSON; a byte order mark is skipped, as `Request.text()` does. */
const utf8 = new TextDecoder();

/**
 * Creates the proxy: `POST /v1/messages` (Anthropic) and `POST /v1/chat/completions` (OpenAI) are compressed with
 * the preset and forwarded; `POST /v1/messages/count_tokens` is compressed the same way without touching the
 * conversation's state, so it counts what would be sent; `GET /ctx/stats` reports what the proxy did; every other
 * request is forwarded unchanged. Nothing inside the proxy can fail a request: when compression fails, the request
 * goes on as it came and the log says why.
 *
 * @throws {@link InvalidProxyOptionsError} for invalid options, an unknown preset, or one that needs a model.
 */
export async function createProxyApp(options: ProxyOptions): Promise<ProxyApp> {
  const resolved = resolveProxyOptions(options);
  const preset = resolveProxyPreset(resolved.preset);
  const tokenCounter = createTokenCounter(await createGptTokenizer());
  const compressor = new RequestCompressor({
    preset,
    ...(resolved.cacheAware ? { costModelFor: createCostModelLookup() } : {}),
    window: resolved.window,
    stateless: resolved.stateless,
    tokenCounter,
    maxConversations: resolved.maxConversations,
  });
  const stats = new ProxyStats();
  const snapshot = () => stats.snapshot(compressor.conversations);
  const app = new Hono();

  app.use('*', async (context, next) => {
    stats.recordRequest();
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: resolved.maxBodyBytes,
      onError: (context) => {
        stats.recordProxyError();
        resolved.log(`ctx proxy: ${context.req.method} ${context.req.path} 413 · body over ${resolved.maxBodyBytes} bytes (--max-body)`);
        return providerErrorResponse(
          dialectOfPath(context.req.path),
          'request-too-large',
          `ctx proxy: the request body is over the proxy's limit of ${resolved.maxBodyBytes} bytes; raise it with --max-body if this is expected.`,
        );
      },
    }),
  );

  app.get('/ctx/stats', (context) => context.json(snapshot()));

  const forward = async (context: Context, dialect: ProviderDialect, body: ReadableStream<Uint8Array> | Uint8Array | null, compression?: CompressedRequest) => {
    let failure: string | undefined;
    const response = await forwardToUpstream({
      onFailure: (reason) => {
        failure = reason;
      },
      upstream: resolved.upstream,
      request: context.req.raw,
      body,
      dialect,
      timeoutMs: resolved.upstreamTimeoutMs,
      tapBody:
        compression === undefined
          ? undefined
          : (stream, status) => (status === 200 ? tapReportedUsage(stream, dialect, compression.recordInputTokens) : stream),
    });
    if (response.headers.has('x-ctx-proxy-error')) stats.recordProxyError();
    return { response, failure };
  };
  const withFailure = (line: string, failure: string | undefined) => (failure === undefined ? line : `${line} · ${failure}`);

  const compressing = (dialect: ProviderDialect, track: boolean) => async (context: Context) => {
    const started = performance.now();
    // The bytes as they came are what an unchanged request is sent as: no decoding and encoding again, and none of
    // fetch's own checking of a string body (a scan of the whole text) — a large share of the proxy's time on a
    // request of megabytes.
    const bytes = new Uint8Array(await context.req.arrayBuffer());
    const text = utf8.decode(bytes);
    let request: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) request = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: the provider answers it as it sees fit.
    }
    if (request === undefined) {
      const { response, failure } = await forward(context, dialect, bytes);
      resolved.log(
        withFailure(
          `${formatRequestLog({ method: context.req.method, path: context.req.path, status: response.status, addedMs: performance.now() - started })} (body is not a JSON object)`,
          failure,
        ),
      );
      return response;
    }
    const key = conversationKey(dialect, context.req.header(conversationHeader), request);
    let compression: CompressedRequest;
    try {
      compression = await compressor.compress(dialect, request, key, { track });
    } catch (error) {
      // The compressor fails open itself; this is the last line of defence.
      compression = {
        body: undefined,
        outcome: 'failed-open',
        reason: `unexpected: ${firstLine(error)}`,
        ran: 'nothing',
        tokensBefore: 0,
        tokensAfter: 0,
        window: 0,
        prefix: 'first',
        recordInputTokens: () => undefined,
      };
    }
    if (track) stats.recordConversationRequest(compression);
    const addedMs = performance.now() - started;
    const body = compression.body ?? bytes;
    const { response, failure } = await forward(context, dialect, body, track ? compression : undefined);
    resolved.log(
      withFailure(
        formatRequestLog({
        method: context.req.method,
        path: context.req.path,
        status: response.status,
        model: typeof request.model === 'string' ? request.model : undefined,
        conversation: key,
        compression,
        addedMs,
        stabilityRate: snapshot().cachePrefix.rate,
        }),
        failure,
      ),
    );
    return response;
  };

  app.post('/v1/messages', compressing('anthropic', true));
  app.post('/v1/messages/count_tokens', compressing('anthropic', false));
  app.post('/v1/chat/completions', compressing('openai', true));

  app.all('*', async (context) => {
    stats.recordForwarded();
    const started = performance.now();
    const { response, failure } = await forward(context, dialectOfPath(context.req.path), context.req.raw.body);
    resolved.log(
      withFailure(formatRequestLog({ method: context.req.method, path: context.req.path, status: response.status, addedMs: performance.now() - started }), failure),
    );
    return response;
  });

  app.onError((error, context) => {
    // Reached only for a failure outside compression (e.g. the client's body stream broke while being read).
    stats.recordProxyError();
    resolved.log(`ctx proxy: ${context.req.method} ${context.req.path} 502 · ${firstLine(error)}`);
    return providerErrorResponse(dialectOfPath(context.req.path), 'upstream-unreachable', `ctx proxy: the request could not be forwarded (${firstLine(error)}).`);
  });

  return { fetch: (request) => app.fetch(request), stats: snapshot, options: resolved };
}
