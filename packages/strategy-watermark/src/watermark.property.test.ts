import { createCharacterTokenizer } from '@ctx/conformance';
import {
  applyDensityResultToHistory,
  createCompressionBudget,
  createTokenCounter,
  findToolPairingProblems,
  isEmptyDensityResult,
  parseHistory,
  type ContentBlock,
  type DensityConfig,
  type HistoryEntry,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems } from '@ctx/retention';
import { findThinkingToolLoopStart, listAssistantTurns, type AssistantTurn } from '@ctx/strategy-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLatestCheckpointCall } from './find-checkpoint-call.js';
import { findTurnStart } from './find-watermark-boundary.js';
import { createStatefulWatermarkStrategy } from './stateful-watermark-strategy.js';
import { createWatermarkStrategy } from './watermark-strategy.js';
import { propertyRuns } from '@ctx/test-properties';

const checkpoint = 'compress_to_checkpoint';
const density: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/repo',
};

/** One ai entry of a turn: optional text (sometimes blank), optional thinking, some tool calls. */
const aiEntryShape = fc.record({
  text: fc.option(fc.constantFrom('Looking.', 'Next step: edit the parser.', '  '), { nil: undefined }),
  thinking: fc.boolean(),
  calls: fc.array(fc.constantFrom('Read', 'Bash', 'Edit', checkpoint), { maxLength: 2 }),
});

const turnShape = fc.oneof(
  fc.record({ kind: fc.constant('human' as const), text: fc.constantFrom('Fix it.', 'Go on.', 'Why?') }),
  fc.record({
    kind: fc.constant('assistant' as const),
    entries: fc.array(aiEntryShape, { minLength: 1, maxLength: 3 }),
    // Results per tool entry: 1 = one entry per result (Claude Code), large = one entry for all (Anthropic).
    resultsPerEntry: fc.integer({ min: 1, max: 3 }),
    toolEntryText: fc.boolean(),
  }),
);

/** A pair-valid agent session starting with a human message: split turns, parallel calls, text in tool entries. */
const sessionArbitrary = fc.array(turnShape, { minLength: 1, maxLength: 25 }).map((turns) => {
  let nextId = 0;
  const history: HistoryEntry[] = [{ speaker: 'human', blocks: [{ type: 'text', text: 'Start.' }] }];
  for (const turn of turns) {
    if (turn.kind === 'human') {
      history.push({ speaker: 'human', blocks: [{ type: 'text', text: turn.text }] });
      continue;
    }
    const responses: ContentBlock[] = [];
    for (const shape of turn.entries) {
      const blocks: ContentBlock[] = [];
      if (shape.thinking) blocks.push({ type: 'thinking', thought: 'Hmm.', signature: 'sig' });
      if (shape.text !== undefined) blocks.push({ type: 'text', text: shape.text });
      for (const name of shape.calls) {
        const id = `call_${nextId++}`;
        blocks.push({ type: 'tool_call', id, name, parameters: { path: `/repo/${id}` } });
        responses.push({ type: 'tool_response', callId: id, toolName: name, result: `output of ${id} `.repeat(5) });
      }
      if (blocks.length === 0) blocks.push({ type: 'text', text: 'Thinking aloud.' });
      history.push({ speaker: 'ai', blocks });
    }
    for (let start = 0; start < responses.length; start += turn.resultsPerEntry) {
      const blocks: ContentBlock[] = responses.slice(start, start + turn.resultsPerEntry);
      if (turn.toolEntryText && start === 0) blocks.push({ type: 'text', text: '<system-reminder>Keep going.</system-reminder>' });
      history.push({ speaker: 'tool', blocks });
    }
  }
  return parseHistory(history);
});

const checkpointCallsIn = (history: readonly HistoryEntry[], turn: AssistantTurn) =>
  history
    .slice(turn.start, turn.toolStart)
    .flatMap((entry) => entry.blocks)
    .filter((block) => block.type === 'tool_call' && block.name === checkpoint).length;

const nonBlankTexts = (history: readonly HistoryEntry[]) =>
  history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'text' && block.text.trim() !== '' ? [block.text] : [])));

const contextFor = (history: readonly HistoryEntry[]) => {
  const tokenCounter = createTokenCounter(createCharacterTokenizer());
  return {
    history,
    system: [],
    tools: [],
    tokenCounter,
    budget: createCompressionBudget({ contextLimit: Math.max(1, tokenCounter.countEntries(history)), threshold: 0.85 }),
  };
};

