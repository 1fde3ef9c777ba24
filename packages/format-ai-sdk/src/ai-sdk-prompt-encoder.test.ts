import { parseHistory, parseHistoryEntry, type Conversation, type HistoryEntry } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkCodec } from './ai-sdk-codec.js';
import { createAiSdkPromptEncoder } from './ai-sdk-prompt-encoder.js';
import { encodeAiSdkPrompt } from './encode-ai-sdk-prompt.js';
import { promptArbitrary } from './test-support/ai-sdk-prompt-arbitraries.js';
import { propertyRuns } from '@ctx/test-properties';

/** What a strategy or an app does to a history between two encodings. */
type Step =
  | { readonly kind: 'grow'; readonly count: number }
  | { readonly kind: 'remove'; readonly at: number }
  | { readonly kind: 'edit'; readonly at: number; readonly text: string }
  | { readonly kind: 'raw'; readonly at: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('grow' as const), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), text: fc.constantFrom('edited', '', ' ') }),
  fc.record({ kind: fc.constant('raw' as const), at: fc.nat() }),
);

/** The entry with its first text-like block's text replaced (or a text block added), validated again. */
function edited(entry: HistoryEntry, text: string): HistoryEntry {
  const index = entry.blocks.findIndex((block) => block.type === 'text' || block.type === 'tool_response');
  const blocks = entry.blocks.map((block, position) => {
    if (position !== index) return block;
    return block.type === 'text' ? { ...block, text } : block.type === 'tool_response' ? { ...block, result: text } : block;
  });
  return parseHistoryEntry({ ...entry, blocks: index === -1 ? [...blocks, { type: 'text', text }] : blocks });
}

describe('createAiSdkPromptEncoder', () => {
  it('should encode every history exactly as aiSdkCodec.encode does while entries are added, removed, replaced and swapped for raw copies', () => {
    fc.assert(
      fc.property(promptArbitrary, fc.array(step, { maxLength: 12 }), (input, steps) => {
        const { conversation } = aiSdkCodec.decode(input);
        const all = conversation.history;
        const encoder = createAiSdkPromptEncoder();
        let grown = Math.min(all.length, 2);
        let history: HistoryEntry[] = all.slice(0, grown);
        const check = () => {
          const current: Conversation = { ...conversation, history };
          expect(encoder.encode(current)).toEqual(encodeAiSdkPrompt(current));
        };
        check();
        for (const change of steps) {
          if (change.kind === 'grow') {
            const added = all.slice(grown, grown + change.count);
            grown += added.length;
            history = [...history, ...added];
          } else if (history.length > 0) {
            const at = change.at % history.length;
            const entry = history[at] as HistoryEntry;
            if (change.kind === 'remove') history = history.filter((_, index) => index !== at);
            else if (change.kind === 'edit') history = history.map((item, index) => (index === at ? edited(entry, change.text) : item));
            else history = history.map((item, index) => (index === at ? structuredClone<HistoryEntry>(entry) : item));
          }
          check();
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should hand out the same frozen messages for an entry it encoded before, and new ones once the entry is replaced', () => {
    const history = parseHistory([
      { speaker: 'human', blocks: [{ type: 'text', text: 'Read a.ts' }] },
      { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'read', parameters: { path: 'a.ts' } }] },
      { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'read', result: 'export const a = 1;' }] },
    ]);
    const encoder = createAiSdkPromptEncoder();
    const first = encoder.encode({ history }).value.messages;
    const second = encoder.encode({ history }).value.messages;
    expect(second).toEqual(first);
    second.forEach((message, index) => expect(message).toBe(first[index]));
    expect(Object.isFrozen(second[2])).toBe(true);
    expect(Array.isArray(second[1]?.content)).toBe(true);
    expect(() => (second[1] as unknown as { content: unknown[] }).content.push('x')).toThrow(TypeError);

    const replaced = [...history.slice(0, 2), edited(history[2] as HistoryEntry, 'export const a = 2;')];
    const third = encoder.encode({ history: replaced }).value.messages;
    expect(third[1]).toBe(first[1]);
    expect(third[2]).not.toBe(first[2]);
    expect(third[2]).toEqual(encodeAiSdkPrompt({ history: replaced }).value.messages[2]);
  });

  it('should hand out the same frozen assistant message for a continuing entry it joined before, and join it again once the entry is replaced', () => {
    const { conversation } = aiSdkCodec.decode({
      messages: [
        { role: 'user', content: 'Search the web for vitest' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 's1', toolName: 'web_search', input: { query: 'vitest' }, providerExecuted: true },
            { type: 'tool-result', toolCallId: 's1', toolName: 'web_search', output: { type: 'text', value: 'vitest.dev' } },
            { type: 'text', text: 'It is at vitest.dev.' },
          ],
        },
      ],
    });
    const history = conversation.history;
    expect(history.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool']);
    const encoder = createAiSdkPromptEncoder();
    const first = encoder.encode({ history }).value.messages;
    const next = parseHistory([{ speaker: 'human', blocks: [{ type: 'text', text: 'Thanks' }] }]);
    const grown = [...history, ...next];
    const second = encoder.encode({ history: grown }).value.messages;
    expect(second).toEqual(encodeAiSdkPrompt({ history: grown }).value.messages);
    expect(second[1]).toBe(first[1]);
    expect(Object.isFrozen(second[1])).toBe(true);
    expect(() => (second[1] as unknown as { content: unknown[] }).content.push('x')).toThrow(TypeError);

    const replaced = [...history.slice(0, 2), edited(history[2] as HistoryEntry, 'vitest.dev and its docs'), ...next];
    const third = encoder.encode({ history: replaced }).value.messages;
    expect(third[1]).not.toBe(first[1]);
    expect(third).toEqual(encodeAiSdkPrompt({ history: replaced }).value.messages);
  });

  it('should encode an entry ctx did not validate anew on every call, so a change the caller makes to it shows', () => {
    const block = { type: 'text' as const, text: 'first' };
    const entry = { speaker: 'human' as const, blocks: [block] };
    const encoder = createAiSdkPromptEncoder();
    expect(encoder.encode({ history: [entry] }).value.messages).toEqual([{ role: 'user', content: 'first' }]);
    block.text = 'second';
    const { messages } = encoder.encode({ history: [entry] }).value;
    expect(messages).toEqual([{ role: 'user', content: 'second' }]);
    expect(Object.isFrozen(messages[0])).toBe(false);
  });

  it('should encode an entry holding media anew on every call (binary data cannot be frozen)', () => {
    const history = parseHistory([
      { speaker: 'human', blocks: [{ type: 'text', text: 'What is this?' }, { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] },
    ]);
    const encoder = createAiSdkPromptEncoder();
    const first = encoder.encode({ history }).value.messages;
    const second = encoder.encode({ history }).value.messages;
    expect(second).toEqual(first);
    expect(second[0]).not.toBe(first[0]);
    expect(Object.isFrozen(second[0])).toBe(false);
  });

  it('should name each loss with the index the entry has now, not the one it had when first encoded', () => {
    const history = parseHistory([
      { speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] },
      { speaker: 'ai', blocks: [{ type: 'text', text: 'hello' }], metadata: { model: 'm' } },
    ]);
    const encoder = createAiSdkPromptEncoder();
    expect(encoder.encode({ history }).warnings.map((warning) => warning.path)).toEqual(['history[1].metadata']);
    expect(encoder.encode({ history: history.slice(1) }).warnings.map((warning) => warning.path)).toEqual(['history[0].metadata']);
  });
});
