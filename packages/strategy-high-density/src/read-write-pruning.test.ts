import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import {
  aiText,
  bash,
  callIds,
  edit,
  exchange,
  history,
  human,
  optimize,
  optimizeAndApply,
  read,
  responsesById,
  turn,
  write,
} from './test-support/history-fixtures.js';

describe('ReadWritePruning (optimize, spec 000 §3a)', () => {
  it('BR-PRUNE-001: should drop a read when a later write touches the same file', () => {
    const entries = history(human('fix a'), turn(read('r1', '/repo/a.ts')), turn(write('w1', '/repo/a.ts')));
    const result = optimize(entries);
    expect(result.removals).toEqual([1, 2]);
    expect(result.metadata.readWritePairsPruned).toBe(1);
    expect(callIds(optimizeAndApply(entries))).toEqual(['w1']);
  });

  it('BR-PRUNE-002: should remove the tool call and its tool response together, matched by callId', () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts'), bash('b1', 'ls')),
      turn(edit('e1', '/repo/a.ts')),
    );
    const next = optimizeAndApply(entries);
    expect(callIds(next)).toEqual(['b1', 'e1']);
    expect([...responsesById(next).keys()]).toEqual(['b1', 'e1']);
  });

  it('BR-PRUNE-002: should remove every response of a stale read, one recorded twice included', () => {
    const stale = read('r1', '/repo/a.ts');
    // A recorded transcript can answer a call twice; the one call of its turn takes both answers with it.
    const [call, answer] = turn(stale) as [HistoryEntry, HistoryEntry];
    const entries = history(human('go'), call, answer, { speaker: 'tool', blocks: [stale.response] }, turn(write('w1', '/repo/a.ts')));
    const next = optimizeAndApply(entries);
    expect(callIds(next)).toEqual(['w1']);
    expect([...responsesById(next).keys()]).toEqual(['w1']);
  });

  it('BR-PRUNE-003: should keep a read that comes after the latest write of the file', () => {
    const entries = history(human('go'), turn(write('w1', '/repo/a.ts')), turn(read('r1', '/repo/a.ts')));
    const result = optimize(entries);
    expect(result.removals).toEqual([]);
    expect(result.replacements.size).toBe(0);
  });

  it('BR-PRUNE-004: should edit an assistant entry with stale and live calls through a replacement, not a removal', () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts'), read('r2', '/repo/b.ts')),
      turn(edit('e1', '/repo/a.ts')),
    );
    const result = optimize(entries);
    expect(result.removals).toEqual([]);
    expect([...result.replacements.keys()]).toEqual([1, 2]);
    expect(result.replacements.get(1)?.blocks.map((block) => (block.type === 'tool_call' ? block.id : block.type))).toEqual([
      'r2',
    ]);
  });

  it('BR-PRUNE-005: should normalize paths without folding case', () => {
    const sameFile = history(human('go'), turn(read('r1', '/repo/src/../a.ts')), turn(write('w1', '/repo/./a.ts')));
    expect(optimize(sameFile).metadata.readWritePairsPruned).toBe(1);
    const otherCase = history(human('go'), turn(read('r1', '/repo/A.ts')), turn(write('w1', '/repo/a.ts')));
    expect(optimize(otherCase).metadata.readWritePairsPruned).toBe(0);
  });

  it('BR-PRUNE-006: should resolve relative paths against DensityConfig.workspaceRoot', () => {
    const entries = history(human('go'), turn(read('r1', 'src/a.ts')), turn(write('w1', '/work/src/a.ts')));
    expect(optimize(entries, { workspaceRoot: '/work' }).metadata.readWritePairsPruned).toBe(1);
    expect(optimize(entries, { workspaceRoot: '/elsewhere' }).metadata.readWritePairsPruned).toBe(0);
  });

  it('should do nothing when readWritePruning is off', () => {
    const entries = history(human('go'), turn(read('r1', '/repo/a.ts')), turn(write('w1', '/repo/a.ts')));
    const result = optimize(entries, { readWritePruning: false });
    expect(result.removals).toEqual([]);
    expect(result.replacements.size).toBe(0);
  });

  it('EC-010: should keep a read with no later write', () => {
    const entries = history(human('go'), turn(read('r1', '/repo/a.ts')), turn(write('w1', '/repo/b.ts')));
    expect(callIds(optimizeAndApply(entries))).toEqual(['r1', 'w1']);
  });

  it('EC-011: should drop every read of the file before the write', () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts')),
      turn(read('r2', '/repo/a.ts')),
      turn(edit('e1', '/repo/a.ts')),
    );
    const result = optimize(entries);
    expect(result.metadata.readWritePairsPruned).toBe(2);
    expect(callIds(optimizeAndApply(entries))).toEqual(['e1']);
  });

  it('EC-012: should drop a read between two writes and keep the read after the second write', () => {
    const entries = history(
      human('go'),
      turn(write('w1', '/repo/a.ts')),
      turn(read('r1', '/repo/a.ts')),
      turn(write('w2', '/repo/a.ts')),
      turn(read('r2', '/repo/a.ts')),
    );
    expect(callIds(optimizeAndApply(entries))).toEqual(['w1', 'w2', 'r2']);
  });

  it('EC-013: should keep two of three calls and only the stale response when one call is a stale read', () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts'), bash('b1', 'npm test'), read('r2', '/repo/b.ts')),
      turn(edit('e1', '/repo/a.ts')),
    );
    const result = optimize(entries);
    const aiEntry = result.replacements.get(1);
    const toolEntry = result.replacements.get(2);
    expect(aiEntry?.blocks.filter((block) => block.type === 'tool_call')).toHaveLength(2);
    expect(toolEntry?.blocks.map((block) => (block.type === 'tool_response' ? block.callId : ''))).toEqual(['b1', 'r2']);
  });

  it('EC-014: should keep a read_many_files call that has a glob or a concrete path with no later write', () => {
    const withGlob = history(
      human('go'),
      turn(exchange('m1', 'read_many_files', { paths: ['/repo/a.ts', '/repo/src/*.ts'] }, 'many files')),
      turn(exchange('w1', 'write_file', { file_path: '/repo/a.ts', content: 'x' }, 'ok')),
    );
    expect(optimize(withGlob).metadata.readWritePairsPruned).toBe(0);
    const partlyWritten = history(
      human('go'),
      turn(exchange('m1', 'read_many_files', { paths: ['/repo/a.ts', '/repo/b.ts'] }, 'many files')),
      turn(exchange('w1', 'write_file', { file_path: '/repo/a.ts', content: 'x' }, 'ok')),
    );
    expect(optimize(partlyWritten).metadata.readWritePairsPruned).toBe(0);
  });

  it('EC-015: should drop a read_many_files call when every concrete path was written and it has no glob', () => {
    const entries = history(
      human('go'),
      turn(exchange('m1', 'read_many_files', { paths: ['/repo/a.ts', '/repo/b.ts'] }, 'many files')),
      turn(exchange('w1', 'write_file', { file_path: '/repo/a.ts', content: 'x' }, 'ok')),
      turn(
        exchange('w2', 'replace', { file_path: '/repo/b.ts', old_string: 'a', new_string: 'b' }, 'Successfully modified'),
      ),
    );
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(1);
    expect(callIds(optimizeAndApply(entries))).toEqual(['w1', 'w2']);
  });

  it('EC-016: should skip a call with unrecognizable parameters without throwing', () => {
    const entries = history(
      human('go'),
      turn(exchange('r1', 'Read', { something: 1 }, 'text'), exchange('r2', 'Read', [1, 2], 'text')),
      turn(write('w1', '/repo/a.ts')),
    );
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(0);
  });

  it('EC-050: should skip a call whose parameters are null', () => {
    const entries = history(human('go'), turn(exchange('r1', 'Read', null, 'text')), turn(write('w1', '/repo/a.ts')));
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(0);
  });

  it('EC-051: should skip a call whose parameters are a string', () => {
    const entries = history(
      human('go'),
      turn(exchange('r1', 'Read', '/repo/a.ts', 'text')),
      turn(write('w1', '/repo/a.ts')),
    );
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(0);
  });

  it('EC-052: should not match a read whose path is empty against a write', () => {
    const entries = history(human('go'), turn(read('r1', '')), turn(write('w1', '/repo/a.ts')));
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(0);
  });

  it('EC-053: should remove an entry left with no blocks instead of replacing it with an empty one', () => {
    const entries = history(
      human('go'),
      aiText('Let me look.'),
      turn(read('r1', '/repo/a.ts')),
      turn(edit('e1', '/repo/a.ts')),
    );
    const result = optimize(entries);
    // Entry 1 is the assistant's text (kept); 2 and 3 are the read's call and result: both emptied, so removed.
    expect(result.removals).toEqual([2, 3]);
    expect(result.replacements.size).toBe(0);
  });

  it('should keep a read when the later edit failed (the file did not change)', () => {
    const failed = exchange(
      'e1',
      'Edit',
      { file_path: '/repo/a.ts', old_string: 'x', new_string: 'y' },
      '<tool_use_error>String to replace not found in file.</tool_use_error>',
      { isError: true },
    );
    const entries = history(human('go'), turn(read('r1', '/repo/a.ts')), turn(failed));
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(0);
  });

  it('should keep a failed read (its result shows no content)', () => {
    const failedRead = exchange('r1', 'Read', { file_path: '/repo/a.ts' }, 'File does not exist.', { isError: true });
    const entries = history(human('go'), turn(failedRead), turn(write('w1', '/repo/a.ts')));
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(0);
  });

  it('should drop a read of a line range when a later write touches that file', () => {
    const ranged = exchange('r1', 'Read', { file_path: '/repo/a.ts', offset: 10, limit: 5 }, 'five lines');
    const entries = history(human('go'), turn(ranged), turn(edit('e1', '/repo/a.ts')));
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(1);
  });

  it('should treat `sed -n` then `sed -i` on the same file as a read→write pair', () => {
    const entries = history(
      human('go'),
      turn(bash('b1', "sed -n '1,40p' /repo/src/app.py", 'line\n'.repeat(40))),
      turn(bash('b2', "sed -i 's/foo/bar/' /repo/src/app.py", '')),
    );
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(1);
    expect(callIds(optimizeAndApply(entries))).toEqual(['b2']);
  });

  it('should prune gemini-cli read_file made stale by write_file', () => {
    const entries = history(
      human('go'),
      turn(exchange('g1', 'read_file', { absolute_path: '/repo/a.ts' }, 'content')),
      turn(exchange('g2', 'write_file', { file_path: '/repo/a.ts', content: 'x' }, 'ok')),
    );
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(1);
  });

  it('should prune an OpenHands str_replace_editor view made stale by a str_replace of the file', () => {
    const entries = history(
      human('go'),
      turn(exchange('o1', 'str_replace_editor', { command: 'view', path: '/repo/a.py' }, 'content')),
      turn(
        exchange(
          'o2',
          'str_replace_editor',
          { command: 'str_replace', path: '/repo/a.py', old_str: 'a', new_str: 'b' },
          'The file /repo/a.py has been edited.',
        ),
      ),
    );
    expect(optimize(entries).metadata.readWritePairsPruned).toBe(1);
  });

  it('should leave the trailing turn alone when it has no results yet, and still prune before it', () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts')),
      turn(edit('e1', '/repo/a.ts')),
      { speaker: 'ai', blocks: [read('r2', '/repo/b.ts').call] },
    );
    expect(callIds(optimizeAndApply(entries))).toEqual(['e1', 'r2']);
  });
});

