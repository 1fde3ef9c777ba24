import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-entry.js';
import { parseHistory } from '../history/parse-history.js';
import { findToolPairingProblems } from '../history/tool-pairing.js';
import { human, toolCall, toolResult } from '../test-support/entries.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { cutOversizedToolResults } from './cut-oversized-tool-results.js';
import { cutTextToTokens } from './cut-text-to-tokens.js';

const lines = (count: number, prefix = 'line') =>
  Array.from({ length: count }, (_, index) => `${prefix}${index} alpha beta gamma`).join('\n');

const counter = () => createTokenCounter(createWordTokenizer(), { contentCacheCharacters: 0 });

function textOf(entry: HistoryEntry | undefined): string {
  const block = entry?.blocks[0];
  return block?.type === 'tool_response' && typeof block.result === 'string' ? block.result : '';
}

describe('cutTextToTokens', () => {
  it('should keep the beginning and the end with a marker saying what was cut, within the limit', () => {
    const tokens = counter();
    const text = lines(1_000);
    const cut = cutTextToTokens(text, 300, tokens, 'Bash result');
    expect(cut.tokensAfter).toBeLessThanOrEqual(300);
    expect(cut.text.startsWith('line0 alpha')).toBe(true);
    expect(cut.text.endsWith('line999 alpha beta gamma')).toBe(true);
    expect(cut.text).toMatch(/\[… [\d,]+ lines \([\d,]+ tokens\) of this Bash result were cut by ctx to fit the context window/);
    // Whole lines are kept: no line is cut in half on either side of the marker.
    const [head = '', tail = ''] = cut.text.split(/\n\[…[^\n]*\]\n/);
    expect(head.split('\n').at(-1)).toMatch(/^line\d+ alpha beta gamma$/);
    expect(tail.split('\n')[0]).toMatch(/^line\d+ alpha beta gamma$/);
    expect(cut.linesOmitted).toBeGreaterThan(900);
  });

  it('should return a text that fits unchanged', () => {
    const cut = cutTextToTokens('short text', 10, counter(), 'Read result');
    expect(cut).toEqual({ text: 'short text', tokensBefore: 2, tokensAfter: 2, linesOmitted: 0 });
  });

  it('should never leave half of a surrogate pair', () => {
    const tokens = createTokenCounter({ specificationVersion: 'v1', name: 'chars', countTokens: (text) => text.length });
    const text = '😀'.repeat(5_000);
    const cut = cutTextToTokens(text, 1_001, tokens, 'Read result');
    expect(cut.tokensAfter).toBeLessThanOrEqual(1_001);
    expect(cut.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe('cutOversizedToolResults', () => {
  const history = parseHistory([
    human('fix the failing test'),
    toolCall('small', { command: 'ls' }, 'Bash'),
    toolResult('small', lines(20), 'Bash'),
    toolCall('giant', { command: 'cat build.log' }, 'Bash'),
    toolResult('giant', lines(20_000), 'Bash'),
  ]);

  it('should cut only the giant result so the history fits, tool pairs intact', () => {
    const tokens = counter();
    const result = cutOversizedToolResults(history, { tokenCounter: tokens, maxHistoryTokens: 2_000 });
    expect(result.fits).toBe(true);
    expect(result.tokensAfter).toBeLessThanOrEqual(2_000);
    expect(result.cuts).toEqual([
      expect.objectContaining({ entryIndex: 4, callId: 'giant', toolName: 'Bash', tokensBefore: 80_000 }),
    ]);
    // Everything else is passed through as the same objects.
    expect(result.history.slice(0, 4)).toEqual(history.slice(0, 4));
    for (let index = 0; index < 4; index++) expect(result.history[index]).toBe(history[index]);
    expect(textOf(result.history[4])).toMatch(/^line0 alpha[\s\S]*line19999 alpha beta gamma$/);
    expect(findToolPairingProblems(parseHistory(result.history))).toEqual([]);
    // Pure: the input is unchanged.
    expect(textOf(history[4])).toBe(lines(20_000));
  });

  it('should cut the largest results to the same size, leaving results under that size alone', () => {
    const several = parseHistory([
      toolCall('a', { command: 'a' }, 'Bash'),
      toolResult('a', lines(3_000), 'Bash'),
      toolCall('b', { command: 'b' }, 'Bash'),
      toolResult('b', lines(1_000), 'Bash'),
      toolCall('c', { command: 'c' }, 'Bash'),
      toolResult('c', lines(100), 'Bash'),
    ]);
    const tokens = counter();
    const result = cutOversizedToolResults(several, { tokenCounter: tokens, maxHistoryTokens: 4_000 });
    expect(result.fits).toBe(true);
    expect(result.cuts.map((cut) => cut.callId).sort()).toEqual(['a', 'b']);
    const [a, b] = result.cuts;
    expect(Math.abs((a?.tokensAfter ?? 0) - (b?.tokensAfter ?? 0))).toBeLessThan(100);
    expect(result.history[5]).toBe(several[5]);
  });

  it('should turn a structured result into text when it cuts it', () => {
    const structured = parseHistory([
      toolCall('s', { query: 'all' }, 'search'),
      {
        speaker: 'tool',
        blocks: [{ type: 'tool_response', callId: 's', toolName: 'search', result: { matches: lines(5_000).split('\n') } }],
      },
    ]);
    const result = cutOversizedToolResults(structured, { tokenCounter: counter(), maxHistoryTokens: 1_000 });
    expect(result.fits).toBe(true);
    expect(textOf(result.history[1]).startsWith('{"matches":["line0 alpha beta gamma"')).toBe(true);
  });

  it('should say it does not fit when what is left besides tool results is too large', () => {
    const mostlyText = parseHistory([human(lines(2_000)), toolCall('x', { command: 'x' }, 'Bash'), toolResult('x', lines(2_000), 'Bash')]);
    const result = cutOversizedToolResults(mostlyText, { tokenCounter: counter(), maxHistoryTokens: 1_000 });
    expect(result.fits).toBe(false);
    expect(result.cuts).toHaveLength(1);
    expect(result.cuts[0]?.tokensAfter).toBeLessThanOrEqual(220);
  });

  it('should cut results over maxResultTokens even when the history fits, and only those', () => {
    const tokens = counter();
    const result = cutOversizedToolResults(history, { tokenCounter: tokens, maxHistoryTokens: Number.POSITIVE_INFINITY, maxResultTokens: 5_000 });
    expect(result.fits).toBe(true);
    expect(result.cuts).toEqual([expect.objectContaining({ callId: 'giant' })]);
    expect(result.cuts[0]?.tokensAfter).toBeLessThanOrEqual(5_000);
    expect(result.cuts[0]?.tokensAfter).toBeGreaterThan(4_000);
    expect(result.history[2]).toBe(history[2]);
  });

  it('should return the history as it is when it already fits', () => {
    const result = cutOversizedToolResults(history, { tokenCounter: counter(), maxHistoryTokens: 1_000_000 });
    expect(result.history).toBe(history);
    expect(result.cuts).toEqual([]);
  });
});
