/**
 * Anthropic prompt-cache breakpoints (`cache_control`) on a compressed request. The conversation state holds no
 * breakpoints (clients move them from request to request); the client's breakpoints of this request are put back
 * on the same blocks when those blocks were sent unchanged, else on the last block of the message now at that
 * place, and at most four remain in the whole request, as the API requires.
 */

import { isSameJsonText } from '@ctx/strategy-utils';

type Json = unknown;
type Block = Record<string, Json>;
interface Message {
  readonly role?: Json;
  readonly content?: Json;
  readonly [field: string]: Json;
}

/** The API refuses more breakpoints than this in one request (system, tools and messages together). */
export const maximumCacheBreakpoints = 4;

/** Block types that cannot carry `cache_control`. */
const ineligibleTypes: ReadonlySet<string> = new Set(['thinking', 'redacted_thinking']);

function isBlock(value: Json): value is Block {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEligible(block: Json): block is Block {
  if (!isBlock(block) || typeof block.type !== 'string' || ineligibleTypes.has(block.type)) return false;
  return block.type !== 'text' || (typeof block.text === 'string' && block.text.trim() !== '');
}

/** The message without `cache_control` on its content blocks: what the provider's cache compares. */
export function withoutMessageBreakpoints<T extends Message>(message: T): T {
  if (!Array.isArray(message.content)) return message;
  if (!message.content.some((block) => isBlock(block) && 'cache_control' in block)) return message;
  return {
    ...message,
    content: message.content.map((block: Json) => {
      if (!isBlock(block) || !('cache_control' in block)) return block;
      const { cache_control: _dropped, ...rest } = block;
      return rest;
    }),
  };
}

function countBlockBreakpoints(blocks: Json): number {
  return Array.isArray(blocks) ? blocks.filter((block) => isBlock(block) && block.cache_control !== undefined).length : 0;
}

/** What {@link restoreCacheBreakpoints} did. */
export interface RestoredBreakpoints {
  /** The messages to send. */
  readonly messages: Message[];
  /** Breakpoints put back on the block they were on. */
  readonly kept: number;
  /** Breakpoints whose block was compressed away, put on the last block of the message now at their place. */
  readonly moved: number;
  /** Breakpoints dropped: no block could carry them, or the request would hold more than four. */
  readonly dropped: number;
}

/**
 * Puts the client's message breakpoints back on a compressed request.
 *
 * @param request - The client's request (system, tools and messages with their `cache_control`).
 * @param compressedMessages - The messages about to be sent; any `cache_control` on their blocks is replaced.
 * @returns The messages with the breakpoints placed, and what happened to each.
 */
export function restoreCacheBreakpoints(
  request: { readonly system?: Json; readonly tools?: Json; readonly messages: readonly Message[] },
  compressedMessages: readonly Message[],
): RestoredBreakpoints {
  const messages = compressedMessages.map((message) => withoutMessageBreakpoints(message));
  const fixed =
    countBlockBreakpoints(request.system) +
    (Array.isArray(request.tools) ? request.tools.filter((tool) => isBlock(tool) && tool.cache_control !== undefined).length : 0);
  const wanted: { messageIndex: number; blockIndex: number; value: Json }[] = [];
  request.messages.forEach((message, messageIndex) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((block: Json, blockIndex: number) => {
      if (isBlock(block) && block.cache_control !== undefined) wanted.push({ messageIndex, blockIndex, value: block.cache_control });
    });
  });
  // The newest breakpoints matter most (they cover the longest prefix): place them first, keep them under the cap.
  wanted.reverse();
  const room = Math.max(0, maximumCacheBreakpoints - fixed);
  const placed = new Set<string>();
  let kept = 0;
  let moved = 0;
  let dropped = 0;
  const fromEndOffset = messages.length - request.messages.length;
  for (const breakpoint of wanted) {
    if (placed.size >= room) {
      dropped += 1;
      continue;
    }
    const target = Math.min(breakpoint.messageIndex + fromEndOffset, messages.length - 1);
    let position: { message: number; block: number } | undefined;
    let exact = false;
    const candidate = messages[target];
    const original = request.messages[breakpoint.messageIndex];
    if (
      candidate !== undefined &&
      original !== undefined &&
      Array.isArray(candidate.content) &&
      isEligible(candidate.content[breakpoint.blockIndex]) &&
      isSameJsonText(candidate, withoutMessageBreakpoints(original))
    ) {
      position = { message: target, block: breakpoint.blockIndex };
      exact = true;
    } else {
      // Compressed away: the last block that can carry it, at or before the place it had.
      for (let index = target; index >= 0 && position === undefined; index -= 1) {
        const content = messages[index]?.content;
        if (typeof content === 'string' && content.trim() !== '') {
          messages[index] = { ...messages[index], content: [{ type: 'text', text: content }] };
          position = { message: index, block: 0 };
        } else if (Array.isArray(content)) {
          for (let block = content.length - 1; block >= 0; block -= 1) {
            if (isEligible(content[block])) {
              position = { message: index, block };
              break;
            }
          }
        }
      }
    }
    if (position === undefined) {
      dropped += 1;
      continue;
    }
    const id = `${position.message}:${position.block}`;
    if (placed.has(id)) {
      dropped += 1;
      continue;
    }
    placed.add(id);
    const message = messages[position.message] as Message;
    const content = [...(message.content as Json[])];
    content[position.block] = { ...(content[position.block] as Block), cache_control: breakpoint.value };
    messages[position.message] = { ...message, content };
    if (exact) kept += 1;
    else moved += 1;
  }
  return { messages, kept, moved, dropped };
}
