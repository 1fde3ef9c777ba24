import type { ValidationIssue } from '@ctx/core';
import { z } from 'zod';
import { toValidationIssues } from './parse-native-value.js';

/** Options every request validator of ctx's provider codecs takes (`validateAnthropicRequest`, `validateOpenAIRequest`). */
export interface RequestValidationOptions {
  /**
   * Whether to look for lone surrogate halves in every string (`lone-surrogate`): a walk over the whole request. A
   * caller whose request is known to hold none may skip it — such as the output of the codec's `encode`, in which
   * every one is repaired.
   * @default true
   */
  readonly loneSurrogates?: boolean;
  /**
   * Messages the caller already knows to match the request schema's message shape, which are then not parsed
   * against it: for a caller that checks one conversation's requests again and again, e.g. a message JSON-identical
   * to one of a request that passed before (the schema reads a message on its own, so it gives such a message the
   * same answer). Every other rule still reads every message, and when anything fails the schema, the whole request
   * is parsed as without this option: the problems are the same either way, provided the answers are true.
   */
  readonly isSchemaValidMessage?: (message: unknown, index: number) => boolean;
}

/** Checks a request against its schema; see {@link createRequestSchemaCheck}. */
export type RequestSchemaCheck = (
  request: unknown,
  isSchemaValidMessage?: RequestValidationOptions['isSchemaValidMessage'],
) => ValidationIssue[];

/**
 * A request validator's schema check that parses only the messages the caller does not vouch for
 * ({@link RequestValidationOptions.isSchemaValidMessage}). The request is parsed first with its messages left unread,
 * then each message not vouched for; when anything fails, the whole request is parsed, so the issues are exactly
 * those of `requestSchema.safeParse`, in its order.
 *
 * @param requestSchema - The request's schema, an object with a `messages` array.
 * @param messageSchema - The schema of one item of `messages`.
 * @returns The check: the issues of the request (empty when it passes).
 * @example
 * ```ts
 * const checkSchema = createRequestSchemaCheck(requestSchema, messageSchema);
 * const issues = checkSchema(request, (message, index) => index < messagesCheckedBefore);
 * ```
 */
export function createRequestSchemaCheck(requestSchema: z.ZodObject, messageSchema: z.ZodType): RequestSchemaCheck {
  const withMessagesUnread = requestSchema.extend({ messages: z.array(z.unknown()) });
  const passes = (request: unknown, isSchemaValidMessage: (message: unknown, index: number) => boolean): boolean => {
    if (!withMessagesUnread.safeParse(request).success) return false;
    const { messages } = request as { readonly messages: readonly unknown[] };
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index];
      if (!isSchemaValidMessage(message, index) && !messageSchema.safeParse(message).success) return false;
    }
    return true;
  };
  return (request, isSchemaValidMessage) => {
    if (isSchemaValidMessage !== undefined && passes(request, isSchemaValidMessage)) return [];
    const parsed = requestSchema.safeParse(request);
    return parsed.success ? [] : toValidationIssues(parsed.error);
  };
}
