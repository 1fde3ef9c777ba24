import type { FormatWarning } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { formatInputWarnings, toInputWarningsJson } from './report-input-warnings.js';

const malformed = (line: number): FormatWarning => ({ type: 'malformed', line, message: `line ${line}: not valid JSON; the line was skipped` });

describe('formatInputWarnings', () => {
  it('should list at most 20 malformed lines and say how many more --json lists', () => {
    const warnings = Array.from({ length: 23 }, (_, index) => malformed(index + 1));
    const lines = formatInputWarnings({ label: 's.jsonl', warnings });
    expect(lines[0]).toBe('⚠ s.jsonl: 23 malformed lines skipped');
    expect(lines.slice(1, 21)).toEqual(warnings.slice(0, 20).map((warning) => `  ${warning.message}`));
    expect(lines[21]).toBe('  … and 3 more (--json lists all)');
    expect(lines).toHaveLength(22);
  });

  it('should summarize the other warnings as a count per type with the first example and where it is', () => {
    const warnings: FormatWarning[] = [
      { type: 'lossy', line: 9, message: 'record r7 could not be joined to the conversation (its parent was on broken line 8)' },
      { type: 'lossy', line: 11, message: 'record r9 could not be joined' },
      { type: 'other', path: 'messages[26]', message: 'kept as text' },
    ];
    expect(formatInputWarnings({ label: 's.jsonl', warnings })).toEqual([
      '⚠ s.jsonl: 2 lossy warnings, e.g. line 9: record r7 could not be joined to the conversation (its parent was on broken line 8)',
      '⚠ s.jsonl: 1 other warning: messages[26]: kept as text',
    ]);
  });

  it('should escape control characters of the file name and the message', () => {
    const lines = formatInputWarnings({ label: 'a\u001b[2Jb.jsonl', warnings: [{ type: 'malformed', line: 2, message: 'line 2: not JSON: \u001b[31mred' }] });
    expect(lines).toEqual(['⚠ a\\x1b[2Jb.jsonl: 1 malformed line skipped', '  line 2: not JSON: \\x1b[31mred']);
  });
});

describe('toInputWarningsJson', () => {
  it('should give every warning all four keys, null where the reader gave no line or path', () => {
    expect(toInputWarningsJson([malformed(3), { type: 'other', message: 'note' }])).toEqual([
      { type: 'malformed', line: 3, message: 'line 3: not valid JSON; the line was skipped', path: null },
      { type: 'other', line: null, message: 'note', path: null },
    ]);
  });
});