describe('foldEdits (optimize)', () => {
  // Thirty more lines, so the line numbers a fold drops outweigh its header line.
  const filler = Array.from({ length: 30 }, (_, index) => `// line ${index}`);
  const numbered = (lines: readonly string[]) =>
    [...lines, ...filler].map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n');

  it('should rewrite a read made stale by edits into the file content after them, marked as reconstructed', () => {
    const content = numbered(['let value = old;', 'done();']);
    const entries = history(human('go'), turn(read('r1', '/repo/a.ts', content)), turn(edit('e1', '/repo/a.ts')));
    const result = optimize(entries, {}, { foldEdits: true });
    expect(result.removals).toEqual([]);
    expect(result.metadata.readWritePairsPruned).toBe(0);
    expect(result.metadata.readsFolded).toBe(1);
    const next = optimizeAndApply(entries, {}, { foldEdits: true });
    expect(callIds(next)).toEqual(['r1', 'e1']);
    const folded = responsesById(next).get('r1');
    expect(folded?.result).toBe(
      `[Reconstructed by ctx: /repo/a.ts with the edits made later in this conversation applied; not the tool's original output]\n${['let value = new;', 'done();', ...filler].join('\n')}`,
    );
    expect(folded?.providerMetadata?.ctx?.reconstructedBy).toBe('high-density');
  });

  it('should keep one copy: earlier reads of the file are dropped, the latest is folded', () => {
    const content = numbered(['old']);
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts', content)),
      turn(read('r2', '/repo/a.ts', content)),
      turn(edit('e1', '/repo/a.ts')),
    );
    const next = optimizeAndApply(entries, {}, { foldEdits: true });
    expect(callIds(next)).toEqual(['r2', 'e1']);
  });

  it('should fall back to spec 000 removal when an edit does not apply cleanly', () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts', numbered(['nothing to replace']))),
      turn(edit('e1', '/repo/a.ts', 'missing', 'new')),
    );
    const result = optimize(entries, {}, { foldEdits: true });
    expect(result.metadata.readWritePairsPruned).toBe(1);
    expect(callIds(optimizeAndApply(entries, {}, { foldEdits: true }))).toEqual(['e1']);
  });

  it('should fall back to removal when the folded content would be longer than the read (never add tokens)', () => {
    const entries = history(
      human('go'),
      turn(read('r1', '/repo/a.ts', numbered(['old']))),
      turn(edit('e1', '/repo/a.ts', 'old', 'a much longer replacement\n'.repeat(40))),
    );
    expect(callIds(optimizeAndApply(entries, {}, { foldEdits: true }))).toEqual(['e1']);
  });

  it('should fall back to removal when a whole-file write replaced the content', () => {
    const entries = history(human('go'), turn(read('r1', '/repo/a.ts', numbered(['old']))), turn(write('w1', '/repo/a.ts')));
    expect(callIds(optimizeAndApply(entries, {}, { foldEdits: true }))).toEqual(['w1']);
  });

  it('should be idempotent: a folded read is not folded or pruned again until a new edit', () => {
    const entries = history(human('go'), turn(read('r1', '/repo/a.ts', numbered(['a old b']))), turn(edit('e1', '/repo/a.ts')));
    const once = optimizeAndApply(entries, {}, { foldEdits: true });
    const again = optimize(once, {}, { foldEdits: true });
    expect(again.removals).toEqual([]);
    expect(again.replacements.size).toBe(0);
    // A new edit folds on top of the reconstructed content.
    const extended = history(once, turn(edit('e2', '/repo/a.ts', 'new', 'newer')));
    const twice = optimizeAndApply(extended, {}, { foldEdits: true });
    expect(responsesById(twice).get('r1')?.result).toContain('\na newer b\n');
  });
});
