import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-entry.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { createCountingTokenizer } from './counting-tokenizer.js';
import { createTokenCounter } from './token-counter.js';
import { measureTokenizedCharacters } from './tokenized-characters.js';

const entries: HistoryEntry[] = [
  { speaker: 'human', blocks: [{ type: 'text', text: 'Fix the failing date test' }] },
  {
    speaker: 'ai',
    blocks: [
      { type: 'thinking', thought: 'Look at the parser first', signature: 'sig' },
      { type: 'tool_call', id: 'c1', name: 'Read', parameters: { path: 'src/date.ts', lines: [1, 40] } },
      { type: 'media', mediaType: 'image/png', url: 'https://example.test/screen.png' },
    ],
  },
  {
    speaker: 'tool',
    blocks: [
      { type: 'tool_response', callId: 'c1', toolName: 'Read', result: 'export function parse() {}' },
      { type: 'tool_response', callId: 'c1', toolName: 'Read', result: [{ type: 'text', text: 'structured' }] },
    ],
  },
];

describe('measureTokenizedCharacters', () => {
  it('should equal the characters a token counter hands its tokenizer to count everything once', () => {
    const counting = createCountingTokenizer(createWordTokenizer());
    const counter = createTokenCounter(counting.tokenizer, { contentCacheCharacters: 0 });
    const system = [{ type: 'text' as const, text: 'Be brief.' }];
    const tools = [{ name: 'Read', description: 'Reads a file', inputSchema: { type: 'object' } }];
    counter.countEntries(entries);
    counter.countOverhead(system, tools);
    expect(measureTokenizedCharacters(entries, { system, tools })).toBe(counting.stats().characters);
  });

  it('should count nothing for an empty history', () => {
    expect(measureTokenizedCharacters([])).toBe(0);
  });
});
