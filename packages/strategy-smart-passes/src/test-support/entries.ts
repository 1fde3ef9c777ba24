import { MockTokenizer, createTestCompressionContext } from '@ctx/conformance';
import type { CompressionContext, HistoryEntry, JsonValue, Summarizer, Tokenizer } from '@ctx/core';

/** `count` numbered lines, e.g. `line 1\nline 2`. */
export const lines = (count: number, label = 'line') => Array.from({ length: count }, (_, index) => `${label} ${index + 1}`).join('\n');

export const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });

export const aiText = (text: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });

export const call = (id: string, parameters: JsonValue = { file_path: `/repo/${id}.ts` }, name = 'Read'): HistoryEntry => ({
  speaker: 'ai',
  blocks: [{ type: 'tool_call', id, name, parameters }],
});

export const result = (id: string, value: JsonValue, options: { isError?: boolean; toolName?: string } = {}): HistoryEntry => ({
  speaker: 'tool',
  blocks: [
    {
      type: 'tool_response',
      callId: id,
      toolName: options.toolName ?? 'Read',
      result: value,
      ...(options.isError === undefined ? {} : { isError: options.isError }),
    },
  ],
});

/** One token per whitespace-separated word (plus the counter's 3-token entry overhead). */
export const wordTokenizer = () => new MockTokenizer((text) => text.split(/\s+/).filter(Boolean).length);

/**
 * A frozen context for `history`. By default the window is the history's size, so the target
 * (0.85 × window × 0.6) is well below it: the strategy must act.
 */
export function contextFor(
  history: readonly HistoryEntry[],
  options: { contextLimit?: number; tokenizer?: Tokenizer; summarizer?: Summarizer; signal?: AbortSignal } = {},
): CompressionContext {
  return createTestCompressionContext({
    history,
    tokenizer: options.tokenizer ?? wordTokenizer(),
    ...(options.contextLimit === undefined ? {} : { contextLimit: options.contextLimit }),
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

/** The task, then `turns` read turns with 40-line results, then a final answer. */
export function readSession(turns: number, toolName = 'Read'): HistoryEntry[] {
  const history: HistoryEntry[] = [human('Fix the parser.')];
  for (let turn = 1; turn <= turns; turn++) {
    history.push(call(`c${turn}`, toolName === 'Read' ? { file_path: `/repo/f${turn}.ts` } : { command: `cat /repo/f${turn}.log` }, toolName));
    history.push(result(`c${turn}`, lines(40, `file ${turn} line`), { toolName }));
  }
  history.push(aiText('Done: the parser handles empty input now.'));
  return history;
}
