import { parseHistory, type Conversation, type HistoryEntry } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  conversationHoldsLoneSurrogate,
  findLoneSurrogates,
  hasLoneSurrogate,
  hasLoneSurrogateByPattern,
  loneSurrogateWarning,
  repairLoneSurrogates,
} from './lone-surrogates.js';
import { deepFreeze } from './testing.js';
import { propertyRuns } from '@ctx/test-properties';

const loneHigh = 'cut \uD83D';
const loneLow = '\uDE00 cut';
const emoji = 'ok \uD83D\uDE00';

describe('findLoneSurrogates', () => {
  it('should list the path of every string holding a lone high or low surrogate, anywhere in the JSON', () => {
    const value = {
      system: loneHigh,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'fine' }, { type: 'text', text: loneLow }] }],
      tools: [{ input_schema: { properties: { [loneHigh]: { type: 'string' } } } }],
    };
    expect(findLoneSurrogates(value)).toEqual(['system', 'messages[0].content[1].text', 'tools[0].input_schema.properties']);
  });

  it('should accept proper surrogate pairs (an emoji) and non-string values', () => {
    expect(findLoneSurrogates({ text: emoji, count: 3, flag: true, none: null, list: [emoji] })).toEqual([]);
  });
});

describe('repairLoneSurrogates', () => {
  it('should replace each lone surrogate with U+FFFD and keep emoji intact, without touching the input', () => {
    const input = deepFreeze({ a: [loneHigh, emoji], b: { c: loneLow }, d: 1 });
    const { value, repairedPaths } = repairLoneSurrogates(input);
    expect(value).toEqual({ a: ['cut \uFFFD', emoji], b: { c: '\uFFFD cut' }, d: 1 });
    expect(repairedPaths).toEqual(['a[0]', 'b.c']);
  });

  it('should return the very same value when nothing needs repair', () => {
    const input = { a: [emoji], b: { c: 'x' } };
    expect(repairLoneSurrogates(input).value).toBe(input);
  });
});

describe('loneSurrogateWarning', () => {
  it('should say how many strings were repaired and name the first few paths', () => {
    const paths = ['m[0]', 'm[1]', 'm[2]', 'm[3]', 'm[4]', 'm[5]'];
    const warning = loneSurrogateWarning(paths);
    expect(warning).toMatchObject({ type: 'lossy', path: 'm[0]' });
    expect(warning.message).toContain('6 strings');
    expect(warning.message).toContain('m[0], m[1], m[2]');
    expect(warning.message).not.toContain('m[5]');
    expect(warning.message).toContain('U+FFFD');
  });
});

describe('hasLoneSurrogate', () => {
  /** Text of ASCII, other BMP characters and surrogate halves in any order (pairs, lone highs, lone lows). */
  const text = fc
    .array(fc.constantFrom('a', ' ', 'é', '→', '\uD83D', '\uDE00', '\uD800', '\uDFFF', '\uDBFF\uDC00'), { maxLength: 12 })
    .map((units) => units.join(''));
  const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  it('should answer what the lookaround pattern answers, for any mix of surrogate halves, with or without the runtime check', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(hasLoneSurrogate(value)).toBe(loneSurrogate.test(value));
        expect(hasLoneSurrogateByPattern(value)).toBe(loneSurrogate.test(value));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('should find and repair exactly the strings and keys the pattern flags, at any depth', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(text, tie('value'), { maxKeys: 3 })),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const strings: string[] = [];
        JSON.stringify(value, (key, item: unknown) => {
          strings.push(key);
          if (typeof item === 'string') strings.push(item);
          return item;
        });
        const flagged = strings.some((item) => loneSurrogate.test(item));
        expect(findLoneSurrogates(value).length > 0).toBe(flagged);
        const { value: repaired, repairedPaths } = repairLoneSurrogates(value);
        expect(repairedPaths.length > 0).toBe(flagged);
        if (!flagged) expect(repaired).toBe(value);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});

describe('conversationHoldsLoneSurrogate', () => {
  const cut = 'cut \uD83D';
  const history: HistoryEntry[] = [
    { speaker: 'human', blocks: [{ type: 'text', text: 'Read a.ts 🙂' }] },
    { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'read', parameters: { path: 'a.ts' } }] },
    { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'read', result: 'export {}' }] },
  ];
  const clean: Conversation = { system: [{ type: 'text', text: 'Be brief.' }], tools: [{ name: 'read', inputSchema: { type: 'object' } }], history };
  const damaged: Record<string, Conversation> = {
    'system text': { ...clean, system: [{ type: 'text', text: cut }] },
    'a tool schema key': { ...clean, tools: [{ name: 'read', inputSchema: { [cut]: 1 } }] },
    'provider metadata': { ...clean, providerMetadata: { anthropic: { request: { note: cut } } } },
    'a block': { ...clean, history: [...history, { speaker: 'ai', blocks: [{ type: 'text', text: cut }] }] },
    'tool parameters': { ...clean, history: [history[0] as HistoryEntry, { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'read', parameters: { path: cut } }] }, history[2] as HistoryEntry] },
    'entry metadata': { ...clean, history: [{ ...(history[0] as HistoryEntry), metadata: { providerMetadata: { x: { [cut]: true } } } }, ...history.slice(1)] },
  };

  it('should find a lone surrogate half in any string of the conversation, a key included, and none in a clean one', () => {
    expect(conversationHoldsLoneSurrogate(clean)).toBe(false);
    for (const [where, conversation] of Object.entries(damaged)) expect([where, conversationHoldsLoneSurrogate(conversation)]).toEqual([where, true]);
  });

  it('should answer the same for validated entries, asked once or again', () => {
    const validated = (conversation: Conversation): Conversation => ({ ...conversation, history: parseHistory(conversation.history) });
    const cleanValidated = validated(clean);
    expect([conversationHoldsLoneSurrogate(cleanValidated), conversationHoldsLoneSurrogate(cleanValidated)]).toEqual([false, false]);
    for (const where of ['a block', 'tool parameters', 'entry metadata']) {
      const conversation = validated(damaged[where] as Conversation);
      expect([where, conversationHoldsLoneSurrogate(conversation), conversationHoldsLoneSurrogate(conversation)]).toEqual([where, true, true]);
    }
  });
});

