import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readHarnessStatus } from './harness-status-lines.js';
import { propertyRuns } from '@ctx/test-properties';

// What the status lines say, read with the patterns alone (no quick check first): the definition the quick check
// must never contradict.
function readWithPatternsOnly(text: string) {
  const last = (pattern: RegExp) => [...text.matchAll(pattern)].at(-1)?.[1]?.trim();
  const openFile = last(/\(Open file: ([^)\n]*)\)/g);
  const directory = last(/\(Current directory: ([^)\n]*)\)/g);
  return {
    openFile: openFile === undefined ? undefined : openFile === 'n/a' ? null : openFile,
    directory: directory?.startsWith('/') === true ? directory : undefined,
    lines: [
      ...(openFile === undefined ? [] : [`(Open file: ${openFile})`]),
      ...(directory === undefined ? [] : [`(Current directory: ${directory})`]),
    ].join('\n'),
  };
}

describe('readHarnessStatus', () => {
  it('should read the last open file and directory lines of an observation, after any other parentheses', () => {
    const text = 'def f(a, (b)):\n    (Open)\n(Open file: /repo/a.py)\n(Current directory: /repo)\n(Open file: /repo/b.py)';
    expect(readHarnessStatus([text])).toEqual({
      openFile: '/repo/b.py',
      directory: '/repo',
      lines: '(Open file: /repo/b.py)\n(Current directory: /repo)',
    });
  });

  it('should read a directory line alone, and n/a as no open file', () => {
    expect(readHarnessStatus(['ok\n(Current directory: /w)'])).toEqual({ openFile: undefined, directory: '/w', lines: '(Current directory: /w)' });
    expect(readHarnessStatus(['(Open file: n/a)']).openFile).toBeNull();
  });

  it('should find nothing in text whose parentheses open no status line', () => {
    expect(readHarnessStatus(['(Opened files: 2) (Current dir: /x) (O) (C'])).toEqual({ openFile: undefined, directory: undefined, lines: '' });
  });

  it('should read what the patterns alone read in the joined text, for any text in any pieces', () => {
    const fragment = fc.constantFrom('(', ')', 'Open file: ', 'Current directory: ', '(O', '(C', '/a', 'n/a', ' ', '\n', 'x', '→');
    const text = fc.array(fragment, { maxLength: 16 }).map((fragments) => fragments.join(''));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), (pieces) => {
        expect(readHarnessStatus(pieces)).toEqual(readWithPatternsOnly(pieces.join('\n')));
      }),
      { numRuns: propertyRuns(3_000) },
    );
  });
});
