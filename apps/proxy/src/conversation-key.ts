import { createHash } from 'node:crypto';
import type { ProviderDialect } from './provider-error-response.js';

/** The request header a client may send to name its conversation explicitly. */
export const conversationHeader = 'x-ctx-conversation';

/**
 * The key a request's conversation state is kept under: the `x-ctx-conversation` header when the client sends one,
 * else a hash of the dialect, the model, the system instructions and the first message — what stays the same on
 * every request of one conversation. Two conversations that start identically share a key; the proxy notices when
 * a request does not continue the state it holds and starts again from scratch, so sharing costs prompt-cache
 * hits, never correctness.
 *
 * @param dialect - The API the request speaks.
 * @param headerValue - The `x-ctx-conversation` header, if any.
 * @param request - The parsed request body.
 * @returns A short key, safe to log (it holds no content).
 */
export function conversationKey(dialect: ProviderDialect, headerValue: string | undefined, request: Readonly<Record<string, unknown>>): string {
  if (headerValue !== undefined && headerValue.trim() !== '') {
    return `h:${createHash('sha256').update(headerValue).digest('hex').slice(0, 16)}`;
  }
  const messages = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
  const hash = createHash('sha256');
  hash.update(dialect);
  hash.update('\0');
  hash.update(JSON.stringify(request.model ?? null));
  hash.update('\0');
  hash.update(JSON.stringify(request.system ?? null));
  hash.update('\0');
  // OpenAI puts its system message first: the first non-system message is the one that starts the conversation.
  const first = messages.find((message) => {
    const role = (message as { role?: unknown } | null)?.role;
    return role !== 'system' && role !== 'developer';
  });
  hash.update(JSON.stringify(stripCacheControl(first ?? null)));
  for (const message of messages) {
    const role = (message as { role?: unknown } | null)?.role;
    if (role !== 'system' && role !== 'developer') break;
    hash.update(JSON.stringify(message));
  }
  return `d:${hash.digest('hex').slice(0, 16)}`;
}

/** The value without `cache_control` fields at any depth: clients move their breakpoints from request to request. */
export function stripCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripCacheControl);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (key !== 'cache_control') result[key] = stripCacheControl(field);
  }
  return result;
}
