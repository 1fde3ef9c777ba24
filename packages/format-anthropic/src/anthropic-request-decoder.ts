import type { DecodeResult, FormatWarning, HistoryEntry } from '@ctx/core';
import {
  copyNativeStructure,
  countUnchangedMessages,
  createUniqueCallIds,
  parseMessagesFrom,
  replayCallIdUses,
  type CallIdUse,
} from '@ctx/format-utils';
import type { AnthropicMessageParam } from './anthropic-request-schema.js';
import { anthropicConversationOf, decodeAnthropicMessage, parseAnthropicRequest } from './decode-anthropic-request.js';

/** Decodes the requests of one conversation, each holding the whole conversation so far. */
export interface AnthropicRequestDecoder {
  /**
   * The codec's `decode`: the same conversation and warnings as `anthropicMessagesCodec.decode(input)`, and the same
   * `InvalidFormatError` for invalid input. The messages it read on its last call, when the request starts with them
   * unchanged, are not validated or decoded again: their entries are the same objects as last time.
   */
  decode(input: unknown): DecodeResult;
  /**
   * The messages of the last request decoded, as copies of their structure (strings shared with the entries decoded
   * from them): equal to that request's messages, for a caller that keeps them to compare with a later request
   * without holding a second copy of their text.
   */
  readonly messages: readonly unknown[];
}

/** What the decoder keeps of a message it read. */
interface SeenMessage {
  /** A copy of the message's structure, to tell whether the next request holds the same message. */
  readonly copy: unknown;
  /** Its entries, as validated in the conversation returned. */
  readonly entries: readonly HistoryEntry[];
  readonly warnings: readonly FormatWarning[];
  readonly named: readonly (readonly [string, string])[];
  /** The tool_use ids it used, in order, told again to decode the messages after it. */
  readonly uses: readonly CallIdUse[];
}

/**
 * Creates a decoder for the requests of one conversation, as a proxy receives them: every request repeats the
 * conversation so far and adds a few messages. The codec's `decode` validates and decodes every message of every
 * request, a cost that grows with the conversation; this decoder keeps what it read of each message (its entries,
 * warnings and tool names, and a copy of its structure), and on the next request validates and decodes only the
 * messages after those that are unchanged — compared property by property with the copies, so a message the caller
 * changed in place is read again. A message's entries depend only on it, the message before it and the tool_use
 * blocks and tool_results before it (their names, and the ids the history gives reused ones), so the result is the one the codec gives (property-tested against it). The request's other
 * fields (system, tools, parameters) are read on every call.
 *
 * @returns A decoder; it keeps the last request's messages (their strings are shared, not copied).
 *
 * @example
 * ```ts
 * const decoder = createAnthropicRequestDecoder(); // one per conversation
 * const { conversation } = decoder.decode(request); // each request: the new messages cost, the others do not
 * ```
 */
export function createAnthropicRequestDecoder(): AnthropicRequestDecoder {
  let seen: readonly SeenMessage[] = [];
  let copies: readonly unknown[] = [];
  return {
    get messages() {
      return copies;
    },
    decode(input) {
      const { messages, count: from } = countUnchangedMessages(input, copies);
      const kept = seen.slice(0, from);
      const request = parseMessagesFrom(input, from, parseAnthropicRequest);
      const context = { toolNames: new Map<string, string>(), ids: createUniqueCallIds() };
      for (const message of kept) {
        for (const [id, name] of message.named) context.toolNames.set(id, name);
        replayCallIdUses(context.ids, message.uses);
      }
      const added = request.messages.map((message, offset) => {
        const previous = offset === 0 ? (messages?.[from - 1] as AnthropicMessageParam | undefined) : request.messages[offset - 1];
        return decodeAnthropicMessage(message, from + offset, previous, context);
      });
      const history = [...kept.flatMap((message) => message.entries), ...added.flatMap((message) => message.entries)];
      const conversation = anthropicConversationOf(request, history);
      const warnings = [...kept.flatMap((message) => message.warnings), ...added.flatMap((message) => message.warnings)];
      // The new messages' entries as validated in the conversation (the kept ones are the same objects as before).
      let position = kept.reduce((count, message) => count + message.entries.length, 0);
      seen = [
        ...kept,
        ...added.map((message, offset): SeenMessage => {
          const entries = conversation.history.slice(position, (position += message.entries.length));
          return { copy: copyNativeStructure(request.messages[offset]), entries, warnings: message.warnings, named: message.named, uses: message.uses };
        }),
      ];
      copies = seen.map((message) => message.copy);
      return { conversation, warnings };
    },
  };
}
