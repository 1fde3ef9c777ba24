import type { HistoryEntry, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { FOLDED_EDIT_MARKER, foldFileStates } from './fold-file-states.js';
import { call, calls, deepFreeze, human, result } from './test-support/entries.js';
import { toolResultText } from './tool-result-text.js';

const options = { workspaceRoot: '/repo', strategyName: 'test' };
const numbered = (lines: readonly string[]) => lines.map((line, index) => `${String(index + 1).padStart(6)}→${line}`).join('\n');
// Long enough that the line numbers a fold removes outweigh its one-line header.
const source = [
  'export function add(a, b) {',
  '  return a - b;',
  '}',
  '',
  'export const name = "calc";',
  ...Array.from({ length: 30 }, (_, index) => `export const constant${index} = ${index};`),
];
const read = (id: string, file = 'calc.ts', text = numbered(source)) => [calls(call(id, 'Read', { file_path: file })), result(id, 'Read', text)];
const edit = (id: string, oldString: string, newString: string, file = 'calc.ts') => [
  calls(call(id, 'Edit', { file_path: file, old_string: oldString, new_string: newString })),
  result(id, 'Edit', `The file ${file} has been updated.`),
];

function resultText(history: readonly HistoryEntry[], callId: string): string {
  for (const entry of history) for (const block of entry.blocks) if (block.type === 'tool_response' && block.callId === callId) return toolResultText(block.result);
  throw new Error(`no result for ${callId}`);
}
function callOf(history: readonly HistoryEntry[], id: string): ToolCallBlock {
  for (const entry of history) for (const block of entry.blocks) if (block.type === 'tool_call' && block.id === id) return block;
  throw new Error(`no call ${id}`);
}

describe('foldFileStates', () => {
  it('should rewrite the latest read into the content with the later edits applied, and empty those edits', () => {
    const history = deepFreeze([human('fix add'), ...read('r1'), ...edit('e1', 'return a - b;', 'return a + b; // the sum, as the name says'), ...edit('e2', '"calc"', '"calculator"')]);
    const folded = foldFileStates(history, options);
    expect(folded.foldedReads).toBe(1);
    expect(folded.foldedEdits).toBe(2);
    const text = resultText(folded.history, 'r1');
    expect(text).toMatch(/^\[Reconstructed by ctx: \/repo\/calc\.ts with the edits made later/);
    expect(text.slice(text.indexOf('\n') + 1)).toBe(
      source.join('\n').replace('return a - b;', 'return a + b; // the sum, as the name says').replace('"calc"', '"calculator"'),
    );
    expect(callOf(folded.history, 'e1').parameters).toEqual({ file_path: 'calc.ts', old_string: FOLDED_EDIT_MARKER, new_string: '' });
    // A replacement shorter than the marker keeps its strings (half of it emptied would read as another edit).
    expect(callOf(folded.history, 'e2').parameters).toEqual({ file_path: 'calc.ts', old_string: '"calc"', new_string: '"calculator"' });
    // The edit's result and the pairing stay.
    expect(resultText(folded.history, 'e1')).toBe('The file calc.ts has been updated.');
  });

  it('should remove line numbers from a latest read that no edit followed', () => {
    const history = deepFreeze([human(), ...read('r1')]);
    const text = resultText(foldFileStates(history, options).history, 'r1');
    expect(text.split('\n').slice(1).join('\n')).toBe(source.join('\n'));
  });

  it('should change nothing on its own output, and fold only new edits later', () => {
    const first = foldFileStates(deepFreeze([human(), ...read('r1'), ...edit('e1', 'return a - b;', 'return a + b;')]), options);
    expect(foldFileStates(first.history, options)).toMatchObject({ history: first.history, foldedReads: 0 });
    const more = foldFileStates(deepFreeze([...first.history, ...edit('e2', 'return a + b;', 'return b + a;')]), options);
    expect(more.foldedEdits).toBe(1);
    expect(resultText(more.history, 'r1')).toContain('  return b + a;');
    const block = more.history[2]?.blocks[0] as ToolResponseBlock;
    expect(block.providerMetadata?.['ctx']).toMatchObject({ fileState: { through: 'e2' } });
  });

  it('should not rewrite a read when the fold would not save characters', () => {
    const tiny = deepFreeze([human(), ...read('r1', 'calc.ts', numbered(['x']))]);
    expect(foldFileStates(tiny, options).history).toBe(tiny);
  });

  it('should leave the read alone when an edit after it does not apply or is a shell edit', () => {
    const missing = deepFreeze([human(), ...read('r1'), ...edit('e1', 'a * b', 'a + b')]);
    expect(foldFileStates(missing, options).history).toBe(missing);
    const shell = deepFreeze([
      human(),
      ...read('r1'),
      calls(call('s1', 'Bash', { command: "sed -i 's/a - b/a + b/' calc.ts" })),
      result('s1', 'Bash', ''),
    ]);
    expect(foldFileStates(shell, options).history).toBe(shell);
  });

  it('should leave a read that a whole-file write followed, and a partial read', () => {
    const written = deepFreeze([human(), ...read('r1'), calls(call('w1', 'Write', { file_path: 'calc.ts', content: 'x' })), result('w1', 'Write', 'ok')]);
    expect(foldFileStates(written, options).history).toBe(written);
    const partial = deepFreeze([human(), calls(call('p1', 'Read', { file_path: 'calc.ts', offset: 2, limit: 1 })), result('p1', 'Read', numbered(['x']))]);
    expect(foldFileStates(partial, options).history).toBe(partial);
  });

  it('should fold MultiEdit replacements in order', () => {
    const history = deepFreeze([
      human(),
      ...read('r1'),
      calls(call('m1', 'MultiEdit', { file_path: 'calc.ts', edits: [{ old_string: 'return a - b;', new_string: 'return a + b; // not a difference' }, { old_string: 'add', new_string: 'sum' }] })),
      result('m1', 'MultiEdit', 'Applied 2 edits'),
    ]);
    const folded = foldFileStates(history, options);
    expect(resultText(folded.history, 'r1')).toContain('export function sum(a, b) {\n  return a + b; // not a difference');
    expect(callOf(folded.history, 'm1').parameters).toEqual({
      file_path: 'calc.ts',
      edits: [
        { old_string: FOLDED_EDIT_MARKER, new_string: '' },
        { old_string: 'add', new_string: 'sum' },
      ],
    });
  });
});

describe('foldFileStates on writes', () => {
  const written = source.join('\n');
  it('should apply the edits after a whole-file write to its content, and empty those edits', () => {
    const history = deepFreeze([
      human(),
      calls(call('w1', 'Write', { file_path: 'calc.ts', content: written })),
      result('w1', 'Write', 'File created successfully at: calc.ts'),
      ...edit('e1', 'export function add(a, b) {\n  return a - b;\n}', 'export function add(a, b) {\n  return a + b;\n}'),
    ]);
    const folded = foldFileStates(history, options);
    expect(folded.foldedReads).toBe(1);
    expect(callOf(folded.history, 'w1').parameters).toEqual({ file_path: 'calc.ts', content: written.replace('return a - b;', 'return a + b;') });
    expect(callOf(folded.history, 'e1').parameters).toMatchObject({ old_string: FOLDED_EDIT_MARKER, new_string: '' });
    expect(foldFileStates(folded.history, options).history).toBe(folded.history);
  });
});
