import { CompressionStrategyError, type ContentBlock, type HistoryEntry, type JsonValue } from '@ctx/core';

/**
 * An entry split into the three content types of spec 004 FR-SM-001, each processed on its own. Thinking and media
 * blocks are not part of it: they are never changed, and recomposition keeps them where they were.
 */
export interface DecomposedEntry {
  /** The entry's text blocks joined by a blank line, or null when it has none. */
  readonly messageText: string | null;
  /** The parameters of each `tool_call` block, in order, or null when it has none. */
  readonly toolParameters: readonly JsonValue[] | null;
  /** The result of each `tool_response` block, in order, or null when it has none. */
  readonly toolResults: readonly JsonValue[] | null;
}

const textSeparator = '\n\n';

function joinTexts(blocks: readonly ContentBlock[]): string | null {
  const texts = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  return texts.length === 0 ? null : texts.join(textSeparator);
}

/**
 * Splits an entry into message text, tool parameters and tool results (spec 004 FR-SM-001, FR-SM-007). Works for
 * every speaker and any mix of blocks; the entry is not changed.
 *
 * @param entry - A history entry.
 * @returns The three content types; a type the entry does not have is null.
 * @example
 * ```ts
 * decomposeEntry({ speaker: 'ai', blocks: [{ type: 'text', text: 'Reading it.' },
 *   { type: 'tool_call', id: 'c1', name: 'Read', parameters: { file_path: '/a.ts' } }] });
 * // { messageText: 'Reading it.', toolParameters: [{ file_path: '/a.ts' }], toolResults: null }
 * ```
 */
export function decomposeEntry(entry: HistoryEntry): DecomposedEntry {
  const toolParameters: JsonValue[] = [];
  const toolResults: JsonValue[] = [];
  for (const block of entry.blocks) {
    if (block.type === 'tool_call') toolParameters.push(block.parameters);
    else if (block.type === 'tool_response') toolResults.push(block.result);
  }
  return {
    messageText: joinTexts(entry.blocks),
    toolParameters: toolParameters.length === 0 ? null : toolParameters,
    toolResults: toolResults.length === 0 ? null : toolResults,
  };
}

function mismatch(what: string, expected: number, found: number): CompressionStrategyError {
  return new CompressionStrategyError({
    strategyName: 'smart-passes',
    message: `Expected ${expected} ${what} to recompose the entry (one per block of the original), found ${found}: pass the arrays decomposeEntry returned, changed in place of their items only`,
  });
}

/**
 * Puts processed content back into its entry (spec 004 FR-SM-007): the speaker, the metadata, the order of blocks,
 * thinking and media blocks and every block whose content is unchanged stay as they were (the same objects).
 * A changed message text goes into the first text block and the entry's other text blocks are dropped; a changed
 * parameter or result replaces that block's value, keeping its id, name, error flag and provider metadata, so
 * every call stays paired with its result. Recomposing an unchanged decomposition returns `original` itself.
 *
 * @param original - The entry that was decomposed.
 * @param parts - Its decomposition, with some parts replaced.
 * @returns The new entry (or `original` when nothing changed).
 * @throws `CompressionStrategyError` (from `@ctx/core`) when `parts` has a different number of parameters or
 *   results than `original` has tool calls or responses, or text where it had none.
 * @example
 * ```ts
 * const parts = decomposeEntry(entry);
 * const shorter = recomposeEntry(entry, { ...parts, toolResults: parts.toolResults?.map(() => '⟨ Content suppressed ⟩') ?? null });
 * ```
 */
export function recomposeEntry(original: HistoryEntry, parts: DecomposedEntry): HistoryEntry {
  const before = decomposeEntry(original);
  const parameters = parts.toolParameters ?? [];
  const results = parts.toolResults ?? [];
  if (parameters.length !== (before.toolParameters?.length ?? 0)) {
    throw mismatch('tool parameters', before.toolParameters?.length ?? 0, parameters.length);
  }
  if (results.length !== (before.toolResults?.length ?? 0)) throw mismatch('tool results', before.toolResults?.length ?? 0, results.length);
  if ((before.messageText === null) !== (parts.messageText === null)) {
    throw mismatch('message texts', before.messageText === null ? 0 : 1, parts.messageText === null ? 0 : 1);
  }
  const textChanged = parts.messageText !== before.messageText;
  let changed = false;
  let parameterIndex = 0;
  let resultIndex = 0;
  let textPlaced = false;
  const blocks: ContentBlock[] = [];
  for (const block of original.blocks) {
    switch (block.type) {
      case 'text': {
        if (!textChanged) {
          blocks.push(block);
        } else if (!textPlaced) {
          blocks.push({ ...block, text: parts.messageText ?? '' });
          textPlaced = true;
          changed = true;
        }
        break;
      }
      case 'tool_call': {
        const value = parameters[parameterIndex++] as JsonValue;
        if (value === block.parameters) blocks.push(block);
        else {
          blocks.push({ ...block, parameters: value });
          changed = true;
        }
        break;
      }
      case 'tool_response': {
        const value = results[resultIndex++] as JsonValue;
        if (value === block.result) blocks.push(block);
        else {
          blocks.push({ ...block, result: value });
          changed = true;
        }
        break;
      }
      default:
        blocks.push(block);
    }
  }
  return changed ? { ...original, blocks } : original;
}
