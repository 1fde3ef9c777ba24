import { isValidatedEntry, type Conversation, type EncodeResult, type HistoryEntry } from '@ctx/core';
import type { AiSdkPrompt } from './ai-sdk-prompt.js';
import { encodeEntry, finishAiSdkPrompt } from './encode-ai-sdk-prompt.js';
import { MessageAssembly, type EncodedEntry } from './message-assembly.js';

/** Encodes conversations to AI SDK prompt fields, keeping what it encoded of each entry for the next call. */
export interface AiSdkPromptEncoder {
  /**
   * The codec's `encode`: the same prompt fields and warnings as `aiSdkCodec.encode(conversation)`. The messages and
   * parts made from entries it has encoded before are the same objects as last time, and frozen.
   */
  encode(conversation: Conversation): EncodeResult<AiSdkPrompt>;
}

/** Freezes what an entry encoded to, so the objects can be handed out again; binary data is never in it (see below). */
function freezeDeep<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) freezeDeep(item);
  return value;
}

/**
 * Creates an encoder for a conversation that is encoded again and again as it grows — a prompt sent on every model
 * call. `aiSdkCodec.encode` makes every message anew, which costs a copy of the whole conversation per call; this
 * encoder keeps each entry's messages and parts in a `WeakMap` keyed by the entry, and keeps the messages it put in
 * order last time: a call whose history starts with the entries of the last one puts only the entries after them in
 * place (which message a continuing entry joins, approvals), and reports the losses of the entries that had any with
 * their current index. Entries are kept only when they cannot change: those ctx's history parser validated and froze
 * (`isValidatedEntry`: what a `HistoryService` holds), and only when they hold no media (binary data cannot be
 * frozen); from the first entry that is not kept on, every call puts the entries in place again. What it hands out
 * again is frozen: a caller that wants to change a message copies it first.
 *
 * @returns An encoder; each keeps its own entries (dropped with the entries) and the last history it encoded.
 *
 * @example
 * ```ts
 * const encoder = createAiSdkPromptEncoder();
 * const { value } = encoder.encode(history.toConversation()); // on every call: new entries cost, kept ones do not
 * ```
 */
export function createAiSdkPromptEncoder(): AiSdkPromptEncoder {
  const kept = new WeakMap<HistoryEntry, EncodedEntry>();
  const assembly = new MessageAssembly();
  return {
    encode: (conversation) => {
      const { history } = conversation;
      assembly.truncate(assembly.keptPrefix(history));
      for (let index = assembly.entryCount; index < history.length; index++) {
        const entry = history[index] as HistoryEntry;
        const known = kept.get(entry);
        if (known !== undefined) {
          assembly.append(entry, known, true);
          continue;
        }
        const encoded = encodeEntry(entry);
        const keep = isValidatedEntry(entry) && !entry.blocks.some((block) => block.type === 'media');
        if (keep) kept.set(entry, freezeDeep(encoded));
        assembly.append(entry, encoded, keep);
      }
      return finishAiSdkPrompt(conversation, assembly);
    },
  };
}
