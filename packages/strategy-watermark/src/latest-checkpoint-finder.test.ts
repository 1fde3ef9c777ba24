import type { HistoryEntry } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLatestCheckpointCall } from './find-checkpoint-call.js';
import { createHistoryViews } from './history-view.js';
import { createLatestCheckpointFinder } from './latest-checkpoint-finder.js';
import { ai, call, human, response, tool } from './test-support/entries.js';

const checkpoint = 'TodoWrite';

/** An entry: a user text, or an ai entry with up to two calls (sometimes the checkpoint tool), or their results. */
const entryArbitrary = fc.oneof(
  fc.constant(human('Go on.')),
  fc
    .array(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), name: fc.constantFrom('Read', 'Bash', checkpoint) }), {
      minLength: 1,
      maxLength: 2,
    })
    .map((calls) => ai(...calls.map(({ id, name }) => call(id, name)))),
  fc.constant(tool(response('a'))),
);

/** What the conversation does between two searches. */
const stepArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), entries: fc.array(entryArbitrary, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), entry: entryArbitrary }),
  fc.record({ kind: fc.constant('drop-front' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.constant({ kind: 'same' as const }),
  // Another part of the pass takes a view of the history and the finder is not asked: its next view's previous is
  // not the history it searched.
  fc.constant({ kind: 'viewed-elsewhere' as const }),
);

type Step = typeof stepArbitrary extends fc.Arbitrary<infer T> ? T : never;

function apply(history: readonly HistoryEntry[], step: Step): HistoryEntry[] {
  switch (step.kind) {
    case 'append':
      return [...history, ...step.entries];
    case 'replace':
      return history.length === 0
        ? [step.entry]
        : history.map((entry, index) => (index === step.at % history.length ? step.entry : entry));
    case 'drop-front':
      return history.slice(step.count);
    case 'same':
    case 'viewed-elsewhere':
      return [...history];
  }
}

describe('createLatestCheckpointFinder', () => {
  it('answers what a search of the whole history answers, as the history grows, is rewritten or shrinks', () => {
    fc.assert(
      fc.property(fc.array(entryArbitrary, { maxLength: 6 }), fc.array(stepArbitrary, { maxLength: 12 }), (start, steps) => {
        const views = createHistoryViews();
        const findLatest = createLatestCheckpointFinder([checkpoint]);
        let history: HistoryEntry[] = start;
        expect(findLatest(views(history))).toEqual(findLatestCheckpointCall(history, { toolNames: [checkpoint] }));
        for (const step of steps) {
          history = apply(history, step);
          if (step.kind === 'viewed-elsewhere') {
            views(history);
            continue;
          }
          expect(findLatest(views(history))).toEqual(findLatestCheckpointCall(history, { toolNames: [checkpoint] }));
        }
      }),
    );
  });

  it('finds a checkpoint call appended after an earlier one, at its index in the whole history', () => {
    const views = createHistoryViews();
    const findLatest = createLatestCheckpointFinder([checkpoint]);
    const first = [human('Plan.'), ai(call('t1', checkpoint)), tool(response('t1', checkpoint))];
    expect(findLatest(views(first))?.callId).toBe('t1');
    const grown = [...first, ai(call('r1', 'Read')), tool(response('r1')), ai(call('t2', checkpoint))];
    expect(findLatest(views(grown))).toEqual({ callId: 't2', toolName: checkpoint, entryIndex: 5, blockIndex: 0 });
  });

  it('sees what changed in an array the caller grows or edits in place between calls', () => {
    const views = createHistoryViews();
    const findLatest = createLatestCheckpointFinder([checkpoint]);
    const history: HistoryEntry[] = [human('Plan.'), ai(call('t1', checkpoint)), tool(response('t1', checkpoint))];
    expect(findLatest(views(history))?.callId).toBe('t1');
    history.push(ai(call('t2', checkpoint)));
    expect(findLatest(views(history))?.callId).toBe('t2');
    history[3] = ai(call('r1', 'Read'));
    expect(findLatest(views(history))?.callId).toBe('t1');
  });

  it('forgets a checkpoint call that a rewrite removed from the start of the history', () => {
    const views = createHistoryViews();
    const findLatest = createLatestCheckpointFinder([checkpoint]);
    const history = [human('Plan.'), ai(call('t1', checkpoint)), tool(response('t1', checkpoint)), human('Go on.')];
    expect(findLatest(views(history))?.callId).toBe('t1');
    expect(findLatest(views([history[0]!, history[3]!]))).toBeUndefined();
  });
});
