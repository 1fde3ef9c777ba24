import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { aiSdkCodec, type AiSdkModelMessage, type AiSdkPrompt } from '@ctx/format-ai-sdk';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidFormatError, createCountingTokenizer, type Tokenizer } from '@ctx/core';
import { ConversationState } from './conversation-state.js';
import { sourceOfAiSdkPrompt } from './prompt-source.js';
import { propertyRuns } from '@ctx/test-properties';

let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await createGptTokenizer();
});

/** A state whose window nothing here fills: what it sends is the prompt it was given, as the codec writes it. */
function roomyState(): ConversationState {
  return new ConversationState({ strategy: () => createTruncationStrategy(), contextWindow: 1_000_000, tokenizer, calibration: false });
}

/** The system string and messages the codec writes for a prompt (what the middleware sends on; tools go as they came). */
function roundTrip(prompt: AiSdkPrompt): Pick<AiSdkPrompt, 'system' | 'messages'> {
  const { system, messages } = aiSdkCodec.encode(aiSdkCodec.decode(prompt).conversation).value;
  return { system, messages };
}

const sent = ({ system, messages }: AiSdkPrompt): Pick<AiSdkPrompt, 'system' | 'messages'> => ({ system, messages });

const text = fc.constantFrom('Read a.ts', 'ok', 'Done.', 'ünïcødé', 'The tests pass.', '');

/** A turn an app adds: a user message, an answer, a tool call answered by its result, or a system message. */
const turn = fc.oneof(
  text.map((value): AiSdkModelMessage[] => [{ role: 'user', content: value }]),
  text.map((value): AiSdkModelMessage[] => [{ role: 'user', content: [{ type: 'text', text: value, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } }] }]),
  text.map((value): AiSdkModelMessage[] => [{ role: 'assistant', content: value }]),
  // The call's id is given when the turn joins a prompt (`withCallIds`): ids drawn at random would repeat within a turn
  // now and then (fast-check favours small numbers), and a turn that answers two calls of the same id is not valid.
  text.map((value): AiSdkModelMessage[] => [
    { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool-call', toolCallId: 'c', toolName: 'read', input: { path: value } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'read', output: { type: 'text', value: `${value}\n`.repeat(3) } }] },
  ]),
  text.map((value): AiSdkModelMessage[] => [{ role: 'system', content: `Mode: ${value}` }]),
);

/**
 * The turns' messages, each turn's tool call (and its result) given an id no earlier turn of the prompt used, or,
 * `numberedPerTurn`, the same id in every turn, as providers that number calls per turn give them.
 */
function withCallIds(turns: readonly AiSdkModelMessage[][], ids: { next: number }, numberedPerTurn: boolean): AiSdkModelMessage[] {
  return turns.flatMap((messages) => {
    const id = numberedPerTurn ? 'functions.read:0' : `c${ids.next++}`;
    return messages.map((message): AiSdkModelMessage => {
      if (message.role === 'assistant' && typeof message.content !== 'string') {
        return { ...message, content: message.content.map((part) => (part.type === 'tool-call' ? { ...part, toolCallId: id } : part)) };
      }
      if (message.role === 'tool') {
        return { ...message, content: message.content.map((part) => (part.type === 'tool-result' ? { ...part, toolCallId: id } : part)) };
      }
      return message;
    });
  });
}

/** What an app does between two calls. */
const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('more' as const), turns: fc.array(turn, { minLength: 1, maxLength: 3 }) }) },
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('copy' as const) }),
  fc.record({ kind: fc.constant('same' as const) }),
  fc.record({ kind: fc.constant('system' as const), system: fc.option(text, { nil: undefined }) }),
  fc.record({ kind: fc.constant('tools' as const), described: fc.boolean() }),
);

