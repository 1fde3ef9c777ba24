import {
  createCompressionBudget,
  createTokenCounter,
  parseHistory,
  type CompressionContext,
  type ContentBlock,
  type HistoryEntry,
  type JsonValue,
  type Tokenizer,
} from '@ctx/core';
import { MockTokenizer } from '@ctx/conformance';

/** One token per whitespace-separated word; entries also carry the counter's per-entry overhead. */
export const wordTokenizer = (): MockTokenizer => new MockTokenizer((text) => text.split(/\s+/).filter(Boolean).length);

export const text = (value: string): ContentBlock => ({ type: 'text', text: value });

export const human = (value: string): HistoryEntry => ({ speaker: 'human', blocks: [text(value)] });

export const ai = (...blocks: ContentBlock[]): HistoryEntry => ({ speaker: 'ai', blocks });

export const aiText = (value: string): HistoryEntry => ai(text(value));

export const call = (id: string, name = 'Read', parameters: JsonValue = { file_path: `/repo/${id}.ts` }): ContentBlock => ({
  type: 'tool_call',
  id,
  name,
  parameters,
});

export const response = (id: string, name = 'Read', result: JsonValue = `contents of ${id}`): ContentBlock => ({
  type: 'tool_response',
  callId: id,
  toolName: name,
  result,
});

export const tool = (...blocks: ContentBlock[]): HistoryEntry => ({ speaker: 'tool', blocks });

export const thinking = (thought: string): ContentBlock => ({ type: 'thinking', thought, signature: `sig-${thought.length}` });

/** An assistant turn with one call and its result: `[ai(text?, call), tool(response)]`. */
export function toolTurn(id: string, options: { name?: string; say?: string } = {}): HistoryEntry[] {
  const name = options.name ?? 'Read';
  return [
    ai(...(options.say === undefined ? [] : [text(options.say)]), call(id, name)),
    tool(response(id, name)),
  ];
}

/** A frozen compression context, the way the orchestrator builds one. */
export function contextFor(
  history: readonly HistoryEntry[],
  options: { contextLimit?: number; tokenizer?: Tokenizer } = {},
): CompressionContext {
  const tokenCounter = createTokenCounter(options.tokenizer ?? wordTokenizer());
  const parsed = parseHistory(history);
  return {
    history: parsed,
    system: [],
    tools: [],
    tokenCounter,
    budget: createCompressionBudget({
      contextLimit: options.contextLimit ?? Math.max(1, tokenCounter.countEntries(parsed)),
      threshold: 0.85,
    }),
  };
}

/** Every text of text blocks, in order: what must survive a watermark pass. */
export function texts(history: readonly HistoryEntry[]): string[] {
  return history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])));
}

/** The block types of each entry, e.g. `['human:text', 'ai:text+tool_call']`. */
export function shape(history: readonly HistoryEntry[]): string[] {
  return history.map((entry) => `${entry.speaker}:${entry.blocks.map((block) => block.type).join('+')}`);
}
