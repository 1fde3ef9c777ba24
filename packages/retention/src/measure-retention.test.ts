import { markGeneratedEntry, parseConversation, type HistoryEntry, type ThinkingBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { measureRetention } from './measure-retention.js';
import { ai, call, calls, edit, human, read, result } from './test-support/entries.js';

/** Frozen copies: measuring must never write to its inputs. */
const measure = (before: readonly HistoryEntry[], after: readonly HistoryEntry[], workspaceRoot?: string) =>
  measureRetention(
    parseConversation({ history: before }),
    parseConversation({ history: after }),
    workspaceRoot === undefined ? {} : { workspaceRoot },
  );

const without = (history: readonly HistoryEntry[], ...indices: readonly number[]) =>
  history.filter((_, index) => !indices.includes(index));

const fileA = 'export function parse(input) {\n  return input.trim();\n}';

describe('measureRetention', () => {
  it('should report everything kept when nothing changed', () => {
    const history = [
      human('Fix parse'),
      ...read('r1', '/repo/a.ts', fileA),
      ...edit('e1', '/repo/a.ts', 'input.trim()', 'input.trim().toLowerCase()'),
      call('b1', 'Bash', { command: 'npm test' }),
      result('b1', 'Bash', 'Exit code 1\n1 failing', true),
      { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'The test expects lowercase.', signature: 'sig' }] },
    ] satisfies HistoryEntry[];
    const { userTexts, fileStates, errors, thinking } = measure(history, history);
    for (const measured of [userTexts, fileStates, errors, thinking]) {
      expect(measured).toEqual({ kept: 1, total: 1, fraction: 1, missing: [] });
    }
  });

  it('should report a fraction of 1 when there is nothing to keep', () => {
    expect(measure([], [])).toEqual({
      userTexts: { total: 0, kept: 0, fraction: 1, missing: [] },
      fileStates: { total: 0, kept: 0, fraction: 1, missing: [] },
      errors: { total: 0, kept: 0, fraction: 1, missing: [] },
      thinking: { total: 0, kept: 0, fraction: 1, missing: [] },
    });
  });

  describe('userTexts', () => {
    const before = [human('Fix parse'), ai('Done.'), human('Now add a test'), ai('Added.')];

    it('should count a dropped user message as missing, naming its entry', () => {
      const { userTexts } = measure(before, without(before, 0, 1));
      expect(userTexts).toEqual({ total: 2, kept: 1, fraction: 0.5, missing: ['entry 0: "Fix parse"'] });
    });

    it('should count a rewritten user message as missing', () => {
      const { userTexts } = measure(before, [human('Fix parse.'), ...before.slice(1)]);
      expect(userTexts.kept).toBe(1);
    });

    it('should keep a text whose harness reminder was removed, or kept', () => {
      const withReminder = [human('Fix parse\n<system-reminder>Todo list is empty</system-reminder>')];
      expect(measure(withReminder, [human('Fix parse')]).userTexts.fraction).toBe(1);
      expect(measure(withReminder, withReminder).userTexts.fraction).toBe(1);
      // Cutting the reminder off may leave its line break behind: that is not a rewrite.
      expect(measure(withReminder, [human('Fix parse\n')]).userTexts.fraction).toBe(1);
    });

    it('should not hold harness text against the after history', () => {
      const history = [human('<command-name>/clear</command-name>'), human('Fix parse')];
      expect(measure(history, [human('Fix parse')]).userTexts).toMatchObject({ total: 1, kept: 1 });
    });

    it('should need one block per occurrence of a text typed several times', () => {
      const history = [human('continue'), ai('…'), human('continue'), ai('…')];
      expect(measure(history, history.slice(2)).userTexts).toMatchObject({ total: 2, kept: 1 });
    });

    it('should accept the text as a whole block of a generated entry, not inside a larger text', () => {
      const summary = (blocks: string[]) =>
        markGeneratedEntry({ speaker: 'human', blocks: blocks.map((text) => ({ type: 'text' as const, text })) }, 'summary');
      expect(measure(before.slice(0, 2), [summary(['Earlier the user wrote:', 'Fix parse'])]).userTexts.kept).toBe(1);
      expect(measure(before.slice(0, 2), [summary(['Earlier the user wrote: Fix parse'])]).userTexts.kept).toBe(0);
    });

    it('should describe at most 20 missing texts', () => {
      const many = Array.from({ length: 25 }, (_, index) => human(`request ${index}`));
      const { userTexts } = measure(many, []);
      expect(userTexts).toMatchObject({ total: 25, kept: 0, fraction: 0 });
      expect(userTexts.missing).toHaveLength(20);
      expect(userTexts.missing[19]).toBe('entry 19: "request 19"');
    });
  });

  describe('fileStates', () => {
    const readA = read('r1', '/repo/a.ts', fileA);
    const editA = edit('e1', '/repo/a.ts', 'input.trim()', 'input.trim().toLowerCase()');
    const before = [human('Fix parse'), ...readA, ...editA, ai('Done.')];

    it('should keep a file whose last read and later edits are all present', () => {
      expect(measure(before, before.slice(1)).fileStates).toMatchObject({ total: 1, kept: 1 });
    });

    it('should lose a file whose last full read is gone', () => {
      const { fileStates } = measure(before, [before[0]!, ...editA, before[5]!]);
      expect(fileStates).toEqual({ total: 1, kept: 0, fraction: 0, missing: ['/repo/a.ts: read at entry 2 is gone'] });
    });

    it('should lose a file whose later edit is gone, even with its read kept', () => {
      const { fileStates } = measure(before, [before[0]!, ...readA, before[5]!]);
      expect(fileStates.missing).toEqual(['/repo/a.ts: Edit edit at entry 3 is gone']);
    });

    it('should lose a file whose read result was truncated', () => {
      const truncated = result('r1', 'Read', '     1→export function parse(input) {\n[… 2 lines truncated]');
      expect(measure(before, [before[0]!, readA[0]!, truncated, ...editA]).fileStates.kept).toBe(0);
    });

    it('should keep a read whose text a strategy folded into a larger text', () => {
      const text = (readA[1]!.blocks[0] as { result: string }).result;
      const folded = markGeneratedEntry(human(`[Files read so far]\n/repo/a.ts:\n${text}\n[end]`), 'file-digest');
      expect(measure(before, [folded, ...editA]).fileStates.kept).toBe(1);
    });

    it('should keep an edit call given with the same parameters in another key order', () => {
      const reordered = call('e1', 'Edit', { new_string: 'input.trim().toLowerCase()', old_string: 'input.trim()', file_path: '/repo/a.ts' });
      expect(measure(before, [...readA, reordered, editA[1]!]).fileStates.kept).toBe(1);
    });

    it('should keep a file whose reconstructed content is present, with or without line numbers', () => {
      const current = fileA.replace('input.trim()', 'input.trim().toLowerCase()');
      const plain = markGeneratedEntry(human(`Current /repo/a.ts:\n${current}`), 'fold-edits');
      expect(measure(before, [before[0]!, plain]).fileStates.kept).toBe(1);
      // The stale content alone is not the latest state.
      const stale = markGeneratedEntry(human(`Current /repo/a.ts:\n${fileA}`), 'fold-edits');
      expect(measure(before, [before[0]!, stale]).fileStates.kept).toBe(0);
    });

    it('should apply multi-line and MultiEdit replacements when reconstructing', () => {
      const multiEdit = call('m1', 'MultiEdit', {
        file_path: '/repo/a.ts',
        edits: [
          { old_string: 'parse(input) {\n  return', new_string: 'parse(input: string) {\n  return' },
          { old_string: 'trim()', new_string: 'trim() ', replace_all: true },
        ],
      });
      const history = [...readA, multiEdit, result('m1', 'MultiEdit', 'Applied 2 edits')];
      const current = 'export function parse(input: string) {\n  return input.trim() ;\n}';
      expect(measure(history, [human(current)]).fileStates.kept).toBe(1);
    });

    it('should not reconstruct through an edit that is not a text replacement', () => {
      const history = [...readA, call('s1', 'Bash', { command: "sed -i 's/trim/strip/' /repo/a.ts" }), result('s1', 'Bash', '')];
      expect(measure(history, [human(fileA.replace('trim', 'strip'))]).fileStates.kept).toBe(0);
      expect(measure(history, history).fileStates.kept).toBe(1);
    });

    it('should take a whole-file write as the full evidence, and its content as a way to keep it', () => {
      const write = call('w1', 'Write', { file_path: '/repo/a.ts', content: 'export const parse = (input) => input;' });
      const history = [...readA, write, result('w1', 'Write', 'File created successfully')];
      // The old read is superseded by the write: dropping it loses nothing.
      expect(measure(history, history.slice(2)).fileStates).toMatchObject({ total: 1, kept: 1 });
      expect(measure(history, history.slice(0, 2)).fileStates.kept).toBe(0);
      expect(measure(history, [human('export const parse = (input) => input;')]).fileStates.kept).toBe(1);
    });

    it('should ignore edits the tool refused, and count shell edits that failed', () => {
      const refused = [
        call('e2', 'Edit', { file_path: '/repo/a.ts', old_string: 'missing', new_string: 'x' }),
        result('e2', 'Edit', '<tool_use_error>String to replace not found in file.</tool_use_error>', true),
      ];
      const history = [...readA, ...refused];
      expect(measure(history, readA).fileStates.kept).toBe(1);
      const shell = [call('s1', 'Bash', { command: 'sed -i s/a/b/ /repo/a.ts && make' }), result('s1', 'Bash', 'Exit code 2\nmake: *** failed', true)];
      expect(measure([...readA, ...shell], readA).fileStates.kept).toBe(0);
    });

    it('should need partial reads after the last full read only once a change made the content unknown', () => {
      const ranged = (id: string, content: string) => [
        call(id, 'Read', { file_path: '/repo/a.ts', offset: 2, limit: 2 }),
        result(id, 'Read', content),
      ];
      // Read, then an applicable edit, then a re-read of two lines: the read and the edit already say it all.
      const known = [...readA, ...editA, ...ranged('p1', 'lines 2-3 after the edit')];
      expect(measure(known, [...readA, ...editA]).fileStates.kept).toBe(1);
      // After a shell edit the content is unknown: only the partial reads made after it show the changed lines,
      // and only the latest read of each range is needed.
      const sed = [call('s1', 'Bash', { command: "sed -i 's/trim/strip/' /repo/a.ts" }), result('s1', 'Bash', '')];
      const unknown = [...readA, ...sed, ...ranged('p1', 'stale view'), ...ranged('p2', 'fresh view')];
      expect(measure(unknown, [...readA, ...sed, ...ranged('p2', 'fresh view')]).fileStates.kept).toBe(1);
      expect(measure(unknown, [...readA, ...sed, ...ranged('p1', 'stale view')]).fileStates.missing).toEqual([
        '/repo/a.ts: partial read at entry 7 is gone',
      ]);
    });

    it('should count a file only read in part by its latest read of each range', () => {
      const ranged = (id: string, offset: number, content: string) => [
        call(id, 'Read', { file_path: '/repo/big.ts', offset, limit: 100 }),
        result(id, 'Read', content),
      ];
      const history = [...ranged('p1', 1, 'lines 1-100 v1'), ...ranged('p2', 101, 'lines 101-200'), ...ranged('p3', 1, 'lines 1-100 v2')];
      expect(measure(history, history.slice(2)).fileStates).toMatchObject({ total: 1, kept: 1 });
      expect(measure(history, history.slice(0, 4)).fileStates.missing).toEqual(['/repo/big.ts: partial read at entry 5 is gone']);
    });

    it('should count only files that were read successfully', () => {
      const history = [
        call('w1', 'Write', { file_path: '/repo/new.ts', content: 'x' }),
        result('w1', 'Write', 'File created successfully'),
        call('r9', 'Read', { file_path: '/repo/missing.ts' }),
        result('r9', 'Read', '<tool_use_error>File does not exist.</tool_use_error>', true),
      ];
      expect(measure(history, []).fileStates.total).toBe(0);
    });

    it('should treat a relative and an absolute path under workspaceRoot as one file', () => {
      const history = [
        ...read('r1', 'src/a.ts', fileA),
        ...edit('e1', '/repo/src/a.ts', 'input.trim()', 'input'),
      ];
      expect(measure(history, history, '/repo').fileStates.total).toBe(1);
      expect(measure(history, history, '/elsewhere').fileStates.total).toBe(1);
      expect(measure(history, history.slice(2), '/repo').fileStates.kept).toBe(0);
    });

    it('should take the workspace root from Claude Code metadata by default', () => {
      const history = [
        { ...human('Fix it'), metadata: { providerMetadata: { claudeCode: { cwd: '/repo' } } } },
        ...read('r1', 'src/a.ts', fileA),
        ...edit('e1', '/repo/src/a.ts', 'input.trim()', 'input'),
      ];
      const { fileStates } = measure(history, history.slice(0, 3));
      expect(fileStates.missing).toEqual(['/repo/src/a.ts: Edit edit at entry 3 is gone']);
    });
  });

  describe('errors', () => {
    const failure = 'Exit code 1\nFAIL src/parse.test.ts\n  expected "abc" to be "ABC"';
    const before = [
      human('Run the tests'),
      call('b1', 'Bash', { command: 'npm test' }),
      result('b1', 'Bash', failure, true),
      call('b2', 'Bash', { command: 'git status' }),
      result('b2', 'Bash', 'nothing to commit'),
    ];

    it('should count only error results, and keep one present with the same call id and result', () => {
      expect(measure(before, before.slice(1, 3)).errors).toEqual({ total: 1, kept: 1, fraction: 1, missing: [] });
    });

    it('should count a dropped error as missing', () => {
      expect(measure(before, [before[0]!, ...before.slice(3)]).errors.missing).toEqual([
        'entry 2: Bash error (call b1) "Exit code 1 FAIL src/parse.test.ts expected \\"abc\\" to be \\"ABC…"',
      ]);
    });

    it('should count a shortened error as missing', () => {
      const shortened = [before[1]!, result('b1', 'Bash', 'Exit code 1 [output elided]', true)];
      expect(measure(before, shortened).errors.kept).toBe(0);
    });

    it('should find errors by their markers even without the error flag', () => {
      const history = [call('r1', 'Read', { file_path: '/x' }), result('r1', 'Read', '<tool_use_error>File does not exist.</tool_use_error>')];
      expect(measure(history, []).errors.total).toBe(1);
    });
  });

  describe('thinking', () => {
    const thinking: ThinkingBlock = { type: 'thinking', thought: 'The parser must trim first.', signature: 'EqMBCkgIARAB' };
    const before = [human('Why?'), calls(thinking, { type: 'text', text: 'Because.' })];

    it('should allow dropping thinking whole', () => {
      expect(measure(before, [human('Why?'), ai('Because.')]).thinking).toEqual({ total: 0, kept: 0, fraction: 1, missing: [] });
    });

    it('should count a modified thought or signature as missing', () => {
      const changed = (block: ThinkingBlock) => [human('Why?'), calls(block, { type: 'text', text: 'Because.' })];
      expect(measure(before, changed({ ...thinking, thought: 'The parser must trim.' })).thinking).toMatchObject({ total: 1, kept: 0 });
      expect(measure(before, changed({ ...thinking, signature: 'other' })).thinking.missing).toEqual([
        'entry 1 (of after): thinking changed or not in before "The parser must trim first."',
      ]);
    });
  });
});
