import { createTokenCounter } from '@ctx/core';
import { anthropicMessageSchema } from '@ctx/format-anthropic';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { describe, expect, it, vi } from 'vitest';
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

/** The text of a body the compressor wrote (UTF-8 bytes). */
const textOf = (body: Uint8Array | undefined): string => new TextDecoder().decode(body);

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
    expect(textOf(next.body)).toContain('value24 = 24');
  });

  it('should start again from the request when an earlier message changed, never sending the old text', async () => {
    const proxy = await compressor();
    const messages = conversationOf(24);
    expect((await proxy.compress('anthropic', request(messages), 'c')).outcome).toBe('compressed');
    // The client edited the latest result (compression keeps recent messages) and went on: the state no longer matches.
    const edited = [...withLastResult(messages, 'export const value23 = "corrected";\n'), ...conversationOf(25).slice(-2)];
    const next = await proxy.compress('anthropic', request(edited), 'c');
    expect(next.outcome).toBe('compressed');
    expect(textOf(next.body)).toContain('value23 = \\"corrected\\"');
    expect(textOf(next.body)).not.toContain('value23 = 23');
  });

  it('should call the cache prefix kept when only the breakpoints moved, and broken when an earlier message changed', async () => {
    const proxy = await compressor();
    // Every message as a text block, as clients that set breakpoints write them; the breakpoint only on message `at`.
    const withBreakpointOn = (messages: readonly Message[], at: number): Message[] =>
      messages.map((message, index) => ({
        ...message,
        content: [{ type: 'text', text: message.content, ...(index === at ? { cache_control: { type: 'ephemeral' } } : {}) }],
      }));
    const opening: Message[] = [
      { role: 'user', content: 'Plan the release.' },
      { role: 'assistant', content: 'First the changelog.' },
    ];
    const first = await proxy.compress('anthropic', request(withBreakpointOn(opening, 0)), 'p');
    expect(first.prefix).toBe('first');
    // Nothing here needs compressing: each request goes out as it came, its breakpoint on its newest user message.
    const longer: Message[] = [...opening, { role: 'user', content: 'Then?' }, { role: 'assistant', content: 'The tag.' }];
    const moved = await proxy.compress('anthropic', request(withBreakpointOn(longer, 2)), 'p');
    expect([moved.outcome, moved.prefix]).toEqual(['unchanged', 'kept']);
    const edited = await proxy.compress('anthropic', request(withBreakpointOn([{ role: 'user', content: 'Plan the launch.' }, ...longer.slice(1)], 2)), 'p');
    expect(edited.prefix).toBe('broken');
  });

  it('should keep the cache prefix when an OpenAI-compatible provider numbers tool calls per turn, and send its ids back', async () => {
    const proxy = await compressor();
    // Kimi on some hosts, and other providers, give the first call of every turn the same id.
    const id = 'functions.list_dir:0';
    const turn = (index: number) => [
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'list_dir', arguments: `{"path":"/repo/pkg-${index}"}` } }] },
      { role: 'tool', tool_call_id: id, content: `pkg-${index}/src/file.ts\n`.repeat(150) },
    ];
    const messages = [{ role: 'user', content: 'Map the packages.' }, ...Array.from({ length: 30 }, (_, index) => turn(index)).flat()];
    const openAIRequest = (list: readonly unknown[]) => ({ model: 'kimi-k3', messages: list });
    expect((await proxy.compress('openai', openAIRequest(messages), 'k')).outcome).toBe('compressed');

    const next = await proxy.compress('openai', openAIRequest([...messages, ...turn(30)]), 'k');
    expect([next.outcome, next.prefix]).toEqual(['compressed', 'kept']);
    const body = JSON.parse(textOf(next.body)) as { messages: { tool_calls?: { id: string }[]; tool_call_id?: string; content: unknown }[] };
    // Every call goes out with the id the provider gave it, and every result right after the call it answers.
    const answered = body.messages.flatMap((message, index) =>
      message.tool_call_id === undefined ? [] : [[body.messages[index - 1]?.tool_calls?.map((call) => call.id), message.tool_call_id]],
    );
    expect(answered).toHaveLength(31);
    expect(answered.every(([calls, answer]) => calls?.length === 1 && calls[0] === id && answer === id)).toBe(true);
    expect(body.messages.at(-1)?.content).toContain('pkg-30/src/file.ts');
  });

  it('should keep the cache prefix when an Anthropic-compatible provider reuses tool_use ids, and send its ids back', async () => {
    const proxy = await compressor();
    const turn = (index: number): Message[] => [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_ls', name: 'ls', input: { path: `/repo/pkg-${index}` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_ls', content: `pkg-${index}/src/file.ts\n`.repeat(150) }] },
    ];
    const messages: Message[] = [{ role: 'user', content: 'Map the packages.' }, ...Array.from({ length: 30 }, (_, index) => turn(index)).flat()];
    expect((await proxy.compress('anthropic', request(messages), 'r')).outcome).toBe('compressed');

    const next = await proxy.compress('anthropic', request([...messages, ...turn(30)]), 'r');
    expect([next.outcome, next.prefix]).toEqual(['compressed', 'kept']);
    const body = JSON.parse(textOf(next.body)) as { messages: { content: { type: string; id?: string; tool_use_id?: string }[] | string }[] };
    const ids = body.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content.flatMap((block) => block.id ?? block.tool_use_id ?? [])));
    expect(ids.length).toBeGreaterThan(2);
    expect(new Set(ids)).toEqual(new Set(['toolu_ls']));
  });

  it("should compress a request that breaks an API rule on its own, not blaming the client's problem on compression", async () => {
    const proxy = await compressor();
    // Two user messages in a row: the API's rules say roles alternate, and the compressed request keeps both.
    const [first, ...rest] = conversationOf(24);
    const messages: Message[] = [first as Message, { role: 'user', content: 'Start with src.' }, ...rest];
    const compressed = await proxy.compress('anthropic', request(messages), 'rules');
    expect([compressed.outcome, compressed.reason]).toEqual(['compressed', undefined]);
    expect(textOf(compressed.body)).toContain('Start with src.');
  });

  it('should compare a compressed body with the request sent last, not with the body it wrote before that', async () => {
    const proxy = await compressor();
    const messages = conversationOf(24);
    expect((await proxy.compress('anthropic', request(messages), 'c')).outcome).toBe('compressed');
    // A request the proxy cannot read is sent as it came: that is now the last request sent.
    const unreadable = await proxy.compress('anthropic', request([{ role: 'user', content: 5 }]), 'c');
    expect(unreadable.outcome).toBe('failed-open');
    // Most messages of the next body are those of the first body, but the request before it began otherwise.
    const next = await proxy.compress('anthropic', request([...messages, ...conversationOf(25).slice(-2)]), 'c');
    expect(next.outcome).toBe('compressed');
    expect(next.prefix).not.toBe('kept');
  });

  it('should check the messages of a compressed body against the schema only where they differ from the last body it sent', async () => {
    const proxy = await compressor();
    const messages = conversationOf(24);
    const first = await proxy.compress('anthropic', request(messages), 'c');
    const more = [...messages, ...conversationOf(25).slice(-2)];
    const parse = vi.spyOn(anthropicMessageSchema, 'safeParse');
    try {
      const next = await proxy.compress('anthropic', request(more), 'c');
      expect([first.outcome, next.outcome]).toEqual(['compressed', 'compressed']);
      // The decoder reads the client's new messages with the same schema; what else was parsed is the body's.
      const parsed = parse.mock.calls.map(([message]) => message).filter((message) => !more.includes(message as Message));
      const before = (JSON.parse(textOf(first.body)) as { messages: unknown[] }).messages;
      const after = (JSON.parse(textOf(next.body)) as { messages: unknown[] }).messages;
      const changed = after.filter((message, index) => JSON.stringify(message) !== JSON.stringify(before[index]));
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.length).toBeLessThan(after.length / 2);
      expect(parsed.map((message) => JSON.stringify(message))).toEqual(changed.map((message) => JSON.stringify(message)));
    } finally {
      parse.mockRestore();
    }
  });
});
