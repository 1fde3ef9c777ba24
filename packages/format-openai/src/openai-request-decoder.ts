import type { DecodeResult, FormatWarning, HistoryEntry, TextBlock } from '@ctx/core';
import {
  copyNativeStructure,
  countUnchangedMessages,
  createUniqueCallIds,
  parseMessagesFrom,
  replayCallIdUses,
  type CallIdUse,
} from '@ctx/format-utils';
import {
  decodeLeadingSystem,
  decodeOpenAIMessage,
  openAIConversationOf,
  parseOpenAIRequest,
  type PendingFunctionCall,
} from './decode-openai-request.js';
import type { OpenAIMessage } from './openai-chat-request-schema.js';

/** Decodes the requests of one conversation, each holding the whole conversation so far. */
export interface OpenAIRequestDecoder {
  /**
   * The codec's `decode`: the same conversation and warnings as `openAIChatCodec.decode(input)`, and the same
   * `InvalidFormatError` for invalid input. The messages it read on its last call, when the request starts with them
   * unchanged, are not validated or decoded again: their entries are the same objects as last time.
   */
  decode(input: unknown): DecodeResult;
  /**
   * The messages of the last request decoded, as copies of their structure (strings shared with the entries decoded
   * from them): equal to that request's messages.
   */
  readonly messages: readonly unknown[];
}

/** What the decoder keeps of a message it read; a leading system message has no entry. */
interface SeenMessage {
  readonly copy: unknown;
  readonly entry: HistoryEntry | undefined;
  readonly warnings: readonly FormatWarning[];
  readonly named: readonly (readonly [string, string])[];
  readonly uses: readonly CallIdUse[];
  readonly pendingFunctionCall: PendingFunctionCall | undefined;
}

/**
 * Creates a decoder for the requests of one conversation, as a proxy receives them: the OpenAI counterpart of
 * `createAnthropicRequestDecoder` (`@ctx/format-anthropic`). It keeps what it read of each message (its entry,
 * warnings, tool names, call ids and waiting legacy function call, and a copy of its structure) and on the next request validates
 * and decodes only the messages after those that are unchanged. The leading system messages (which become the
 * conversation's system instructions) and the message after them must be among the unchanged ones; otherwise the
 * request is read whole. The request's other fields are read on every call.
 *
 * @returns A decoder; it keeps the last request's messages (their strings are shared, not copied).
 *
 * @example
 * ```ts
 * const decoder = createOpenAIRequestDecoder(); // one per conversation
 * const { conversation } = decoder.decode(request); // each request: the new messages cost, the others do not
 * ```
 */
export function createOpenAIRequestDecoder(): OpenAIRequestDecoder {
  let seen: readonly SeenMessage[] = [];
  let leading: { readonly count: number; readonly system: TextBlock[] } = { count: 0, system: [] };
  let copies: readonly unknown[] = [];
  return {
    get messages() {
      return copies;
    },
    decode(input) {
      const { messages, count: unchanged } = countUnchangedMessages(input, copies);
      // The leading system messages are read together, and where they end depends on the message after them.
      const from = unchanged <= leading.count ? 0 : unchanged;
      const request = parseMessagesFrom(input, from, parseOpenAIRequest);
      const kept = seen.slice(0, from);
      const system = from === 0 ? decodeLeadingSystem(request.messages) : leading;
      const toolNames = new Map<string, string>();
      const ids = createUniqueCallIds();
      for (const message of kept) {
        for (const [id, name] of message.named) toolNames.set(id, name);
        replayCallIdUses(ids, message.uses);
      }
      let pending = kept.at(-1)?.pendingFunctionCall;
      const added: SeenMessage[] = [];
      request.messages.forEach((message, offset) => {
        const index = from + offset;
        if (index < system.count) {
          added.push({ copy: copyNativeStructure(message), entry: undefined, warnings: [], named: [], uses: [], pendingFunctionCall: undefined });
          return;
        }
        const previous = offset === 0 ? (messages?.[from - 1] as OpenAIMessage | undefined) : request.messages[offset - 1];
        const decoded = decodeOpenAIMessage(message, index, previous, { toolNames, ids, pendingFunctionCall: pending });
        pending = decoded.pendingFunctionCall;
        added.push({
          copy: copyNativeStructure(message),
          entry: decoded.entry,
          warnings: decoded.warnings,
          named: decoded.named,
          uses: decoded.uses,
          pendingFunctionCall: pending,
        });
      });
      const all = [...kept, ...added];
      const history = all.flatMap((message) => (message.entry === undefined ? [] : [message.entry]));
      const conversation = openAIConversationOf(request, system.count > 0 ? system.system : undefined, history);
      const warnings = all.flatMap((message) => message.warnings);
      // The entries as validated in the conversation (the kept ones are the same objects).
      let position = 0;
      seen = all.map((message) => (message.entry === undefined ? message : { ...message, entry: conversation.history[position++] }));
      leading = system;
      copies = seen.map((message) => message.copy);
      return { conversation, warnings };
    },
  };
}
