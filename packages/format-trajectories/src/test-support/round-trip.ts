import {
  findToolPairingProblems,
  type ContentBlock,
  type Conversation,
  type ConversationCodec,
  type DecodeResult,
} from '@ctx/core';
import { deepFreeze } from '@ctx/format-utils/testing';
import { expect } from 'vitest';

/** Where two serializations first differ, with context, or undefined when they are equal. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  let index = 0;
  while (index < actual.length && actual[index] === expected[index]) index += 1;
  return `at ${index}: encoded …${actual.slice(index - 60, index + 60)}… expected …${expected.slice(index - 60, index + 60)}…`;
}

/**
 * Decodes `value` (frozen first, so writing to it throws), checks the history is pair-valid, encodes it back and
 * checks the result serializes exactly like `value` (same keys in the same order, every string byte for byte) with
 * no warnings.
 */
export function expectExactRoundTrip<Native>(codec: ConversationCodec<Native>, value: unknown): DecodeResult {
  const decoded = codec.decode(deepFreeze(value));
  expect(findToolPairingProblems(decoded.conversation.history)).toEqual([]);
  expect(resultsHeldTwice(decoded.conversation)).toEqual([]);
  const encoded = codec.encode(decoded.conversation);
  expect(firstDifference(JSON.stringify(encoded.value), JSON.stringify(value))).toBeUndefined();
  expect(encoded.value).toEqual(value);
  expect(encoded.warnings).toEqual([]);
  return decoded;
}

function stringLeaves(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringLeaves(item, into);
  return into;
}

/**
 * The call ids of tool results whose text is also stored in their entry's provider metadata. Codecs keep a record's
 * skeleton without the parts the blocks carry; a copy there would survive compression and double the memory.
 */
export function resultsHeldTwice(conversation: Conversation): string[] {
  return conversation.history.flatMap((entry) => {
    const stored = stringLeaves(entry.metadata?.providerMetadata, new Set());
    for (const block of entry.blocks) stringLeaves(block.providerMetadata, stored);
    return entry.blocks.flatMap((block) =>
      block.type === 'tool_response' && typeof block.result === 'string' && block.result.length >= 20 && stored.has(block.result)
        ? [block.callId]
        : [],
    );
  });
}

/** Every block of a conversation's history. */
export function allBlocks(conversation: Conversation): ContentBlock[] {
  return conversation.history.flatMap((entry) => entry.blocks);
}

/** How many blocks of `type` a conversation's history holds. */
export function countBlocks(conversation: Conversation, type: ContentBlock['type']): number {
  return allBlocks(conversation).filter((block) => block.type === type).length;
}

/** The `providerMetadata.trajectory.kind` of every entry, `undefined` where there is none. */
export function entryKinds(conversation: Conversation): unknown[] {
  return conversation.history.map((entry) => entry.metadata?.providerMetadata?.trajectory?.kind);
}
