import { readFileSync } from 'node:fs';
import type { ContentBlock, HistoryEntry, JsonValue } from '@ctx/core';

/*
 * Test-only: turns the Anthropic `message` fields of Claude Code session records into canonical entries, so real
 * histories can drive the codec tests. Deliberately minimal (text, thinking, tool_use, tool_result, images); the
 * real decoder is @ctx/format-claude-code's job.
 */

interface AnthropicBlock {
  readonly type: string;
  readonly [key: string]: JsonValue;
}

interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly AnthropicBlock[];
}

function imageBlock(block: AnthropicBlock): ContentBlock {
  const source = block.source as { type: string; media_type?: string; data?: string; url?: string };
  return source.type === 'url'
    ? { type: 'media', mediaType: 'image/*', url: source.url ?? '' }
    : { type: 'media', mediaType: source.media_type ?? 'image/png', data: source.data ?? '' };
}

/** One Anthropic message → one entry, or a tool entry then a human entry for a user message mixing both. */
export function anthropicMessageToEntries(message: AnthropicMessage, toolNames: Map<string, string>): HistoryEntry[] {
  if (typeof message.content === 'string') {
    return [{ speaker: message.role === 'user' ? 'human' : 'ai', blocks: [{ type: 'text', text: message.content }] }];
  }
  if (message.role === 'assistant') {
    const blocks = message.content.flatMap((block): ContentBlock[] => {
      switch (block.type) {
        case 'text':
          return [{ type: 'text', text: block.text as string }];
        case 'thinking':
          return [{ type: 'thinking', thought: block.thinking as string, signature: block.signature as string }];
        case 'redacted_thinking':
          return [{ type: 'thinking', thought: block.data as string, redacted: true }];
        case 'tool_use':
          toolNames.set(block.id as string, block.name as string);
          return [{ type: 'tool_call', id: block.id as string, name: block.name as string, parameters: block.input as JsonValue }];
        case 'image':
          return [imageBlock(block)];
        default:
          return [];
      }
    });
    return [{ speaker: 'ai', blocks }];
  }
  const responses: ContentBlock[] = [];
  const others: ContentBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'tool_result') {
      const callId = block.tool_use_id as string;
      responses.push({
        type: 'tool_response',
        callId,
        toolName: toolNames.get(callId) ?? '',
        result: block.content ?? '',
        ...(block.is_error === true ? { isError: true } : {}),
      });
    } else if (block.type === 'text') others.push({ type: 'text', text: block.text as string });
    else if (block.type === 'image') others.push(imageBlock(block));
  }
  return [
    ...(responses.length > 0 ? [{ speaker: 'tool' as const, blocks: responses }] : []),
    ...(others.length > 0 || responses.length === 0 ? [{ speaker: 'human' as const, blocks: others }] : []),
  ];
}

/** The canonical history of a Claude Code session file: every user and assistant record's message, in file order. */
export function readClaudeCodeHistory(path: string | URL): HistoryEntry[] {
  const toolNames = new Map<string, string>();
  const entries: HistoryEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as { type?: string; message?: AnthropicMessage };
    if ((record.type !== 'user' && record.type !== 'assistant') || record.message?.content === undefined) continue;
    entries.push(...anthropicMessageToEntries(record.message, toolNames));
  }
  return entries;
}
