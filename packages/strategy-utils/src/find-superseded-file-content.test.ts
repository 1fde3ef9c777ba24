import { describe, expect, it } from 'vitest';
import { findSupersededFileContent } from './find-superseded-file-content.js';
import { call, calls, deepFreeze, human, result } from './test-support/entries.js';

const options = { workspaceRoot: '/repo' };
const read = (id: string, file: string, extra: Record<string, number> = {}) => [
  calls(call(id, 'Read', { file_path: file, ...extra })),
  result(id, 'Read', `     1→content of ${file} seen by ${id}`),
];
const edit = (id: string, file: string) => [
  calls(call(id, 'Edit', { file_path: file, old_string: 'a', new_string: 'b' })),
  result(id, 'Edit', 'The file has been updated.'),
];
const write = (id: string, file: string) => [
  calls(call(id, 'Write', { file_path: file, content: `new ${file}` })),
  result(id, 'Write', 'File created successfully'),
];

describe('findSupersededFileContent', () => {
  it('should list a read that a later whole read of the same file replaced, and keep the latest', () => {
    const history = deepFreeze([human(), ...read('r1', 'a.ts'), ...edit('e1', 'a.ts'), ...read('r2', 'a.ts'), ...edit('e2', 'a.ts')]);
    const superseded = findSupersededFileContent(history, options);
    expect([...superseded.results]).toEqual(['r1']);
    // e1's effect shows in r2; e2 came after the latest read and is part of the file's latest state.
    expect([...superseded.parameters]).toEqual(['e1']);
  });

  it('should keep a read that only edits followed: the read and the edits together are the latest state', () => {
    const history = deepFreeze([human(), ...read('r1', 'a.ts'), ...edit('e1', 'a.ts'), ...edit('e2', 'a.ts')]);
    const superseded = findSupersededFileContent(history, options);
    expect(superseded.results.size + superseded.parameters.size).toBe(0);
  });

  it('should list a read and a write that a later whole write replaced', () => {
    const history = deepFreeze([human(), ...read('r1', 'a.ts'), ...write('w1', 'a.ts'), ...write('w2', 'a.ts')]);
    const superseded = findSupersededFileContent(history, options);
    expect([...superseded.results]).toEqual(['r1']);
    expect([...superseded.parameters]).toEqual(['w1']);
  });

  it('should replace a ranged read only by a later read of the same range or of the whole file', () => {
    const history = deepFreeze([
      human(),
      ...read('p1', 'a.ts', { offset: 1, limit: 10 }),
      ...read('p2', 'a.ts', { offset: 50, limit: 10 }),
      ...read('p3', 'a.ts', { offset: 1, limit: 10 }),
    ]);
    expect([...findSupersededFileContent(history, options).results]).toEqual(['p1']);
    const whole = deepFreeze([...history, ...read('r4', 'a.ts')]);
    expect([...findSupersededFileContent(whole, options).results]).toEqual(['p1', 'p2', 'p3']);
  });

  it('should not let a failed write or a read of another file replace anything', () => {
    const history = deepFreeze([
      human(),
      ...read('r1', 'a.ts'),
      calls(call('w1', 'Write', { file_path: 'a.ts', content: 'x' })),
      result('w1', 'Write', '<tool_use_error>File has not been read yet</tool_use_error>', true),
      ...read('r2', 'b.ts'),
    ]);
    const superseded = findSupersededFileContent(history, options);
    expect(superseded.results.size + superseded.parameters.size).toBe(0);
  });
});
