import { HistoryService, type HistoryEntry, type Tokenizer } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answer, call, calls, deepFreeze, human, result } from './test-support/entries.js';
import { isBlankEntry, lastToolLoopBound } from './tool-loop-bounds.js';

// `CTX_PROPERTY_RUNS` raises (or lowers) the number of random conversations; the default keeps the suite fast.
const runs = Number(process.env['CTX_PROPERTY_RUNS'] ?? 1000);

/** The same question asked with nothing remembered: an unfrozen first entry makes the scan read every entry. */
function freshBound(history: readonly HistoryEntry[], end: number): number {
  const [first, ...rest] = history;
  if (first === undefined) return -1;
  return lastToolLoopBound([{ ...first }, ...rest], end);
}

const remindedResult = (id: string): HistoryEntry => ({
  speaker: 'tool',
  blocks: [...result(id, 'Bash', 'ok').blocks, { type: 'text', text: '<system-reminder>todo list changed</system-reminder>' }],
});

const entryArbitrary: fc.Arbitrary<HistoryEntry> = fc.oneof(
  fc.constant(human('next task')),
  fc.constant(human(' \n')),
  fc.constant(answer('')),
  fc.constant(answer('Done.')),
  fc.constant(calls(call('a', 'Bash', { command: 'ls' }))),
  fc.constant(result('a', 'Bash', 'ok')),
  fc.constant(remindedResult('a')),
);

/** What happens to a conversation between two calls. */
const stepArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), entries: fc.array(entryArbitrary, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('rewrite' as const), at: fc.nat(), entry: entryArbitrary }),
  // A caller's own entry, not frozen, changed in place after a call.
  fc.record({ kind: fc.constant('mutate' as const), at: fc.nat(), entry: entryArbitrary }),
  // The same entry objects again, further on (nothing forbids a history from holding one object twice).
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
  // Back to an earlier history (an undo, or a failed apply rolled back): the entries it was scanned with.
  fc.record({ kind: fc.constant('restore' as const), at: fc.nat() }),
);

describe('isBlankEntry', () => {
  it('should call blank an entry of whitespace text only, or no blocks, and nothing else', () => {
    expect(isBlankEntry(human(' \n'))).toBe(true);
    expect(isBlankEntry({ speaker: 'human', blocks: [] })).toBe(true);
    expect(isBlankEntry(human('x'))).toBe(false);
    expect(isBlankEntry(calls(call('a', 'Read', {})))).toBe(false);
  });
});

describe('lastToolLoopBound', () => {
  it('should find the last human entry or reminder-carrying results before the end, skipping blank ones', () => {
    const history = [human('fix it'), calls(call('a', 'Bash', {})), remindedResult('a'), human(' '), answer('')];
    expect(lastToolLoopBound(history, 5)).toBe(2);
    expect(lastToolLoopBound(history, 2)).toBe(0);
    expect(lastToolLoopBound([answer('hi')], 1)).toBe(-1);
  });

  it('should answer a growing, cut, rewritten, repeating and restored conversation as a scan from scratch does', () => {
    fc.assert(
      fc.property(fc.array(entryArbitrary, { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(stepArbitrary, fc.nat(), fc.boolean()), { maxLength: 12 }), (start, steps) => {
        // Frozen like the history model's entries, except those a step leaves unfrozen to change in place.
        let history: HistoryEntry[] = start.map((entry) => deepFreeze(structuredClone(entry)));
        const check = (endSeed: number) => {
          const end = history.length === 0 ? 0 : endSeed % (history.length + 1);
          expect(lastToolLoopBound(history, end)).toBe(freshBound(history, end));
          expect(lastToolLoopBound(history, history.length)).toBe(freshBound(history, history.length));
        };
        check(history.length);
        const earlier: HistoryEntry[][] = [];
        for (const [step, endSeed, frozenArray] of steps) {
          earlier.push(history);
          if (step.kind === 'restore') {
            history = earlier[step.at % earlier.length] as HistoryEntry[];
          } else if (step.kind === 'append') {
            history = [...history, ...step.entries.map((entry) => deepFreeze(structuredClone(entry)))];
          } else if (history.length > 0 && step.kind === 'repeat') {
            const at = step.at % history.length;
            history = [...history, ...history.slice(at, at + step.count)];
          } else if (history.length > 0 && step.kind === 'cut') {
            const at = step.at % history.length;
            history = [...history.slice(0, at), ...history.slice(at + step.count)];
          } else if (history.length > 0 && step.kind === 'rewrite') {
            const at = step.at % history.length;
            history = history.map((entry, index) => (index === at ? deepFreeze(structuredClone(step.entry)) : entry));
          } else if (history.length > 0 && step.kind === 'mutate') {
            const at = step.at % history.length;
            const own = structuredClone(history[at] as HistoryEntry);
            history = history.map((entry, index) => (index === at ? own : entry));
            check(endSeed);
            // The same object, read again: an answer remembered from before the change would be wrong.
            Object.assign(own, structuredClone(step.entry));
          }
          // A frozen array, as a history service hands out, is remembered as the last one scanned.
          if (frozenArray && step.kind !== 'restore') history = Object.freeze([...history]) as HistoryEntry[];
          check(endSeed);
        }
      }),
      { numRuns: runs },
    );
  });

  it('should not answer from an earlier scan once an entry of the conversation was replaced', () => {
    const first = deepFreeze(human('fix it'));
    const opened = deepFreeze(calls(call('a', 'Bash', {})));
    const history = [first, opened, deepFreeze(human('and then this')), deepFreeze(calls(call('b', 'Bash', {})))];
    expect(lastToolLoopBound(history, 4)).toBe(2);
    const replaced = [first, opened, deepFreeze(answer('ok')), history[3] as HistoryEntry];
    expect(lastToolLoopBound(replaced, 4)).toBe(0);
  });

  it('should not answer from an earlier scan once a cut moved entries to other positions', () => {
    const first = deepFreeze(human('fix it'));
    const second = deepFreeze(answer('looking'));
    const third = deepFreeze(human('also this'));
    const fourth = deepFreeze(answer('on it'));
    expect(lastToolLoopBound([first, second, third, fourth], 4)).toBe(2);
    // `second` cut: `third` and `fourth` move up one position.
    expect(lastToolLoopBound([first, third, fourth], 3)).toBe(1);
    expect(lastToolLoopBound([first, second, third, fourth, third, fourth], 6)).toBe(4);
  });

  it("should answer each snapshot of a history service as a scan from scratch does, the service's rewrites included", async () => {
    const tokenizer: Tokenizer = { specificationVersion: 'v1', name: 'characters', countTokens: (text) => text.length };
    const service = new HistoryService({ tokenizer });
    const turns = [human('fix it'), calls(call('a', 'Bash', {})), result('a', 'Bash', 'ok'), human('and this'), calls(call('b', 'Bash', {})), result('b', 'Bash', 'ok')];
    const ask = (end: number) => {
      const snapshot = service.getRawHistory();
      expect(lastToolLoopBound(snapshot, end)).toBe(freshBound(snapshot, end));
    };
    for (const entry of turns) {
      service.add(entry);
      ask(service.getRawHistory().length);
    }
    // A shorter question, then a rewrite behind it, then the whole history again.
    ask(2);
    await service.replaceHistory(service.getRawHistory().map((entry, index) => (index === 3 ? answer('ok') : entry)));
    ask(6);
    expect(lastToolLoopBound(service.getRawHistory(), 6)).toBe(0);
  });
});
