import { InvalidFormatError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { aiSdkCodec } from './ai-sdk-codec.js';
import type { AiSdkPrompt } from './ai-sdk-prompt.js';

const roundTrip = (prompt: AiSdkPrompt) => aiSdkCodec.encode(aiSdkCodec.decode(prompt).conversation).value;

// AI SDK 7's assistant parts: a provider's own content (here OpenAI's compaction item) and a file produced while
// reasoning.
const v7Conversation: AiSdkPrompt = {
  messages: [
    { role: 'user', content: 'Draw the architecture' },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'A box per package.' },
        { type: 'reasoning-file', data: 'iVBORw0KGgo=', mediaType: 'image/png', providerOptions: { openai: { itemId: 'rf_1' } } },
        { type: 'custom', kind: 'openai.compaction', providerOptions: { openai: { encryptedContent: 'gAAA' } } },
        { type: 'text', text: 'Here it is.' },
      ],
    },
    { role: 'user', content: 'Thanks' },
  ],
};

describe('aiSdkCodec (AI SDK 7 parts)', () => {
  it('should round-trip custom and reasoning-file parts exactly, in their places', () => {
    expect(roundTrip(v7Conversation)).toEqual(v7Conversation);
  });

  it('should show a reasoning file to strategies as a media block and keep a custom part out of the blocks', () => {
    const { history } = aiSdkCodec.decode(v7Conversation).conversation;
    expect(history[1]?.blocks.map((block) => block.type)).toEqual(['thinking', 'media', 'text']);
    expect(history[1]?.blocks[1]).toMatchObject({ type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' });
  });

  it('should put a custom part back at the end when a strategy removed the parts before it', () => {
    const decoded = aiSdkCodec.decode(v7Conversation).conversation;
    const [user, assistant, ...rest] = decoded.history;
    const shortened = { ...decoded, history: [user!, { ...assistant!, blocks: assistant!.blocks.slice(2) }, ...rest] };
    const encoded = aiSdkCodec.encode(shortened).value;
    expect(encoded.messages[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Here it is.' }, { type: 'custom', kind: 'openai.compaction' }],
    });
  });

  it('should refuse a custom part whose kind does not name a provider, saying what was expected', () => {
    const broken = { messages: [{ role: 'assistant', content: [{ type: 'custom', kind: 'compaction' }] }] } as unknown as AiSdkPrompt;
    expect(() => aiSdkCodec.decode(broken)).toThrow(InvalidFormatError);
    expect(() => aiSdkCodec.decode(broken)).toThrow(/Expected a kind such as openai\.compaction/);
  });
});
