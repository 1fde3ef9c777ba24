import { createTokenCounter } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { RequestCompressor } from './request-compressor.js';
import { resolveProxyPreset } from './resolve-proxy-preset.js';

type Message = { readonly role: 'user' | 'assistant'; readonly content: unknown };

/** An agent reading `turns` files, each result long enough that a small window needs compressing. */
function conversationOf(turns: number): Message[] {
  return [
    { role: 'user', content: 'Read every file of the project.' },
    ...Array.from({ length: turns }, (_, turn): Message[] => [
      { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Read', input: { file_path: `/repo/src/file-${turn}.ts` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: `export const value${turn} = ${turn};\n`.repeat(60) }] },
    ]).flat(),
  ];
}

/** The same conversation with the last tool result's content replaced. */
function withLastResult(messages: readonly Message[], content: string): Message[] {
  const last = messages.at(-1) as Message;
  const [block] = last.content as readonly { readonly tool_use_id: string }[];
  return [...messages.slice(0, -1), { role: 'user', content: [{ type: 'tool_result', tool_use_id: block?.tool_use_id, content }] }];
}

const request = (messages: readonly Message[]) => ({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages });

async function compressor(): Promise<RequestCompressor> {
  return new RequestCompressor({
    preset: resolveProxyPreset('speed'),
    window: 8_000,
    stateless: false,
    tokenCounter: createTokenCounter(await createGptTokenizer()),
    maxConversations: 10,
  });
}

describe('RequestCompressor', () => {
  it('should continue a conversation whose earlier messages are the ones it holds', async () => {
    const proxy = await compressor();
    const messages = conversationOf(24);
    expect((await proxy.compress('anthropic', request(messages), 'c')).outcome).toBe('compressed');
    const more = [...messages, ...conversationOf(25).slice(-2)];
    const next = await proxy.compress('anthropic', request(more), 'c');
    expect(next.outcome).toBe('compressed');
    expect(next.body).toContain('value24 = 24');
  });

  it('should start again from the request when an earlier message changed, never sending the old text', async () => {
    const proxy = await compressor();
    const messages = conversationOf(24);
    expect((await proxy.compress('anthropic', request(messages), 'c')).outcome).toBe('compressed');
    // The client edited the latest result (compression keeps recent messages) and went on: the state no longer matches.
    const edited = [...withLastResult(messages, 'export const value23 = "corrected";\n'), ...conversationOf(25).slice(-2)];
    const next = await proxy.compress('anthropic', request(edited), 'c');
    expect(next.outcome).toBe('compressed');
    expect(next.body).toContain('value23 = \\"corrected\\"');
    expect(next.body).not.toContain('value23 = 23');
  });
});