describe('createWatermarkStrategy (properties)', () => {
  it('should remove exactly the tool history before the newest checkpoint turn, pair- and provider-valid, idempotently', async () => {
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, fc.boolean(), async (history, removeThinking) => {
        const strategy = createWatermarkStrategy({ removeThinking });
        const outcome = await strategy.compress(contextFor(history));
        const optimized = applyDensityResultToHistory(history, strategy.optimize?.(history, density) ?? { removals: [], replacements: new Map(), metadata: {} });
        const latest = findLatestCheckpointCall(history, { toolNames: [checkpoint] });
        if (outcome.type === 'no-op') {
          expect(optimized).toEqual(history);
          if (latest !== undefined) {
            // Nothing to remove: no tool history (or thinking, when asked) before the checkpoint's turn.
            const before = history.slice(0, findTurnStart(history, latest.entryIndex));
            expect(before.flatMap((entry) => entry.blocks).some((block) => block.type === 'tool_call' || block.type === 'tool_response')).toBe(false);
          }
          return;
        }
        if (latest === undefined) throw new Error('applied without a checkpoint call');
        const output = outcome.newHistory;
        expect(output).toEqual(optimized);

        // The checkpoint's turn and everything after it: untouched, the same objects.
        const boundary = findTurnStart(history, latest.entryIndex);
        const keptTail = output.slice(output.length - (history.length - boundary));
        keptTail.forEach((entry, index) => expect(entry).toBe(history[boundary + index]));
        // Before it: no tool blocks (no thinking when asked), and no entry it emptied.
        for (const entry of output.slice(0, output.length - keptTail.length)) {
          expect(entry.blocks.some((block) => block.type === 'tool_call' || block.type === 'tool_response')).toBe(false);
          // …except the thinking of the turn still in its tool loop, which Anthropic requires.
          if (removeThinking && findThinkingToolLoopStart(history) === undefined) {
            expect(entry.blocks.some((block) => block.type === 'thinking')).toBe(false);
          }
          if (!history.includes(entry)) {
            expect(entry.blocks.some((block) => block.type !== 'text' || block.text.trim() !== '')).toBe(true);
          }
        }
        // All conversational text stays, in order.
        expect(nonBlankTexts(output)).toEqual(nonBlankTexts(history));
        expect(findToolPairingProblems(output)).toEqual([]);
        const introduced = findNewValidityProblems(checkProviderValidity({ history }), checkProviderValidity({ history: output }));
        expect(introduced).toEqual({ anthropic: [], openai: [] });
        const counter = createTokenCounter(createCharacterTokenizer());
        expect(counter.countEntries(output)).toBeLessThan(counter.countEntries(history));
        // Idempotent.
        expect(isEmptyDensityResult(strategy.optimize?.(output, density) ?? { removals: [0], replacements: new Map(), metadata: {} })).toBe(true);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('should match the stateful strategy replayed one pass before every assistant entry', () => {
    fc.assert(
      fc.property(sessionArbitrary, (session) => {
        // Spec 003 resolves one checkpoint per request: two checkpoint calls in one assistant turn leave the stateful
        // watermark one call behind until the next request (a unit test covers that case).
        fc.pre(listAssistantTurns(session).every((turn) => checkpointCallsIn(session, turn) <= 1));
        const stateful = createStatefulWatermarkStrategy();
        let current: HistoryEntry[] = [];
        const pass = () => {
          current = applyDensityResultToHistory(current, stateful.optimize?.(current, density) ?? { removals: [], replacements: new Map(), metadata: {} });
        };
        for (const entry of session) {
          if (entry.speaker === 'ai') pass();
          current.push(entry);
        }
        pass();
        const stateless = createWatermarkStrategy().optimize?.(session, density);
        expect(current).toEqual(applyDensityResultToHistory(session, stateless ?? { removals: [], replacements: new Map(), metadata: {} }));
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('should answer as a fresh strategy does when reused turn after turn, its results applied, frozen or not, between calls on other histories', () => {
    fc.assert(
      fc.property(sessionArbitrary, fc.boolean(), fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), (session, removeThinking, coins) => {
        const reused = createWatermarkStrategy({ removeThinking });
        let history: HistoryEntry[] = [];
        session.forEach((entry, index) => {
          history = [...history, entry];
          const next = session[index + 1];
          if (next !== undefined && next.speaker !== 'ai') return;
          // The history service hands out frozen arrays; a caller of its own may not.
          // Sometimes the conversation as it was before any result was applied (a caller that dropped them): entries the
          // strategy saw cleaned hold their tool blocks again.
          const current = coins[(index + 11) % coins.length] === true ? session.slice(0, index + 1) : history;
          const given = coins[index % coins.length] === true ? Object.freeze([...current]) : [...current];
          // Sometimes asked about another history in between (an earlier state of the conversation, which may hold no
          // checkpoint yet): what the strategy remembers must not leak from one into the other.
          if (coins[(index + 3) % coins.length] === true) reused.optimize?.(Object.freeze(history.slice(0, index >> 1)), density);
          const result = reused.optimize?.(given, density);
          expect(result).toEqual(createWatermarkStrategy({ removeThinking }).optimize?.(given, density));
          // Applied most of the time, as the orchestrator does; sometimes not (a pass whose result was refused).
          if (result !== undefined && coins[(index + 7) % coins.length] === true) history = [...applyDensityResultToHistory(current, result)];
        });
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
