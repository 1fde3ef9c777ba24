import { findToolPairingProblems } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeSession } from './claude-code-session-reader.js';
import { convertClaudeCodeSession } from './convert-claude-code-session.js';
import { assistant, jsonl, progress, result, text, toolUse, user, type FixtureRecord } from './test-support/records.js';
import { propertyRuns } from '@ctx/test-properties';

/** One API response: how many parallel calls, and in which order their results are written. */
const turnArbitrary = fc
  .record({
    calls: fc.integer({ min: 1, max: 4 }),
    withText: fc.boolean(),
    progressBetween: fc.boolean(),
    resultsUnderOwnCall: fc.boolean(),
    seed: fc.integer(),
  })
  .map((turn) => ({ ...turn, order: shuffle(Array.from({ length: turn.calls }, (_, index) => index), turn.seed) }));

function shuffle(values: number[], seed: number): number[] {
  const shuffled = [...values];
  let state = seed >>> 0;
  for (let index = shuffled.length - 1; index > 0; index--) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    const other = state % (index + 1);
    [shuffled[index], shuffled[other]] = [shuffled[other] as number, shuffled[index] as number];
  }
  return shuffled;
}

/**
 * Writes a session the way Claude Code does: a response's blocks as a chain of one-block assistant records (hook
 * progress in between), each result either under its own call (a sibling branch) or chained, in any order; the
 * conversation continues from the last result written.
 */
function writeSession(turns: readonly (typeof turnArbitrary extends fc.Arbitrary<infer Turn> ? Turn : never)[]): FixtureRecord[] {
  const records: FixtureRecord[] = [user('u0', null, 'Start')];
  let tail = 'u0';
  turns.forEach((turn, turnIndex) => {
    const messageId = `msg_${turnIndex}`;
    let previous = tail;
    if (turn.withText) {
      records.push(assistant(`a${turnIndex}-text`, previous, messageId, text('Working on it.')));
      previous = `a${turnIndex}-text`;
    }
    const callRecords: string[] = [];
    for (let call = 0; call < turn.calls; call++) {
      const uuid = `a${turnIndex}-${call}`;
      records.push(assistant(uuid, previous, messageId, toolUse(`t${turnIndex}-${call}`, 'Read')));
      callRecords.push(uuid);
      previous = uuid;
      if (turn.progressBetween) {
        records.push(progress(`p${turnIndex}-${call}`, uuid));
        previous = `p${turnIndex}-${call}`;
      }
    }
    for (const call of turn.order) {
      const parent = turn.resultsUnderOwnCall ? (callRecords[call] as string) : previous;
      const uuid = `r${turnIndex}-${call}`;
      records.push(result(uuid, parent, `t${turnIndex}-${call}`));
      previous = uuid;
    }
    tail = previous;
  });
  records.push(assistant('final', tail, 'msg_final', text('All done.')));
  return records;
}

describe('convertClaudeCodeSession (properties)', () => {
  it('should pair every parallel call with its result however Claude Code spread them over the tree', () => {
    fc.assert(
      fc.property(fc.array(turnArbitrary, { minLength: 1, maxLength: 6 }), (turns) => {
        const session = parseClaudeCodeSession(jsonl(writeSession(turns)));
        for (const view of ['last-epoch', 'whole-session'] as const) {
          const { conversation } = convertClaudeCodeSession(session, { view });
          expect(findToolPairingProblems(conversation.history)).toEqual([]);
          const calls = conversation.history.flatMap((entry) => entry.blocks.filter((block) => block.type === 'tool_call'));
          expect(calls).toHaveLength(turns.reduce((sum, turn) => sum + turn.calls, 0));
          // One ai entry per API response.
          expect(conversation.history.filter((entry) => entry.speaker === 'ai')).toHaveLength(turns.length + 1);
        }
        expect(session.abandonedBranches).toEqual([]);
      }),
    );
  });

  it('should be deterministic and leave the session untouched', () => {
    fc.assert(
      fc.property(fc.array(turnArbitrary, { minLength: 1, maxLength: 4 }), (turns) => {
        const session = parseClaudeCodeSession(jsonl(writeSession(turns)));
        const before = JSON.stringify(session.records);
        const first = convertClaudeCodeSession(session, { view: 'whole-session' });
        expect(convertClaudeCodeSession(session, { view: 'whole-session' })).toEqual(first);
        expect(JSON.stringify(session.records)).toBe(before);
      }),
      { numRuns: propertyRuns(30) },
    );
  });
});
