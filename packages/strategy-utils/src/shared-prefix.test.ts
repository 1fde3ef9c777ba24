import { HistoryService, type Tokenizer } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countSharedPrefix } from './shared-prefix.js';
import { answer, human } from './test-support/entries.js';
import { propertyRuns } from '@ctx/test-properties';

const first = human('a');
const second = answer('b');
const third = human('c');
const fourth = answer('d');

describe('countSharedPrefix', () => {
  it('should count the leading positions holding the same objects, frozen arrays or not', () => {
    expect(countSharedPrefix([first, second, third], [first, second, fourth])).toBe(2);
    expect(countSharedPrefix(Object.freeze([first, second, third]), Object.freeze([first, second, third, fourth]))).toBe(3);
    expect(countSharedPrefix(Object.freeze([first, second]), [first, second])).toBe(2);
  });

  it('should compare objects, not their content, and stop at the limit', () => {
    expect(countSharedPrefix([first, { ...second }], [first, second])).toBe(1);
    expect(countSharedPrefix([first, second, third], [first, second, third], 2)).toBe(2);
    expect(countSharedPrefix([], [first])).toBe(0);
  });

  it('should count exactly on two snapshots of one history service, an entry replaced and put back included', async () => {
    const characters: Tokenizer = { specificationVersion: 'v1', name: 'characters', countTokens: (text) => text.length };
    const history = new HistoryService({ tokenizer: characters, history: [first, second, third] });
    const seen = history.getRawHistory();
    history.add(fourth);
    expect(countSharedPrefix(history.getRawHistory(), seen)).toBe(3);
    await history.applyDensityResult({ removals: [], replacements: new Map([[1, human('b, shorter')]]), metadata: {} }, { basis: history.getRawHistory() });
    expect(countSharedPrefix(history.getRawHistory(), seen)).toBe(1);
    // The service records entry 1 as changed; the entries are the same objects again, which a comparison finds.
    await history.replaceHistory(seen);
    expect(countSharedPrefix(history.getRawHistory(), seen)).toBe(3);
    expect(countSharedPrefix(history.getRawHistory(), seen, 2)).toBe(2);
  });

  it('should count what a comparison one entry at a time counts, at any length and where the first difference falls', () => {
    const pool = [first, second, third, fourth];
    const entries = fc.array(fc.constantFrom(...pool), { maxLength: 40 });
    fc.assert(
      fc.property(entries, fc.nat(40), entries, fc.boolean(), fc.boolean(), fc.option(fc.nat(45), { nil: undefined }), (history, cut, tail, freezeHistory, freezeKnown, limit) => {
        // What was seen: a prefix of this history (often long), then anything.
        const known = [...history.slice(0, cut), ...tail];
        let expected = 0;
        while (expected < Math.min(history.length, known.length, limit ?? Infinity) && history[expected] === known[expected]) expected++;
        const given = freezeHistory ? Object.freeze([...history]) : history;
        const seen = freezeKnown ? Object.freeze([...known]) : known;
        expect(countSharedPrefix(given, seen, limit)).toBe(expected);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
