import { densityDefaults, parseHistory, type HistoryEntry, type JsonValue, type ToolResponseBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { expandHistory } from './expand-history.js';
import { LosslessReferenceError } from './lossless-reference-error.js';
import { createLosslessStrategy } from './lossless-strategy.js';
import { optimizeWith } from './test-support/optimize-with.js';
import { createReferenceStore } from './reference-store.js';

const lines = (label: string, count: number): string =>
  Array.from({ length: count }, (_, index) => `${String(index + 1).padStart(6)}→const ${label}${index} = load('${label}', ${index});`).join('\n');

const history: readonly HistoryEntry[] = parseHistory([
  { speaker: 'human', blocks: [{ type: 'text', text: 'Read a.ts twice.' }] },
  { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'r1', name: 'Read', parameters: { file_path: '/repo/a.ts' } }] },
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'r1', toolName: 'Read', result: lines('a', 25) }] },
  { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'r2', name: 'Read', parameters: { file_path: '/repo/a.ts' } }] },
  {
    speaker: 'tool',
    blocks: [
      {
        type: 'tool_response',
        callId: 'r2',
        toolName: 'Read',
        result: lines('a', 25),
        providerMetadata: { claudeCode: { toolUseResult: { type: 'text' } } },
      },
    ],
  },
]);

function compress(input: readonly HistoryEntry[]): HistoryEntry[] {
  const optimize = optimizeWith(createLosslessStrategy());
  const plan = optimize(input, { ...densityDefaults, workspaceRoot: '/repo' });
  return input.map((entry, index) => plan.replacements.get(index) ?? entry);
}

function withSourceResult(input: readonly HistoryEntry[], result: JsonValue): HistoryEntry[] {
  return input.map((entry, index) =>
    index === 2 ? { ...entry, blocks: [{ ...(entry.blocks[0] as ToolResponseBlock), result }] } : entry,
  );
}

function expandError(run: () => unknown): LosslessReferenceError {
  try {
    run();
  } catch (error) {
    if (LosslessReferenceError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected expandHistory to throw');
}

describe('expandHistory', () => {
  it('FR-LC-003: should restore the original exactly, provider metadata included, and keep untouched entries as the same objects', () => {
    const compressed = compress(history);
    expect(compressed[4]).not.toEqual(history[4]);
    const expanded = expandHistory(compressed);
    expect(expanded).toEqual(history);
    expect(expanded[2]).toBe(compressed[2]);
  });

  it('FR-LC-003: should fail with hash-mismatch when the referenced source was edited after compression', () => {
    const tampered = withSourceResult(compress(history), lines('b', 25));
    const error = expandError(() => expandHistory(tampered));
    expect(error.problem).toBe('hash-mismatch');
    expect(error.entryIndex).toBe(4);
  });

  it('FR-LC-003: should fail with missing-source when a lossy pass dropped the source, and succeed with a store', () => {
    const compressed = compress(history);
    // What a truncation pass after lossless leaves: the first read is gone.
    const truncated = [compressed[0] as HistoryEntry, ...compressed.slice(3)];
    expect(expandError(() => expandHistory(truncated)).problem).toBe('missing-source');
    const store = createReferenceStore(compressed);
    expect(expandHistory(truncated, store)).toEqual([history[0], ...history.slice(3)]);
  });

  it('FR-LC-003: should fail with invalid-record when a record was edited by hand', () => {
    const compressed = compress(history);
    const block = compressed[4]?.blocks[0] as ToolResponseBlock;
    const broken = compressed.map((entry, index) =>
      index === 4 ? { ...entry, blocks: [{ ...block, providerMetadata: { ...block.providerMetadata, ctx: { lossless: { version: 2 } } } }] } : entry,
    );
    expect(expandError(() => expandHistory(broken)).problem).toBe('invalid-record');
  });

  it('should return a history without references unchanged', () => {
    const expanded = expandHistory(history);
    expanded.forEach((entry, index) => expect(entry).toBe(history[index]));
  });
});
