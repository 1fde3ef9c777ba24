import { describe, expect, it } from 'vitest';
import { type HistoryEntry } from '../history/history-entry.js';
import { parseHistoryEntry } from '../history/parse-history.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { createTokenCounter } from './token-counter.js';
import { type Tokenizer } from './tokenizer.js';


/** A tokenizer that always returns `value`, whatever the text. */
function createConstantTokenizer(value: number): Tokenizer {
  return { specificationVersion: 'v1', name: `test:constant-${value}`, countTokens: () => value };
}

function textEntry(text: string): HistoryEntry {
  return { speaker: 'human', blocks: [{ type: 'text', text }] };
}

const longText = (seed: string) => `${seed} ${'word '.repeat(80)}`;

describe('createTokenCounter', () => {
  describe('content cache', () => {
    it('should not tokenize a long text again when it comes back in a new entry object', () => {
      const tokenizer = createWordTokenizer();
      const counter = createTokenCounter(tokenizer);
      const first = counter.countEntry(textEntry(longText('a')));
      // A rewritten entry, or the validated copy a history service stores: equal text, new objects.
      const second = counter.countEntry({ speaker: 'tool', blocks: [{ type: 'text', text: `${longText('a')}` }] });
      expect(second).toBe(first);
      expect(tokenizer.calls).toHaveLength(1);
    });

    it('should not tokenize a short text again either (every call of a tool repeats its name)', () => {
      const tokenizer = createWordTokenizer();
      const counter = createTokenCounter(tokenizer);
      const call = (id: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'tool_call', id, name: 'Bash', parameters: 'ls' }] });
      expect(counter.countEntry(call('c1'))).toBe(counter.countEntry(call('c2')));
      expect(tokenizer.calls).toEqual(['Bash', 'ls']);
    });

    it('should charge each cached text its bookkeeping, so a budget of short texts holds a bounded number of them', () => {
      const tokenizer = createWordTokenizer();
      // Room for three five-character texts with their bookkeeping (32 characters each), not for four.
      const counter = createTokenCounter(tokenizer, { contentCacheCharacters: 3 * (5 + 32) });
      for (const text of ['one a', 'two b', 'six c', 'ten d']) counter.countText(text);
      counter.countText('ten d');
      expect(tokenizer.calls).toHaveLength(4);
      counter.countText('one a');
      expect(tokenizer.calls).toHaveLength(5);
    });

    it('should evict the oldest texts beyond contentCacheCharacters, and keep none with 0', () => {
      const tokenizer = createWordTokenizer();
      const counter = createTokenCounter(tokenizer, { contentCacheCharacters: 2 * longText('a').length });
      for (const seed of ['a', 'b', 'c']) counter.countText(longText(seed));
      counter.countText(longText('c'));
      expect(tokenizer.calls).toHaveLength(3);
      counter.countText(longText('a'));
      expect(tokenizer.calls).toHaveLength(4);

      const uncached = createWordTokenizer();
      const off = createTokenCounter(uncached, { contentCacheCharacters: 0 });
      off.countText(longText('a'));
      off.countText(longText('a'));
      expect(uncached.calls).toHaveLength(2);
    });

    it('should not let a text longer than the whole budget evict the texts it holds', () => {
      const words = createWordTokenizer();
      const counter = createTokenCounter({ ...words, additiveAtLineStarts: true }, { contentCacheCharacters: 3 * longText('a').length });
      counter.countText(longText('a'));
      // One line, longer than the budget: counted (in one piece, it has no line start to cut at), never kept.
      const huge = 'word '.repeat(2000);
      expect(counter.countText(huge)).toBe(2000);
      counter.countText(longText('a'));
      expect(words.calls.filter((text) => text === longText('a'))).toHaveLength(1);
    });

    it('should reject a negative or non-finite contentCacheCharacters', () => {
      expect(() => createTokenCounter(createWordTokenizer(), { contentCacheCharacters: -1 })).toThrow(
        /contentCacheCharacters: Expected a whole number of characters ≥ 0, got -1/,
      );
    });
  });

  describe('line-start chunks (additiveAtLineStarts)', () => {
    const fileLines = Array.from({ length: 400 }, (_, index) => `  export const value${index} = compute(${index});`);
    const file = fileLines.join('\n');

    it('should tokenize only the changed chunks of a text that shares most lines with one counted before, and count it exactly', () => {
      const words = createWordTokenizer();
      const counter = createTokenCounter({ ...words, additiveAtLineStarts: true });
      counter.countText(file);
      const tokenizedBefore = words.calls.join('').length;
      const edited = [...fileLines];
      edited.splice(200, 5, '  [lines 200–204 as in the read above]');
      const text = edited.join('\n');
      expect(counter.countText(text)).toBe(createWordTokenizer().countTokens(text));
      const tokenizedForEdit = words.calls.join('').length - tokenizedBefore;
      expect(tokenizedForEdit).toBeGreaterThan(0);
      expect(tokenizedForEdit).toBeLessThan(text.length / 10);
    });

    it('should count long texts exactly when they come back, also after the cache evicted them', () => {
      const words = createWordTokenizer();
      const counter = createTokenCounter({ ...words, additiveAtLineStarts: true }, { contentCacheCharacters: 2 * file.length });
      const texts = ['a', 'b', 'c'].map((seed) => fileLines.map((line) => `${seed}${line}`).join('\n'));
      const expected = texts.map((text) => createWordTokenizer().countTokens(text));
      for (let round = 0; round < 3; round++) for (const [index, text] of texts.entries()) expect(counter.countText(text)).toBe(expected[index]);
      // The same string counted again right away costs no tokenizing at all.
      const calls = words.calls.length;
      counter.countText(texts[2] as string);
      expect(words.calls).toHaveLength(calls);
    });

    it('should hand a long text whole to the tokenizer when the content cache is off (no chunk would be looked up again)', () => {
      const words = createWordTokenizer();
      const counter = createTokenCounter({ ...words, additiveAtLineStarts: true }, { contentCacheCharacters: 0 });
      expect(counter.countText(file)).toBe(createWordTokenizer().countTokens(file));
      expect(words.calls).toEqual([file]);
    });

    it('should hand a long text whole to a tokenizer that does not declare additiveAtLineStarts', () => {
      const words = createWordTokenizer();
      const counter = createTokenCounter(words);
      counter.countText(file);
      expect(words.calls).toEqual([file]);
    });
  });

  it('should expose the tokenizer it counts with', () => {
    const tokenizer = createWordTokenizer();
    expect(createTokenCounter(tokenizer).tokenizer).toBe(tokenizer);
  });

  describe('block cache', () => {
    it('should not tokenize again the blocks of a parsed entry when they come back in a rebuilt entry', () => {
      const tokenizer = createWordTokenizer();
      const counter = createTokenCounter(tokenizer);
      const entry = parseHistoryEntry({
        speaker: 'ai',
        blocks: [
          { type: 'text', text: 'short note' },
          { type: 'tool_call', id: 'c1', name: 'Read', parameters: { path: 'a.ts' } },
        ],
      });
      const first = counter.countEntry(entry);
      tokenizer.calls.length = 0;
      const rebuilt = parseHistoryEntry({ speaker: 'ai', blocks: [...entry.blocks, { type: 'text', text: 'one more' }] });
      expect(counter.countEntry(rebuilt)).toBe(first + 2);
      expect(tokenizer.calls).toEqual(['one more']);
    });

    it('should count a block the caller can still change by its content every time', () => {
      const counter = createTokenCounter(createWordTokenizer());
      const block = { type: 'text' as const, text: 'two words' };
      expect(counter.countEntry({ speaker: 'human', blocks: [block] })).toBe(2 + 3);
      block.text = 'now three words';
      expect(counter.countEntry({ speaker: 'human', blocks: [block] })).toBe(3 + 3);
    });

    it('should not trust a block frozen by the caller, whose nested values may still change', () => {
      const counter = createTokenCounter(createWordTokenizer());
      const parameters = { path: 'a' };
      const block = Object.freeze({ type: 'tool_call' as const, id: 'c1', name: 'Read', parameters });
      const before = counter.countEntry({ speaker: 'ai', blocks: [block] });
      parameters.path = 'a b c d';
      expect(counter.countEntry({ speaker: 'ai', blocks: [block] })).toBe(before + 3);
    });
  });

  describe('countText', () => {
    it('should return the tokenizer count for a string', () => {
      expect(createTokenCounter(createWordTokenizer()).countText('fix the failing test')).toBe(4);
    });

    it('should count the empty string as 0 without asking the tokenizer', () => {
      const tokenizer = createWordTokenizer();
      expect(createTokenCounter(tokenizer).countText('')).toBe(0);
      expect(tokenizer.calls).toEqual([]);
    });

    it.each([-5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
      'ERR-022: should count a nonsensical tokenizer result %s as 0',
      (value) => {
        expect(createTokenCounter(createConstantTokenizer(value)).countText('some text')).toBe(0);
      },
    );
  });

  describe('countEntry', () => {
    it('should count text blocks plus the default per-entry overhead of 3', () => {
      const counter = createTokenCounter(createWordTokenizer());
      const entry: HistoryEntry = {
        speaker: 'ai',
        blocks: [
          { type: 'text', text: 'one two' },
          { type: 'text', text: 'three' },
        ],
      };
      expect(counter.countEntry(entry)).toBe(3 + 3);
    });

    it('should count an entry with no blocks as just the overhead', () => {
      expect(createTokenCounter(createWordTokenizer()).countEntry({ speaker: 'ai', blocks: [] })).toBe(3);
    });

    it('should use a configured per-entry overhead', () => {
      const counter = createTokenCounter(createWordTokenizer(), { entryOverheadTokens: 10 });
      expect(counter.countEntry(textEntry('one two'))).toBe(12);
      const noOverhead = createTokenCounter(createWordTokenizer(), { entryOverheadTokens: 0 });
      expect(noOverhead.countEntry(textEntry('one two'))).toBe(2);
    });

    it('should count thinking text', () => {
      const tokenizer = createWordTokenizer();
      const entry: HistoryEntry = {
        speaker: 'ai',
        blocks: [{ type: 'thinking', thought: 'first check the tests', signature: 'opaque-signature' }],
      };
      expect(createTokenCounter(tokenizer, { entryOverheadTokens: 0 }).countEntry(entry)).toBe(4);
      expect(tokenizer.calls).toEqual(['first check the tests']);
    });

    it('should count a tool call name and its JSON parameters, not only text (spec 002 Proposal 4)', () => {
      const tokenizer = createWordTokenizer();
      const entry: HistoryEntry = {
        speaker: 'ai',
        blocks: [{ type: 'tool_call', id: 'call-1', name: 'read_file', parameters: { path: 'src/a b.ts' } }],
      };
      // 'read_file' → 1 word; '{"path":"src/a b.ts"}' → 2 words.
      expect(createTokenCounter(tokenizer, { entryOverheadTokens: 0 }).countEntry(entry)).toBe(3);
      expect(tokenizer.calls).toEqual(['read_file', '{"path":"src/a b.ts"}']);
    });

    it('should count string tool call parameters as given (spec 002 Proposal 4)', () => {
      const tokenizer = createWordTokenizer();
      const entry: HistoryEntry = {
        speaker: 'ai',
        blocks: [{ type: 'tool_call', id: 'call-1', name: 'bash', parameters: 'ls -la src' }],
      };
      expect(createTokenCounter(tokenizer, { entryOverheadTokens: 0 }).countEntry(entry)).toBe(4);
      expect(tokenizer.calls).toEqual(['bash', 'ls -la src']);
    });

    it('should count a tool response tool name and a string result (spec 002 Proposal 4)', () => {
      const tokenizer = createWordTokenizer();
      const entry: HistoryEntry = {
        speaker: 'tool',
        blocks: [{ type: 'tool_response', callId: 'call-1', toolName: 'read_file', result: 'export const a = 1;' }],
      };
      expect(createTokenCounter(tokenizer, { entryOverheadTokens: 0 }).countEntry(entry)).toBe(1 + 5);
      expect(tokenizer.calls).toEqual(['read_file', 'export const a = 1;']);
    });

    it('should count a structured tool result as JSON (spec 002 Proposal 4)', () => {
      const tokenizer = createWordTokenizer();
      const entry: HistoryEntry = {
        speaker: 'tool',
        blocks: [
          { type: 'tool_response', callId: 'call-1', toolName: 'grep', result: [{ file: 'a.ts', line: 'x = 1' }] },
        ],
      };
      // '[{"file":"a.ts","line":"x = 1"}]' → 3 words.
      expect(createTokenCounter(tokenizer, { entryOverheadTokens: 0 }).countEntry(entry)).toBe(1 + 3);
      expect(tokenizer.calls).toEqual(['grep', '[{"file":"a.ts","line":"x = 1"}]']);
    });

    it('should count each media block as mediaTokens (default 1600) without tokenizing it', () => {
      const tokenizer = createWordTokenizer();
      const entry: HistoryEntry = {
        speaker: 'human',
        blocks: [
          { type: 'text', text: 'see screenshot' },
          { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo AAAA' },
          { type: 'media', mediaType: 'application/pdf', url: 'https://example.com/spec.pdf' },
        ],
      };
      expect(createTokenCounter(tokenizer).countEntry(entry)).toBe(3 + 2 + 2 * 1600);
      expect(createTokenCounter(tokenizer, { mediaTokens: 100 }).countEntry(entry)).toBe(3 + 2 + 2 * 100);
      expect(tokenizer.calls).toEqual(['see screenshot', 'see screenshot']);
    });

    it('should tokenize the same entry object only once', () => {
      const tokenizer = createWordTokenizer();
      const counter = createTokenCounter(tokenizer);
      const entry = textEntry('count me once');

      expect(counter.countEntry(entry)).toBe(6);
      expect(counter.countEntry(entry)).toBe(6);
      expect(counter.countEntries([entry, entry])).toBe(12);
      expect(tokenizer.calls).toEqual(['count me once']);
    });

    it('should count a replacement entry on its own, even with equal content', () => {
      // The content cache off: the entry cache alone must not take one entry for another.
      const tokenizer = createWordTokenizer();
      const counter = createTokenCounter(tokenizer, { contentCacheCharacters: 0 });
      counter.countEntry(textEntry('same words'));
      expect(counter.countEntry(textEntry('same words'))).toBe(5);
      expect(tokenizer.calls).toHaveLength(2);
    });

    it('ERR-022: should never count an entry below its overhead when the tokenizer returns nonsense', () => {
      const entry: HistoryEntry = {
        speaker: 'ai',
        blocks: [
          { type: 'text', text: 'a' },
          { type: 'tool_call', id: 'c', name: 'grep', parameters: {} },
        ],
      };
      expect(createTokenCounter(createConstantTokenizer(-5)).countEntry(entry)).toBe(3);
      expect(createTokenCounter(createConstantTokenizer(Number.NaN)).countEntry(entry)).toBe(3);
      expect(createTokenCounter(createConstantTokenizer(-5), { entryOverheadTokens: 0 }).countEntry(entry)).toBe(0);
    });
  });

  describe('countEntries', () => {
    it('should sum the entries including each entry overhead', () => {
      const counter = createTokenCounter(createWordTokenizer());
      expect(counter.countEntries([textEntry('one'), textEntry('two three')])).toBe(4 + 5);
      expect(counter.countEntries([])).toBe(0);
    });
  });

  describe('countOverhead', () => {
    it('should count system text and tool names, descriptions and JSON input schemas', () => {
      const tokenizer = createWordTokenizer();
      const counter = createTokenCounter(tokenizer);
      const total = counter.countOverhead(
        [
          { type: 'text', text: 'You are a coding agent.' },
          { type: 'text', text: 'Be brief.' },
        ],
        [
          { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', title: 'read args' } },
          { name: 'bash' },
        ],
      );
      // 5 + 2 system words; read_file: 1 + 3 + 2 ('{"type":"object","title":"read args"}'); bash: 1.
      expect(total).toBe(7 + 6 + 1);
      expect(tokenizer.calls).toContain('{"type":"object","title":"read args"}');
    });

    it('should count nothing when there are no system instructions or tools', () => {
      const counter = createTokenCounter(createWordTokenizer());
      expect(counter.countOverhead(undefined, undefined)).toBe(0);
      expect(counter.countOverhead([], [])).toBe(0);
    });

    it('ERR-022: should count nonsensical tokenizer results as 0', () => {
      const counter = createTokenCounter(createConstantTokenizer(-5));
      expect(counter.countOverhead([{ type: 'text', text: 'system' }], [{ name: 'bash' }])).toBe(0);
    });
  });
});
