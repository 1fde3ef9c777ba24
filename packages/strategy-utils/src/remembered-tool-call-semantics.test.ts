import { parseHistory, type ToolCallBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { classifyHistoryToolCalls } from './classify-history-tool-calls.js';
import { classifyToolCall } from './classify-tool-call.js';
import { classifyRememberedToolCall } from './remembered-tool-call-semantics.js';
import { call, calls, human, result } from './test-support/entries.js';
import { createToolSemanticsRegistry } from './tool-semantics-registry.js';

/** A validated (frozen) history: a shell read and its output. */
function validatedRead(): { readonly block: ToolCallBlock; readonly history: ReturnType<typeof parseHistory> } {
  const history = parseHistory([
    human('show the config'),
    calls(call('c1', 'Bash', { command: 'cd /repo && sed -n 1,40p src/config.ts' })),
    result('c1', 'Bash', 'export const config = {};'),
  ]);
  return { block: history[1]?.blocks[0] as ToolCallBlock, history };
}

describe('classifyRememberedToolCall', () => {
  it('should answer as classifyToolCall does, and answer a validated block again without classifying it again', () => {
    const { block } = validatedRead();
    const first = classifyRememberedToolCall(block, { workspaceRoot: '/repo' }, true);
    expect(first).toEqual(classifyToolCall(block, { workspaceRoot: '/repo' }));
    expect(first).toMatchObject({ kind: 'read', reads: [{ path: '/repo/src/config.ts' }] });
    expect(classifyRememberedToolCall(block, { workspaceRoot: '/repo' }, true)).toBe(first);
  });

  it('should share what one caller classified with classifyHistoryToolCalls, which another strategy calls', () => {
    const { block, history } = validatedRead();
    const semantics = classifyRememberedToolCall(block, { workspaceRoot: '/repo' }, true);
    expect(classifyHistoryToolCalls(history, { workspaceRoot: '/repo' })[0]?.semantics).toBe(semantics);
  });

  it('should classify again for another workspace root or open file, and remember nothing it was not told cannot change', () => {
    const { block } = validatedRead();
    const atRepo = classifyRememberedToolCall(block, { workspaceRoot: '/repo' }, true);
    const elsewhere = classifyRememberedToolCall(block, { workspaceRoot: '/work' }, true);
    expect(elsewhere).not.toBe(atRepo);
    expect(elsewhere).toEqual(classifyToolCall(block, { workspaceRoot: '/work' }));
    expect(classifyRememberedToolCall(block, { workspaceRoot: '/work', openFile: '/work/a.py' }, true)).not.toBe(elsewhere);
    // A block of an unvalidated entry may be changed by its owner: it is classified as it reads now.
    const mutable: { -readonly [Key in keyof ToolCallBlock]: ToolCallBlock[Key] } = call('c2', 'Bash', { command: 'cat a.txt' });
    const before = classifyRememberedToolCall(mutable, { workspaceRoot: '/repo' }, false);
    mutable.parameters = { command: 'cat b.txt' };
    expect(before.reads[0]?.path).toBe('/repo/a.txt');
    expect(classifyRememberedToolCall(mutable, { workspaceRoot: '/repo' }, false).reads[0]?.path).toBe('/repo/b.txt');
  });

  it('should classify anew every time a registry is given (registries change)', () => {
    const { block } = validatedRead();
    const registry = createToolSemanticsRegistry();
    const first = classifyRememberedToolCall(block, { workspaceRoot: '/repo', registry }, true);
    registry.register('Bash', () => ({ kind: 'other', reads: [], writes: [], globs: [] }));
    expect(first.kind).toBe('read');
    expect(classifyRememberedToolCall(block, { workspaceRoot: '/repo', registry }, true).kind).toBe('other');
  });
});
