import { createCharacterTokenizer, createSyntheticHistory, createTestCompressionContext } from '@ctx/conformance';
import {
  createTokenCounter,
  densityDefaults,
  findToolPairingProblems,
  parseHistory,
  type ContentBlock,
  type HistoryEntry,
  type JsonValue,
} from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandHistory } from './expand-history.js';
import { createLosslessStrategy } from './lossless-strategy.js';
import { optimizeWith } from './test-support/optimize-with.js';
import { toolOutputArbitrary as outputArbitrary, toolResultArbitrary as resultArbitrary } from './test-support/tool-output-arbitraries.js';
import { propertyRuns } from '@ctx/test-properties';

const turnArbitrary = fc.record({
  tool: fc.constantFrom('Read', 'Bash', 'Write', 'TodoWrite'),
  result: resultArbitrary,
  written: outputArbitrary,
  isError: fc.boolean(),
  // Reused call ids happen in real transcripts; a reference must still resolve to the right block.
  reuseId: fc.boolean(),
});

interface TurnInput {
  readonly tool: string;
  readonly result: JsonValue;
  readonly written: string;
  readonly isError: boolean;
  readonly reuseId: boolean;
}

function buildHistory(turns: readonly TurnInput[]): HistoryEntry[] {
  const history: HistoryEntry[] = [{ speaker: 'human', blocks: [{ type: 'text', text: 'Start.' }] }];
  turns.forEach((turn, index) => {
    const id = turn.reuseId && index > 0 ? 'call_reused' : `call_${index}`;
    const parameters: JsonValue =
      turn.tool === 'Read'
        ? { file_path: `/repo/file${index % 3}.py` }
        : turn.tool === 'Write'
          ? { file_path: `/repo/file${index % 3}.py`, content: turn.written }
          : turn.tool === 'TodoWrite'
            ? { todos: [{ content: `step ${index}`, status: 'pending', activeForm: `Doing step ${index}` }] }
            : { command: `python run.py --case ${index % 4}` };
    const call: ContentBlock = { type: 'tool_call', id, name: turn.tool, parameters };
    history.push({ speaker: 'ai', blocks: [call] });
    history.push({
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: id, toolName: turn.tool, result: turn.result, ...(turn.isError ? { isError: true } : {}) }],
    });
  });
  return history;
}

const historyArbitrary = fc.array(turnArbitrary, { minLength: 1, maxLength: 14 }).map(buildHistory);

const strategy = createLosslessStrategy({ minReferenceCharacters: 40 });
const optimize = optimizeWith(strategy);
// Everything switched on: tool call parameters and error results are rewritten too.
const optimizeAll = optimizeWith(
  createLosslessStrategy({ minReferenceCharacters: 40, rewriteToolCallParameters: true, keepErrorResults: false }),
);
const config = { ...densityDefaults, workspaceRoot: '/repo' };
const counter = createTokenCounter(createCharacterTokenizer());

describe('createLosslessStrategy (properties)', () => {
  it('FR-LC-003: expandHistory(optimize(h)) should deep-equal h for random histories full of repeated lines', () => {
    let rewritten = 0;
    fc.assert(
      fc.property(historyArbitrary, fc.boolean(), (history, everything) => {
        const frozen = parseHistory(history);
        const plan = (everything ? optimizeAll : optimize)(frozen, config);
        const output = frozen.map((entry, index) => plan.replacements.get(index) ?? entry);
        if (plan.replacements.size > 0) rewritten++;
        expect(expandHistory(output)).toEqual(history);
        expect(findToolPairingProblems(output)).toEqual([]);
        expect(counter.countEntries(output)).toBeLessThanOrEqual(counter.countEntries(frozen));
        // Idempotent: what was rewritten is not rewritten again.
        expect((everything ? optimizeAll : optimize)(parseHistory(output), config).replacements.size).toBe(0);
      }),
      { numRuns: propertyRuns(200) },
    );
    // The generator must exercise references, not just histories with nothing to do.
    expect(rewritten).toBeGreaterThan(50);
  });

  it('FR-LC-003: compress should round-trip exactly for random histories, superseded todo lists included', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (history) => {
        // The default context limit is the history's own size: the context is full, so compress runs.
        const outcome = await strategy.compress(createTestCompressionContext({ history }));
        if (outcome.type === 'applied') expect(expandHistory(outcome.newHistory)).toEqual(history);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('should round-trip the conformance kit synthetic histories', () => {
    for (const seed of [1, 2, 3]) {
      const history = createSyntheticHistory({ entries: 200, seed });
      const frozen = parseHistory(history);
      const plan = optimize(frozen, config);
      expect(expandHistory(frozen.map((entry, index) => plan.replacements.get(index) ?? entry))).toEqual(history);
    }
  });
});
