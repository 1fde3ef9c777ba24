import type { z } from 'zod';

/** A request schema in two parts: the request with its `messages` array's items left unread, and one message. */
export interface RequestSchemaParts {
  /** The request schema with `messages` as an array of anything. */
  readonly request: z.ZodType;
  /** The schema of one item of `messages`. */
  readonly message: z.ZodType;
}

/**
 * Whether a request passes its schema, parsing only the messages `isSchemaValidMessage` does not vouch for: the
 * schema reads each message on its own, so a message known to pass (e.g. JSON-identical to one of a request that
 * passed before) passes again. A validator calls this first and parses the whole request only when it answers false,
 * so its problems are the ones the whole parse reports, in their order, and a request that passes costs a parse of
 * its new messages and of what surrounds them.
 *
 * @param parts - The split schema.
 * @param request - The value checked.
 * @param isSchemaValidMessage - Whether the message at `index` is known to pass the message schema.
 * @returns True when the request passes the schema (given true answers); false when anything failed.
 * @example
 * ```ts
 * const parts = { request: requestSchema.extend({ messages: z.array(z.unknown()) }), message: messageSchema };
 * if (!passesSchemaWithVouchedMessages(parts, request, (message, index) => seen.has(index))) requestSchema.safeParse(request);
 * ```
 */
export function passesSchemaWithVouchedMessages(
  parts: RequestSchemaParts,
  request: unknown,
  isSchemaValidMessage: (message: unknown, index: number) => boolean,
): boolean {
  if (!parts.request.safeParse(request).success) return false;
  const { messages } = request as { readonly messages: readonly unknown[] };
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (!isSchemaValidMessage(message, index) && !parts.message.safeParse(message).success) return false;
  }
  return true;
}
