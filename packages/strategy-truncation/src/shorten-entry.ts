import type { ContentBlock, HistoryEntry, TextBlock, ToolCallBlock } from '@ctx/core';
import { classifyToolResult } from '@ctx/strategy-utils';
import { shortenJsonValue } from './shorten-json-value.js';
import { shortenText, type TextLimits } from './shorten-text.js';
import { SUPPRESSED_CONTENT_MARKER } from './truncation-markers.js';
import type { TruncationSettings } from './truncation-settings.js';

/** The content types of spec 004's three-level model, plus thinking (which can only be kept or dropped). */
export type ContentCategory = 'messageText' | 'toolParameters' | 'toolResults' | 'thinking';

/** Per-block operation counts of one entry (or of a whole pass). */
export interface BlockOperationCounts {
  messageTextsTruncated: number;
  messageTextsSuppressed: number;
  toolParametersTruncated: number;
  toolParametersSuppressed: number;
  toolResultsTruncated: number;
  toolResultsSuppressed: number;
  thinkingBlocksDropped: number;
  /** Error results left verbatim (`preserveErrors`) that would otherwise have been shortened. */
  errorResultsKept: number;
}

/** What {@link shortenEntry} did to one entry. */
export interface EntryShortening {
  /** The new entry; the same object when nothing changed; undefined when every block was dropped. */
  readonly entry: HistoryEntry | undefined;
  readonly operations: BlockOperationCounts;
  /** Characters removed per content type, to split the entry's token savings when several types changed. */
  readonly removedChars: Readonly<Record<ContentCategory, number>>;
}

/** Everything {@link shortenEntry} needs besides the entry. */
export interface EntryShorteningContext {
  readonly settings: TruncationSettings;
  /** Tool calls by id, so a response whose `toolName` is empty is still judged by its call's tool. */
  readonly callsById: ReadonlyMap<string, ToolCallBlock>;
  /**
   * Keep the entry's thinking whatever `preserveThinking` says: the entry belongs to the assistant turn still in its
   * tool loop, whose thinking Anthropic requires (`findThinkingToolLoopStart`).
   * @default false
   */
  readonly keepThinking?: boolean;
}

function isBlankText(block: ContentBlock): boolean {
  return block.type === 'text' && block.text.trim() === '';
}

/** Counts with every operation at zero. */
export function emptyOperationCounts(): BlockOperationCounts {
  return {
    messageTextsTruncated: 0,
    messageTextsSuppressed: 0,
    toolParametersTruncated: 0,
    toolParametersSuppressed: 0,
    toolResultsTruncated: 0,
    toolResultsSuppressed: 0,
    thinkingBlocksDropped: 0,
    errorResultsKept: 0,
  };
}

type Operation = 'truncated' | 'suppressed';

const operationKeys: Readonly<Record<'messageText' | 'toolParameters' | 'toolResults', Readonly<Record<Operation, keyof BlockOperationCounts>>>> = {
  messageText: { truncated: 'messageTextsTruncated', suppressed: 'messageTextsSuppressed' },
  toolParameters: { truncated: 'toolParametersTruncated', suppressed: 'toolParametersSuppressed' },
  toolResults: { truncated: 'toolResultsTruncated', suppressed: 'toolResultsSuppressed' },
};

/**
 * Applies the old-zone rules to one entry (spec 004 FR-TR-001/002): user and assistant text are kept when preserved,
 * else shortened as message text; tool-call parameters and tool results are shortened by their content type's mode
 * and limits; error results are kept when `preserveErrors`; thinking is kept or dropped whole; attachments that are
 * not kept become a text block with the suppression marker. An entry left with nothing, or with only blank text, is
 * removed (`entry` undefined). Never modifies `entry`: changed blocks are copies
 * (their `providerMetadata` kept), unchanged blocks and entries are the same objects.
 *
 * @param entry - An old-zone entry.
 * @param context - Settings and the tool calls seen so far.
 * @returns The new entry (or undefined when nothing is left of it), the operations and the characters removed.
 */
