/** The API dialect of a request, which decides how it is compressed and in which shape errors are answered. */
export type ProviderDialect = 'anthropic' | 'openai';

/** What went wrong, in terms both providers' error shapes can express. */
export type ProxyErrorKind = 'request-too-large' | 'upstream-unreachable' | 'upstream-timeout';

const anthropicTypes: Readonly<Record<ProxyErrorKind, string>> = {
  'request-too-large': 'request_too_large',
  'upstream-unreachable': 'api_error',
  'upstream-timeout': 'timeout_error',
};

const openAITypes: Readonly<Record<ProxyErrorKind, string>> = {
  'request-too-large': 'invalid_request_error',
  'upstream-unreachable': 'server_error',
  'upstream-timeout': 'server_error',
};

const statuses: Readonly<Record<ProxyErrorKind, number>> = {
  'request-too-large': 413,
  'upstream-unreachable': 502,
  'upstream-timeout': 504,
};

/**
 * The dialect a path belongs to: Anthropic's `/v1/messages…` and `/v1/complete`, OpenAI's for every other path
 * (the shape most compatible clients understand).
 */
export function dialectOfPath(path: string): ProviderDialect {
  return /^\/v1\/(messages|complete)(\/|$)/.test(path) ? 'anthropic' : 'openai';
}

/**
 * An error response the client's SDK understands: Anthropic's `{ type: 'error', error: { type, message } }` or
 * OpenAI's `{ error: { message, type, param, code } }`, with the status of `kind` (413, 502 or 504).
 *
 * @param dialect - The dialect of the request being answered.
 * @param kind - What went wrong.
 * @param message - A sentence for the user, without secrets.
 */
export function providerErrorResponse(dialect: ProviderDialect, kind: ProxyErrorKind, message: string): Response {
  const body =
    dialect === 'anthropic'
      ? { type: 'error', error: { type: anthropicTypes[kind], message } }
      : { error: { message, type: openAITypes[kind], param: null, code: kind.replaceAll('-', '_') } };
  return new Response(JSON.stringify(body), {
    status: statuses[kind],
    headers: { 'content-type': 'application/json', 'x-ctx-proxy-error': kind },
  });
}
