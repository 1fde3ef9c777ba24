import { composedTextRecipe, densityDefaults, parseHistory, type HistoryEntry, type TextPiece, type ToolResponseBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createLosslessStrategy } from './lossless-strategy.js';
import { optimizeWith } from './test-support/optimize-with.js';

const lines = (label: string, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `${label} ${index}: checked src/module${index}.ts against the schema, 0 problems`);
const bash = (id: string, output: string): HistoryEntry[] => [
  { speaker: 'ai', blocks: [{ type: 'tool_call', id, name: 'Bash', parameters: { command: `npm run check -- --run ${id}` } }] },
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: id, toolName: 'Bash', result: output }] },
];
const join = (pieces: readonly TextPiece[]): string =>
  pieces.map((piece) => (typeof piece === 'string' ? piece : piece.text.slice(piece.start, piece.end))).join('');

/** The rewritten text of the last result and the recipe lossless noted for it. */
function rewriteLast(history: HistoryEntry[]): { original: string; rewritten: string; pieces: readonly TextPiece[] | undefined } {
  const frozen = parseHistory(history);
  const plan = optimizeWith(createLosslessStrategy())(frozen, { ...densityDefaults, workspaceRoot: '/repo' });
  const last = frozen.length - 1;
  const original = (frozen[last]?.blocks[0] as ToolResponseBlock).result as string;
  const rewritten = (plan.replacements.get(last)?.blocks[0] as ToolResponseBlock | undefined)?.result as string;
  return { original, rewritten, pieces: composedTextRecipe(rewritten) };
}

describe('lossless notes how a rewritten result is made (noteComposedText)', () => {
  const earlier = lines('first run', 120);

  it('should note spans of the original and its markers, joining to the rewritten text, when it ends in kept lines', () => {
    const output = [...lines('new', 30), ...earlier.slice(20, 100), ...lines('after', 30)].join('\n');
    const { original, rewritten, pieces } = rewriteLast([...bash('b1', earlier.join('\n')), ...bash('b2', output)]);
    expect(rewritten.length).toBeLessThan(original.length);
    expect(pieces).toBeDefined();
    expect(join(pieces ?? [])).toBe(rewritten);
    expect(pieces?.filter((piece) => typeof piece !== 'string').every((piece) => piece.text === original)).toBe(true);
  });

  it('should note a recipe that joins to the rewritten text when it ends in a marker', () => {
    const output = [...lines('new', 40), ...earlier.slice(10, 110)].join('\n');
    const { rewritten, pieces } = rewriteLast([...bash('b1', earlier.join('\n')), ...bash('b2', output)]);
    expect(rewritten.split('\n').at(-1)).toMatch(/^⟨ Reference: /);
    expect(join(pieces ?? [])).toBe(rewritten);
  });
});
