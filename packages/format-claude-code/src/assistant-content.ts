import { isJsonObject, type ContentBlock, type FormatWarning, type JsonObject, type JsonValue } from '@ctx/core';
import { readStringField } from '@ctx/format-utils';
import { getRecordContent, type ClaudeCodeRecord } from './claude-code-record.js';
import { omitKeys } from './record-fields.js';

/** A content block ctx has no block for, kept verbatim. */
export interface UnsupportedBlock {
  /** Where it sat in its record, e.g. `message.content[2]`. */
  readonly path: string;
  readonly block: JsonObject;
}

/** Blocks converted from one record, and what could not be. */
export interface ConvertedContent {
  readonly blocks: ContentBlock[];
  /** Blocks ctx has no block for, verbatim, with their path in the record. */
  readonly unsupported: UnsupportedBlock[];
  readonly warnings: FormatWarning[];
}

const mappedKeys: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['type', 'text']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
  tool_use: new Set(['type', 'id', 'name', 'input']),
};

/**
 * Provider metadata of a converted block: the record it came from (Claude Code stores one block per assistant
 * record, so this traces every block back to its line) and the block's keys ctx does not model (e.g. `caller`).
 */
function blockMetadata(record: ClaudeCodeRecord, block: JsonObject): { claudeCode: Record<string, JsonValue> } {
  const extras = omitKeys(block, mappedKeys[readStringField(block, 'type') ?? ''] ?? new Set(['type']));
  return { claudeCode: record.uuid === undefined ? extras : { recordUuid: record.uuid, ...extras } };
}

function unsupportedBlock(record: ClaudeCodeRecord, index: number, block: JsonObject, reason: string): FormatWarning {
  const type = JSON.stringify(block.type ?? null);
  return {
    type: 'unsupported',
    line: record.line,
    path: `message.content[${index}]`,
    message: `assistant ${type} block ${reason}; kept verbatim in the conversation's providerMetadata.claudeCode.unsupportedBlocks`,
  };
}

/**
 * Converts the content of an assistant record (an Anthropic Messages message) to ctx blocks: `text` → text,
 * `thinking` → thinking with its signature verbatim, `redacted_thinking` → redacted thinking, `tool_use` →
 * tool_call. Other block types are kept verbatim and reported as `unsupported`.
 *
 * @param record - An assistant record.
 * @returns The blocks, the unsupported blocks, and warnings.
 */
export function convertAssistantContent(record: ClaudeCodeRecord): ConvertedContent {
  const result: ConvertedContent = { blocks: [], unsupported: [], warnings: [] };
  const content = getRecordContent(record);
  if (typeof content === 'string') {
    if (content !== '') result.blocks.push({ type: 'text', text: content });
    return result;
  }
  (content ?? []).forEach((block, index) => {
    if (!isJsonObject(block)) {
      result.warnings.push({
        type: 'unsupported',
        line: record.line,
        path: `message.content[${index}]`,
        message: 'assistant content item is not an object; skipped',
      });
      return;
    }
    const providerMetadata = blockMetadata(record, block);
    switch (block.type) {
      case 'text':
        if (typeof block.text === 'string') {
          result.blocks.push({ type: 'text', text: block.text, providerMetadata });
          return;
        }
        break;
      case 'thinking':
        if (typeof block.thinking === 'string') {
          const signature = readStringField(block, 'signature');
          result.blocks.push({
            type: 'thinking',
            thought: block.thinking,
            ...(signature === undefined ? {} : { signature }),
            providerMetadata,
          });
          return;
        }
        break;
      case 'redacted_thinking':
        if (typeof block.data === 'string') {
          result.blocks.push({ type: 'thinking', thought: block.data, redacted: true, providerMetadata });
          return;
        }
        break;
      case 'tool_use': {
        const id = readStringField(block, 'id');
        const name = readStringField(block, 'name');
        if (id !== undefined && id !== '' && name !== undefined && name !== '') {
          result.blocks.push({ type: 'tool_call', id, name, parameters: block.input ?? {}, providerMetadata });
          return;
        }
        break;
      }
      default:
        result.unsupported.push({ path: `message.content[${index}]`, block });
        result.warnings.push(unsupportedBlock(record, index, block, 'has no ctx equivalent'));
        return;
    }
    result.unsupported.push({ path: `message.content[${index}]`, block });
    result.warnings.push(unsupportedBlock(record, index, block, 'is missing a required field'));
  });
  return result;
}
