// Provider requests built from a real Claude Code session of the corpus, as an agent would have sent them turn by
// turn: the session is decoded with @ctx/format-claude-code and each request encoded with the provider's codec.
import type { Conversation, HistoryEntry } from '@ctx/core';
import { anthropicMessagesCodec } from '@ctx/format-anthropic';
import { openAIChatCodec } from '@ctx/format-openai';
import { readClaudeCodeSession } from '@ctx/test-corpus';

/** A long session (152 model calls, one compaction) of the corpus. */
export const corpusSessionFile = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';

const systemText = 'You are a coding agent. Use the tools to read and change files.';

/**
 * The history up to each point where the model is called (after a user message or a tool result), every `stride`-th
 * one, up to `count` of them, from the start of the session.
 */
export function callPoints(conversation: Conversation, stride: number, count: number): HistoryEntry[][] {
  const points: HistoryEntry[][] = [];
  const history = conversation.history;
  let calls = 0;
  for (let index = 0; index < history.length && points.length < count; index += 1) {
    const entry = history[index];
    const next = history[index + 1];
    if (entry === undefined || entry.speaker === 'ai' || next?.speaker !== 'ai') continue;
    calls += 1;
    if (calls % stride === 0) points.push(history.slice(0, index + 1));
  }
  return points;
}

export function loadCorpusSession(): Conversation {
  return readClaudeCodeSession(corpusSessionFile);
}

/** An Anthropic Messages request body for `history`, as Claude Code sends it (breakpoint on the last message). */
export function anthropicRequestFor(history: readonly HistoryEntry[], stream = false): Record<string, unknown> {
  const { value } = anthropicMessagesCodec.encode({ system: [{ type: 'text', text: systemText }], history });
  const messages = value.messages.map((message) => ({ ...message }));
  const last = messages.at(-1);
  if (last !== undefined && Array.isArray(last.content) && last.content.length > 0) {
    const content = [...last.content];
    content[content.length - 1] = { ...content[content.length - 1], cache_control: { type: 'ephemeral' } } as (typeof content)[number];
    messages[messages.length - 1] = { ...last, content };
  }
  return { model: 'claude-sonnet-4-5', max_tokens: 4096, stream, ...value, messages };
}

/** An OpenAI Chat Completions request body for `history`. */
export function openAIRequestFor(history: readonly HistoryEntry[]): Record<string, unknown> {
  const { value } = openAIChatCodec.encode({ system: [{ type: 'text', text: systemText }], history });
  return { model: 'gpt-4o', ...value };
}
