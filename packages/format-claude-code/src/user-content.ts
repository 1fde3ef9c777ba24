import {
  isJsonObject,
  type ContentBlock,
  type FormatWarning,
  type JsonObject,
  type JsonValue,
  type MediaBlock,
  type ToolResponseBlock,
} from '@ctx/core';
import { readObjectField, readStringField } from '@ctx/format-utils';
import type { UnsupportedBlock } from './assistant-content.js';
import { getRecordContent, type ClaudeCodeRecord } from './claude-code-record.js';
import { omitKeys } from './record-fields.js';

/** A user record split into what answers tool calls and what the user (or Claude Code on their behalf) said. */
export interface ConvertedUserContent {
  readonly toolResponses: ToolResponseBlock[];
  /** Text and media: a `human` entry. */
  readonly humanBlocks: ContentBlock[];
  readonly unsupported: UnsupportedBlock[];
  readonly warnings: FormatWarning[];
}

const toolResultKeys = new Set(['type', 'tool_use_id', 'content', 'is_error']);
const textKeys = new Set(['type', 'text']);
const mediaKeys = new Set(['type', 'source']);

function withExtras<Block extends ContentBlock>(block: Block, source: JsonObject, mapped: ReadonlySet<string>): Block {
  const extras = omitKeys(source, mapped);
  return Object.keys(extras).length === 0 ? block : { ...block, providerMetadata: { claudeCode: extras } };
}

/** An Anthropic `image` or `document` block with a base64 or url source, as a media block. */
function toMediaBlock(block: JsonObject): MediaBlock | undefined {
  const source = readObjectField(block, 'source');
  const sourceType = readStringField(source, 'type');
  const declared = readStringField(source, 'media_type');
  const mediaType = declared ?? (block.type === 'document' ? 'application/pdf' : 'image/*');
  let media: MediaBlock | undefined;
  if (sourceType === 'base64') {
    const data = readStringField(source, 'data');
    if (data !== undefined) media = { type: 'media', mediaType, data };
  } else if (sourceType === 'url') {
    const url = readStringField(source, 'url');
    if (url !== undefined) media = { type: 'media', mediaType, url };
  }
  if (media === undefined) return undefined;
  const title = readStringField(block, 'title');
  return withExtras(title === undefined ? media : { ...media, filename: title }, block, mediaKeys);
}

/**
 * Converts the content of a user record: `tool_result` blocks become tool responses (`isError` from `is_error`;
 * nested content arrays are kept as JSON), string content and `text` blocks become text, `image`/`document` blocks
 * become media. Other block types are kept verbatim and reported as `unsupported`.
 *
 * @param record - A user record.
 * @param toolNameById - Tool name of every call in the session, to name the responses.
 * @returns The converted parts and warnings.
 */
export function convertUserContent(
  record: ClaudeCodeRecord,
  toolNameById: ReadonlyMap<string, string>,
): ConvertedUserContent {
  const result: ConvertedUserContent = { toolResponses: [], humanBlocks: [], unsupported: [], warnings: [] };
  const content = getRecordContent(record);
  if (typeof content === 'string') {
    result.humanBlocks.push({ type: 'text', text: content });
    return result;
  }
  (content ?? []).forEach((block: JsonValue, index) => {
    const path = `message.content[${index}]`;
    if (isJsonObject(block)) {
      if (block.type === 'tool_result') {
        const callId = readStringField(block, 'tool_use_id');
        if (callId !== undefined && callId !== '') {
          const response: ToolResponseBlock = {
            type: 'tool_response',
            callId,
            toolName: toolNameById.get(callId) ?? '',
            result: block.content ?? '',
            ...(typeof block.is_error === 'boolean' ? { isError: block.is_error } : {}),
          };
          result.toolResponses.push(withExtras(response, block, toolResultKeys));
          return;
        }
      } else if (block.type === 'text' && typeof block.text === 'string') {
        result.humanBlocks.push(withExtras({ type: 'text', text: block.text }, block, textKeys));
        return;
      } else if (block.type === 'image' || block.type === 'document') {
        const media = toMediaBlock(block);
        if (media !== undefined) {
          result.humanBlocks.push(media);
          return;
        }
      }
      result.unsupported.push({ path, block });
    }
    result.warnings.push({
      type: 'unsupported',
      line: record.line,
      path,
      message: isJsonObject(block)
        ? `user ${JSON.stringify(block.type ?? null)} block cannot be converted; kept verbatim in the conversation's providerMetadata.claudeCode.unsupportedBlocks`
        : 'user content item is not an object; skipped',
    });
  });
  return result;
}
