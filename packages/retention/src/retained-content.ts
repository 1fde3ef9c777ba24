import type { HistoryEntry, JsonValue, ToolCallBlock } from '@ctx/core';
import { toolResultText } from '@ctx/strategy-utils';
import { stableJson } from './stable-json.js';

/** Separates block texts in the joined search text; evidence containing it is searched block by block instead. */
const separator = '\u0000';

function callKey(name: string, parameters: JsonValue): string {
  return `${name}${separator}${stableJson(parameters)}`;
}

/**
 * What a history still holds, indexed for the retention checks: every block's text (text blocks of any entry, the
 * text of tool results and the strings of tool-call parameters), tool calls by name and parameters, and tool results
 * by call id and content. Built in
 * one pass; text lookups try exact block texts first and fall back to one substring search over all of them.
 */
export class RetainedContent {
  private readonly texts: string[] = [];
  private readonly exactTexts = new Set<string>();
  private readonly calls = new Set<string>();
  private readonly responses = new Map<string, Set<string>>();
  private joinedTexts: string | undefined;

  constructor(history: readonly HistoryEntry[]) {
    for (const entry of history) {
      for (const block of entry.blocks) {
        if (block.type === 'text') {
          this.addText(block.text);
        } else if (block.type === 'tool_response') {
          this.addText(toolResultText(block.result));
          const results = this.responses.get(block.callId) ?? new Set<string>();
          results.add(stableJson(block.result));
          this.responses.set(block.callId, results);
        } else if (block.type === 'tool_call') {
          this.calls.add(callKey(block.name, block.parameters));
          // What a call's parameters say is in context too (a write's content, possibly with later edits folded in).
          this.addParameterTexts(block.parameters);
        }
      }
    }
  }

  private addParameterTexts(value: JsonValue): void {
    if (typeof value === 'string') this.addText(value);
    else if (Array.isArray(value)) for (const item of value as readonly JsonValue[]) this.addParameterTexts(item);
    else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) this.addParameterTexts(item);
  }

  private addText(text: string): void {
    if (text === '') return;
    this.texts.push(text);
    this.exactTexts.add(text);
  }

  /**
   * True when `text` is a block's whole text or occurs inside one (a strategy may fold content into a larger text).
   * Blank text is never "contained": it would match anything.
   */
  containsText(text: string): boolean {
    if (text.trim() === '') return false;
    if (this.exactTexts.has(text)) return true;
    if (text.includes(separator)) return this.texts.some((candidate) => candidate.includes(text));
    this.joinedTexts ??= this.texts.join(separator);
    return this.joinedTexts.includes(text);
  }

  /** True when a tool call with the same name and parameters (key order aside) is present. */
  hasCall(call: ToolCallBlock): boolean {
    return this.calls.has(callKey(call.name, call.parameters));
  }

  /** True when a tool result answering `callId` with the same content is present. */
  hasResponse(callId: string, result: JsonValue): boolean {
    return this.responses.get(callId)?.has(stableJson(result)) === true;
  }
}
