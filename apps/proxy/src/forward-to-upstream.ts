import { providerErrorResponse, type ProviderDialect } from './provider-error-response.js';

/** Headers that describe one connection, not the request: never forwarded (RFC 9110 §7.6.1). */
const hopByHopHeaders: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Options of {@link forwardToUpstream}. */
export interface ForwardOptions {
  /** The upstream base URL; its path is a prefix of the forwarded path. */
  readonly upstream: URL;
  /** The client's request: method, path, query and headers are forwarded; its signal aborts the upstream call. */
  readonly request: Request;
  /**
   * The body to send: the client's own stream, or a body the proxy holds — the bytes it read (a request sent on
   * unchanged) or the compressed JSON.
   */
  readonly body: ReadableStream<Uint8Array> | Uint8Array | string | null;
  /** The dialect error responses are written in. */
  readonly dialect: ProviderDialect;
  /** Milliseconds to wait for the upstream's response headers before answering 504. */
  readonly timeoutMs: number;
  /** Wraps the upstream's response body (e.g. to read its usage); called only for a body. */
  readonly tapBody?: (body: ReadableStream<Uint8Array>, status: number) => ReadableStream<Uint8Array>;
  /** Told why the proxy answered by itself (502, 504), for the log: never holds a header or a key. */
  readonly onFailure?: (reason: string) => void;
}

/**
 * The upstream URL of a client request: the upstream's origin and path prefix, the request's path and query. An
 * upstream given with its `/v1` (as OpenAI clients' base URLs are written) does not double it: clients already send
 * `/v1/…`.
 */
export function upstreamUrl(upstream: URL, requestUrl: string): URL {
  const incoming = new URL(requestUrl);
  let prefix = upstream.pathname.replace(/\/+$/, '');
  if (prefix.endsWith('/v1') && (incoming.pathname === '/v1' || incoming.pathname.startsWith('/v1/'))) prefix = prefix.slice(0, -3);
  return new URL(`${prefix}${incoming.pathname}${incoming.search}`, upstream.origin);
}

function forwardedRequestHeaders(headers: Headers, bodyChanged: boolean): Headers {
  const result = new Headers();
  const connectionListed = new Set(
    (headers.get('connection') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  );
  headers.forEach((value, name) => {
    if (hopByHopHeaders.has(name) || connectionListed.has(name) || name === 'host') return;
    // Our own headers (the conversation key) are for the proxy, not the provider.
    if (name.startsWith('x-ctx-')) return;
    // The length of a rewritten body is the new body's: fetch sets it.
    if (bodyChanged && name === 'content-length') return;
    result.append(name, value);
  });
  return result;
}

function forwardedResponseHeaders(headers: Headers): Headers {
  const result = new Headers();
  headers.forEach((value, name) => {
    // fetch has already decoded the body, so its encoding and length no longer describe what is sent on.
    if (hopByHopHeaders.has(name) || name === 'content-encoding' || name === 'content-length') return;
    result.append(name, value);
  });
  return result;
}

/** Socket errors of a connection closed under the request, before any response: worth one more attempt. */
const retriedSocketErrors: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);

function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sends a request on to the upstream and returns its response, streamed as it arrives (Server-Sent Events included:
 * nothing is buffered). The client's abort aborts the upstream call. Answers in the provider's error shape when the
 * upstream cannot be reached (502) or sends no response headers within the timeout (504).
 */
export async function forwardToUpstream(options: ForwardOptions): Promise<Response> {
  const { request } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('upstream timeout'));
  }, options.timeoutMs);
  const abortFromClient = () => controller.abort(new Error('client aborted'));
  if (request.signal.aborted) abortFromClient();
  else request.signal.addEventListener('abort', abortFromClient, { once: true });
  const hasBody = options.body !== null && request.method !== 'GET' && request.method !== 'HEAD';
  // A body the proxy holds is sent from memory (and again on a retry); fetch sets its length.
  const held = typeof options.body === 'string' || options.body instanceof Uint8Array;
  const send = () =>
    fetch(upstreamUrl(options.upstream, request.url), {
      method: request.method,
      headers: forwardedRequestHeaders(request.headers, held),
      body: hasBody ? options.body : null,
      signal: controller.signal,
      redirect: 'manual',
      // Required by Node's fetch to send a stream as the body.
      ...(hasBody && !held ? { duplex: 'half' } : {}),
    });
  let upstream: Response;
  try {
    try {
      upstream = await send();
    } catch (error) {
      // A kept-alive connection the upstream closed just as it was reused fails before anything was answered: a
      // body the proxy holds (not a client stream) is sent once more, on a new connection.
      const replayable = held || !hasBody;
      if (!replayable || controller.signal.aborted || !retriedSocketErrors.has(causeCode(error))) throw error;
      upstream = await send();
    }
  } catch (error) {
    request.signal.removeEventListener('abort', abortFromClient);
    if (timedOut) {
      options.onFailure?.(`no response from the upstream within ${options.timeoutMs} ms`);
      return providerErrorResponse(
        options.dialect,
        'upstream-timeout',
        `ctx proxy: the upstream ${options.upstream.origin} sent no response within ${options.timeoutMs} ms; retry, or raise the proxy's --timeout.`,
      );
    }
    options.onFailure?.(`upstream unreachable (${causeCode(error)})`);
    return providerErrorResponse(
      options.dialect,
      'upstream-unreachable',
      `ctx proxy: could not reach the upstream ${options.upstream.origin} (${causeCode(error)}); check that it is up and that --upstream is right.`,
    );
  } finally {
    clearTimeout(timer);
  }
  // Statuses that cannot carry a body: the Response constructor refuses one.
  let body = [101, 204, 205, 304].includes(upstream.status) ? null : upstream.body;
  if (body !== null) {
    if (options.tapBody !== undefined) body = options.tapBody(body, upstream.status);
    // Once the response has ended the client's abort no longer concerns the upstream.
    const release = () => request.signal.removeEventListener('abort', abortFromClient);
    body = body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: release }));
  } else {
    request.signal.removeEventListener('abort', abortFromClient);
  }
  return new Response(body, { status: upstream.status, statusText: upstream.statusText, headers: forwardedResponseHeaders(upstream.headers) });
}