export function shortenEntry(entry: HistoryEntry, context: EntryShorteningContext): EntryShortening {
  const { settings } = context;
  const operations = emptyOperationCounts();
  const removedChars: Record<ContentCategory, number> = { messageText: 0, toolParameters: 0, toolResults: 0, thinking: 0 };
  const modes = settings.contentModes;

  const resultLimits = (mode: 'suppress' | 'truncate'): TextLimits => ({
    mode,
    maxChars: settings.maxToolResultChars,
    maxLines: settings.maxToolResultLines,
  });

  // Text and attachments outside tool entries are message text; whether they may change depends on the speaker.
  const messageTextMode =
    (entry.speaker === 'human' && settings.preserveUserMessages) || (entry.speaker === 'ai' && settings.preserveAssistantText)
      ? 'keep'
      : modes.messageText;
  const textCategory = entry.speaker === 'tool' ? 'toolResults' : 'messageText';
  const textMode = entry.speaker === 'tool' ? modes.toolResults : messageTextMode;

  const record = (category: 'messageText' | 'toolParameters' | 'toolResults', operation: Operation, removed: number) => {
    operations[operationKeys[category][operation]]++;
    removedChars[category] += removed;
  };

  const shortenBlock = (block: ContentBlock): ContentBlock | undefined => {
    switch (block.type) {
      case 'text': {
        if (textMode === 'keep') return block;
        const limits: TextLimits =
          textCategory === 'toolResults' ? resultLimits(textMode) : { mode: textMode, maxChars: settings.maxMessageTextChars };
        const shortened = shortenText(block.text, limits);
        if (shortened === undefined) return block;
        record(textCategory, shortened.operation, block.text.length - shortened.text.length);
        return { ...block, text: shortened.text };
      }
      case 'media': {
        if (textMode === 'keep') return block;
        const replacement: TextBlock = { type: 'text', text: SUPPRESSED_CONTENT_MARKER };
        record(textCategory, 'suppressed', (block.data ?? block.url ?? '').length);
        return replacement;
      }
      case 'thinking': {
        if (settings.preserveThinking || context.keepThinking === true) return block;
        operations.thinkingBlocksDropped++;
        removedChars.thinking += block.thought.length + (block.signature?.length ?? 0);
        return undefined;
      }
      case 'tool_call': {
        if (modes.toolParameters === 'keep') return block;
        const shortened = shortenJsonValue(block.parameters, { mode: modes.toolParameters, maxChars: settings.maxToolParamChars });
        if (shortened.value === block.parameters) return block;
        record('toolParameters', shortened.suppressed > 0 ? 'suppressed' : 'truncated', shortened.removedChars);
        return { ...block, parameters: shortened.value };
      }
      case 'tool_response': {
        if (modes.toolResults === 'keep') return block;
        const shortened = shortenJsonValue(block.result, resultLimits(modes.toolResults), { replaceAttachments: true });
        if (shortened.value === block.result) return block;
        if (settings.preserveErrors && classifyToolResult(block, context.callsById.get(block.callId)).outcome === 'error') {
          operations.errorResultsKept++;
          return block;
        }
        record('toolResults', shortened.suppressed > 0 ? 'suppressed' : 'truncated', shortened.removedChars);
        return { ...block, result: shortened.value };
      }
    }
  };

  let blocks: ContentBlock[] | undefined;
  entry.blocks.forEach((block, index) => {
    const next = shortenBlock(block);
    if (next === block) {
      blocks?.push(block);
      return;
    }
    blocks ??= entry.blocks.slice(0, index);
    if (next !== undefined) blocks.push(next);
  });
  if (blocks === undefined) return { entry, operations, removedChars };
  // Providers drop blank text, so an entry left with only that (thinking dropped beside an empty text) would reach
  // them empty: it is removed like an entry left with nothing.
  return { entry: blocks.every(isBlankText) ? undefined : { ...entry, blocks }, operations, removedChars };
}
