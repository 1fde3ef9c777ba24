import type { Conversation, HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { describeForeignMetadata, LAYOUT_KEY } from './describe-foreign-metadata.js';

const options = { ownKey: 'anthropic', format: 'anthropic-messages' };
const text = (value: string, providerMetadata?: HistoryEntry['blocks'][number]['providerMetadata']) =>
  ({ type: 'text', text: value, ...(providerMetadata === undefined ? {} : { providerMetadata }) }) as const;

describe('describeForeignMetadata', () => {
  it('should warn about nothing when the conversation carries only the codec’s own metadata', () => {
    const conversation: Conversation = {
      providerMetadata: { anthropic: { request: { model: 'claude' } } },
      history: [{ speaker: 'human', blocks: [text('Hi', { anthropic: { cache_control: { type: 'ephemeral' } } })] }],
    };
    expect(describeForeignMetadata(conversation, options)).toEqual([]);
  });

  it('should drop layout-only keys of other providers without a warning', () => {
    const conversation: Conversation = {
      history: [{ speaker: 'human', blocks: [text('Hi', { openai: { [LAYOUT_KEY]: { content: 'parts' } } })] }],
    };
    expect(describeForeignMetadata(conversation, options)).toEqual([]);
  });

  it('should give one warning per provider key and place, with the count and the first path', () => {
    const conversation: Conversation = {
      history: [
        { speaker: 'human', blocks: [text('a')] },
        { speaker: 'ai', blocks: [text('b', { openai: { refusalPart: true } })], metadata: { providerMetadata: { openai: { message: { agent: 'x' } } } } },
        { speaker: 'ai', blocks: [text('c', { openai: { refusalPart: true, [LAYOUT_KEY]: { arguments: '{}' } } })] },
      ],
    };
    expect(describeForeignMetadata(conversation, options)).toEqual([
      {
        type: 'lossy',
        message: 'openai.message (agent) on 1 entry has no anthropic-messages equivalent and was dropped',
        path: 'history[1]',
      },
      {
        type: 'lossy',
        message: 'openai.refusalPart on 2 blocks has no anthropic-messages equivalent and was dropped',
        path: 'history[1].blocks[0]',
      },
    ]);
  });

  it('should name at most six fields of an object value', () => {
    const message = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((key) => [key, 1]));
    const conversation: Conversation = {
      history: [{ speaker: 'human', blocks: [text('Hi')], metadata: { providerMetadata: { openai: { message } } } }],
    };
    expect(describeForeignMetadata(conversation, options)[0]?.message).toBe(
      'openai.message (a, b, c, d, e, f, …) on 1 entry has no anthropic-messages equivalent and was dropped',
    );
  });

  it('should say where conversation, system and tool metadata sat', () => {
    const conversation: Conversation = {
      providerMetadata: { claudeCode: { sessionId: 's1' } },
      system: [text('Be brief', { gemini: { role: 'user' } })],
      tools: [{ name: 'read', providerMetadata: { openai: { strict: true } } }, { name: 'write', providerMetadata: { openai: { strict: false } } }],
      history: [{ speaker: 'human', blocks: [text('Hi')] }],
    };
    expect(describeForeignMetadata(conversation, options)).toEqual([
      { type: 'lossy', message: 'claudeCode.sessionId on the conversation has no anthropic-messages equivalent and was dropped' },
      { type: 'lossy', message: 'gemini.role on 1 system block has no anthropic-messages equivalent and was dropped', path: 'system[0]' },
      { type: 'lossy', message: 'openai.strict on 2 tool definitions has no anthropic-messages equivalent and was dropped', path: 'tools[0]' },
    ]);
  });
});
