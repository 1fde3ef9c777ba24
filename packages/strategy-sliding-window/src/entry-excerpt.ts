import type { ContentBlock, HistoryEntry, JsonValue } from '@ctx/core';
import { classifyToolResult, toolResultText } from '@ctx/strategy-utils';

const roles: Readonly<Record<HistoryEntry['speaker'], string>> = { human: 'user', ai: 'assistant', tool: 'tool' };

function serialize(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The readable content of a block, its payload cut to `limit` characters; thinking stays out (it is the model's
 * scratchpad, and signed).
 */
function blockText(block: ContentBlock, limit: number): { readonly text: string; readonly cut: boolean } | undefined {
  const wrap = (prefix: string, payload: string, suffix: string) => ({
    text: `${prefix}${payload.slice(0, limit)}${suffix}`,
    cut: payload.length > limit,
  });
  switch (block.type) {
    case 'text':
      return wrap('', block.text, '');
    case 'thinking':
      return undefined;
    case 'tool_call':
      return wrap(`[called ${block.name} `, serialize(block.parameters), ']');
    case 'tool_response': {
      const verb = classifyToolResult(block).outcome === 'error' ? 'failed' : 'returned';
      return wrap(`[${block.toolName} ${verb}: `, toolResultText(block.result), ']');
    }
    case 'media':
      return wrap('', `[${block.mediaType}${block.filename === undefined ? '' : ` ${block.filename}`}]`, '');
  }
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts at `length` UTF-16 units without leaving half of a surrogate pair. */
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/**
 * One line of the excerpt summary for a dropped entry (spec 002 §6.3 `buildFallbackSummary`): its role and the first
 * `excerptLength` characters of its content, whitespace collapsed, `...` when cut. Tool calls read
 * `[called Name {parameters}]` and results `[Name returned: …]` or `[Name failed: …]` (errors judged by
 * `@ctx/strategy-utils`' `classifyToolResult`), so a pure-tool conversation still leaves a trace of what was done.
 *
 * Copies at most a few times `excerptLength` characters of each block, so a huge tool result costs one scan (to
 * judge its outcome), not a copy.
 *
 * @param entry - A dropped entry.
 * @param excerptLength - Characters kept.
 * @returns `user: …`, `assistant: …` or `tool: …`; undefined for an entry with nothing readable (thinking only).
 * @example
 * ```ts
 * describeEntryExcerpt({ speaker: 'human', blocks: [{ type: 'text', text: 'Fix the date test' }] }, 200);
 * // 'user: Fix the date test'
 * ```
 */
export function describeEntryExcerpt(entry: HistoryEntry, excerptLength: number): string | undefined {
  // Whitespace collapses, so read more than the excerpt needs; a block padded beyond this is rare and only shortens
  // its excerpt.
  const window = excerptLength * 4;
  let raw = '';
  let truncated = false;
  for (const block of entry.blocks) {
    const piece = blockText(block, window);
    if (piece === undefined || piece.text === '') continue;
    if (raw.length >= window) {
      truncated = true;
      break;
    }
    if (piece.cut) truncated = true;
    raw += raw === '' ? piece.text : ` ${piece.text}`;
  }
  const content = collapseWhitespace(raw);
  if (content === '') return undefined;
  const excerpt =
    content.length > excerptLength ? `${cut(content, excerptLength)}...` : truncated ? `${content}...` : content;
  return `${roles[entry.speaker]}: ${excerpt}`;
}