describe('ConversationState', () => {
  it('should send every prompt as the codec writes it, rebuilding exactly when an earlier message changed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { maxLength: 3 }), fc.array(step, { minLength: 1, maxLength: 10 }), fc.boolean(), async (start, steps, numberedPerTurn) => {
        const state = roomyState();
        const ids = { next: 0 };
        let prompt: AiSdkPrompt = { system: 'You are terse.', messages: withCallIds(start, ids, numberedPerTurn) };
        let seen: readonly AiSdkModelMessage[] | undefined;
        for (const change of [{ kind: 'same' as const }, ...steps]) {
          const messages = prompt.messages;
          if (change.kind === 'more') prompt = { ...prompt, messages: [...messages, ...withCallIds(change.turns, ids, numberedPerTurn)] };
          else if (change.kind === 'edit' && messages.length > 0) {
            const at = change.at % messages.length;
            const edited: AiSdkModelMessage = { role: 'user', content: `edited ${JSON.stringify(messages[at])}` };
            prompt = { ...prompt, messages: messages.map((message, index) => (index === at ? edited : message)) };
          } else if (change.kind === 'copy') prompt = structuredClone(prompt);
          else if (change.kind === 'system') prompt = { ...(change.system === undefined ? {} : { system: change.system }), messages, ...(prompt.tools === undefined ? {} : { tools: prompt.tools }) };
          else if (change.kind === 'tools') prompt = { ...prompt, tools: { read: { ...(change.described ? { description: 'Reads a file' } : {}), inputSchema: { type: 'object' } } } };
          const result = await state.compress(sourceOfAiSdkPrompt(prompt));
          expect(sent(result.prompt)).toEqual(roundTrip(prompt));
          const extendsSeen =
            seen !== undefined && seen.length <= prompt.messages.length && JSON.stringify(prompt.messages.slice(0, seen.length)) === JSON.stringify(seen);
          expect(result.rebuilt).toBe(!extendsSeen);
          seen = structuredClone(prompt.messages);
        }
      }),
      { numRuns: propertyRuns(150) },
    );
  });

  it('should see a message the app edited in place after the call, and rebuild from the prompt', async () => {
    const state = roomyState();
    const messages: { role: 'user' | 'assistant'; content: string }[] = [
      { role: 'user', content: 'Read a.ts' },
      { role: 'assistant', content: 'It exports a.' },
    ];
    expect((await state.compress(sourceOfAiSdkPrompt({ messages }))).rebuilt).toBe(true);
    messages[0]!.content = 'Read b.ts';
    messages.push({ role: 'user', content: 'And now?' });
    const result = await state.compress(sourceOfAiSdkPrompt({ messages }));
    expect(result.rebuilt).toBe(true);
    expect(result.prompt.messages[0]).toEqual({ role: 'user', content: 'Read b.ts' });
  });

  it('should not tokenize the conversation again when it rebuilds from a prompt whose past changed', async () => {
    const counting = createCountingTokenizer(tokenizer);
    const state = new ConversationState({ strategy: () => createTruncationStrategy(), contextWindow: 1_000_000, tokenizer: counting.tokenizer, calibration: false });
    const output = (name: string) => Array.from({ length: 60 }, (_, line) => `${name}:${line}: export const value${line} = ${line};`).join('\n');
    const messages: AiSdkModelMessage[] = [{ role: 'user', content: 'Read the files.' }];
    for (const name of ['a.ts', 'b.ts', 'c.ts']) {
      messages.push(
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: name, toolName: 'read', input: { path: name } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: name, toolName: 'read', output: { type: 'text', value: output(name) } }] },
      );
    }
    await state.compress(sourceOfAiSdkPrompt({ messages }));
    const first = counting.stats().characters;
    counting.reset();
    // The app rewrote its first message: the past changed, so the state is rebuilt from the whole prompt.
    const edited: AiSdkModelMessage[] = [{ role: 'user', content: 'Read the three files.' }, ...messages.slice(1), { role: 'user', content: 'Now?' }];
    const result = await state.compress(sourceOfAiSdkPrompt({ messages: edited }));

    expect(result.rebuilt).toBe(true);
    expect(result.estimatedTokens).toBeGreaterThan(3 * 60 * 8);
    // Only the short texts (names, the two user messages) are tokenized again; the file contents come from the cache.
    expect(counting.stats().characters).toBeLessThan(first / 10);
  });

  it('should carry a system message added mid-conversation as the whole prompt decodes it, without a rebuild', async () => {
    const state = roomyState();
    const first: AiSdkModelMessage[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hi' },
    ];
    await state.compress(sourceOfAiSdkPrompt({ messages: first }));
    const later: AiSdkPrompt = { messages: [...first, { role: 'assistant', content: 'Hello.' }, { role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'Why?' }] };
    const result = await state.compress(sourceOfAiSdkPrompt(later));
    expect(result.rebuilt).toBe(false);
    expect(sent(result.prompt)).toEqual(roundTrip(later));
    expect(result.prompt.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'system', 'user']);
  });

  it('should refuse an invalid new message with InvalidFormatError and keep the state as it was', async () => {
    const state = roomyState();
    const first: AiSdkModelMessage[] = [{ role: 'user', content: 'Hi' }];
    await state.compress(sourceOfAiSdkPrompt({ messages: first }));
    const invalid = { messages: [...first, { role: 'assistant', content: 'Hello.' }, null] } as unknown as AiSdkPrompt;
    const refused = state.compress(sourceOfAiSdkPrompt(invalid));
    await expect(refused).rejects.toBeInstanceOf(InvalidFormatError);
    await expect(refused).rejects.toThrow(/messages\[2\]/);
    const result = await state.compress(sourceOfAiSdkPrompt({ messages: [...first, { role: 'assistant', content: 'Hello.' }] }));
    expect(result.rebuilt).toBe(false);
    expect(result.prompt.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
    ]);
  });
});
