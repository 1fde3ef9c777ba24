import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StaleDensityResultError } from '../errors/stale-density-result-error.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import type { HistoryEntry } from './history-entry.js';
import { HistoryService } from './history-service.js';
import { vouchedSharedPrefix } from './snapshot-lineage.js';
import { propertyRuns } from '@ctx/test-properties';

/** What a caller does to the history between (and while) strategies look at it. */
const operation = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('snapshot' as const) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  // The history as an earlier snapshot held it: entries replaced since are the same objects again.
  fc.record({ kind: fc.constant('restore' as const), which: fc.nat() }),
  fc.record({ kind: fc.constant('clear' as const) }),
);

let written = 0;
const text = (): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text: `message ${written++}` }] });

function countSame(a: readonly HistoryEntry[], b: readonly HistoryEntry[]): number {
  let shared = 0;
  while (shared < Math.min(a.length, b.length) && a[shared] === b[shared]) shared++;
  return shared;
}

describe('vouchedSharedPrefix (snapshots of a HistoryService)', () => {
  it('never vouches for an entry two snapshots do not share, and vouches for every entry when only appends came between', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 30 }), async (operations) => {
        const history = new HistoryService({ tokenizer: createWordTokenizer() });
        const snapshots: (readonly HistoryEntry[])[] = [history.getRawHistory()];
        // Whether only appends happened since each snapshot.
        const appendedOnly: boolean[] = [true];
        const rewritten = () => appendedOnly.fill(false);
        for (const step of operations) {
          const entries = history.getRawHistory();
          snapshots.push(entries);
          appendedOnly.push(true);
          switch (step.kind) {
            case 'add':
              history.addAll(Array.from({ length: step.count }, text));
              break;
            case 'snapshot':
              break;
            case 'replace':
              if (entries.length === 0) break;
              await history.applyDensityResult({ removals: [], replacements: new Map([[step.at % entries.length, text()]]), metadata: {} }, { basis: entries });
              rewritten();
              break;
            case 'remove':
              if (entries.length === 0) break;
              await history.applyDensityResult({ removals: [step.at % entries.length], replacements: new Map(), metadata: {} }, { basis: entries });
              rewritten();
              break;
            case 'restore':
              await history.replaceHistory(snapshots[step.which % snapshots.length] as readonly HistoryEntry[]);
              rewritten();
              break;
            case 'clear':
              history.clear();
              rewritten();
              break;
          }
        }
        snapshots.push(history.getRawHistory());
        for (let earlier = 0; earlier < snapshots.length; earlier++) {
          for (let later = earlier; later < snapshots.length; later++) {
            const previous = snapshots[earlier] as readonly HistoryEntry[];
            const current = snapshots[later] as readonly HistoryEntry[];
            const vouched = vouchedSharedPrefix(previous, current);
            expect(vouched).toBeDefined();
            expect(vouched).toBeLessThanOrEqual(countSame(previous, current));
            if (appendedOnly[earlier] === true) expect(vouched).toBe(previous.length);
          }
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('vouches for nothing it did not hand out: copies, arrays of another history, a later snapshot asked as the earlier', () => {
    const first = new HistoryService({ tokenizer: createWordTokenizer(), history: [text(), text()] });
    const second = new HistoryService({ tokenizer: createWordTokenizer(), history: first.getRawHistory() });
    const before = first.getRawHistory();
    first.add(text());
    const after = first.getRawHistory();
    expect(vouchedSharedPrefix(before, after)).toBe(2);
    expect(vouchedSharedPrefix(before, [...after])).toBeUndefined();
    expect(vouchedSharedPrefix([...before], after)).toBeUndefined();
    expect(vouchedSharedPrefix(before, second.getRawHistory())).toBeUndefined();
    expect(vouchedSharedPrefix(after, before)).toBeUndefined();
  });

  it('still refuses a density result computed on a snapshot the history was rewritten after, and takes one after appends', async () => {
    const history = new HistoryService({ tokenizer: createWordTokenizer(), history: [text(), text(), text()] });
    const basis = history.getRawHistory();
    history.add(text());
    history.getRawHistory();
    await history.applyDensityResult({ removals: [0], replacements: new Map(), metadata: {} }, { basis });
    const stale = history.getRawHistory();
    await history.applyDensityResult({ removals: [], replacements: new Map([[1, text()]]), metadata: {} }, { basis: stale });
    await expect(history.applyDensityResult({ removals: [0], replacements: new Map(), metadata: {} }, { basis: stale })).rejects.toThrow(StaleDensityResultError);
  });
});
