import { parseConversation, type Conversation, type HistoryEntry } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureRetention, type RetentionReport } from './measure-retention.js';
import { ai, call, calls, edit, human, read, result } from './test-support/entries.js';

const paths = ['/repo/a.ts', '/repo/b.ts', 'src/c.ts'];
const lines = fc.array(fc.constantFrom('const a = 1;', 'return a;', '}', 'export {};', '// note'), { minLength: 1, maxLength: 4 });

/** One step of an agent session: a few entries that belong together (a call and its result stay together). */
const step = (id: number): fc.Arbitrary<readonly HistoryEntry[]> =>
  fc.oneof(
    fc.constantFrom('Fix it', 'continue', 'Add a test', '<command-name>/clear</command-name>', 'Go\n<system-reminder>r</system-reminder>').map((text) => [human(text)]),
    fc.tuple(fc.constantFrom(...paths), lines).map(([path, content]) => read(`r${id}`, path, content.join('\n'))),
    fc.tuple(fc.constantFrom(...paths), fc.constantFrom('a', 'return', '}')).map(([path, old]) => edit(`e${id}`, path, old, `${old}!`)),
    fc.constantFrom('Exit code 1\nfailed', 'Exit code 2\nnot found').map((output) => [
      call(`b${id}`, 'Bash', { command: 'npm test' }),
      result(`b${id}`, 'Bash', output, true),
    ]),
    fc.string({ maxLength: 12 }).map((thought) => [calls({ type: 'thinking', thought, signature: 'sig' }, { type: 'text', text: 'ok' })]),
    fc.constant([ai('Done.')]),
  );

/** A session as steps, and a mask of the steps a "strategy" kept. */
const sessionWithMask = fc
  .integer({ min: 0, max: 14 })
  .chain((count) =>
    fc.tuple(
      fc.tuple(...Array.from({ length: count }, (_, index) => step(index))),
      fc.array(fc.boolean(), { minLength: count, maxLength: count }),
    ),
  );

const conversationOf = (steps: readonly (readonly HistoryEntry[])[], keep: (index: number) => boolean): Conversation =>
  parseConversation({ history: steps.filter((_, index) => keep(index)).flat() });

const measures = (report: RetentionReport) => [report.userTexts, report.fileStates, report.errors, report.thinking];

describe('measureRetention', () => {
  it('should report everything kept when after is before', () => {
    fc.assert(
      fc.property(sessionWithMask, ([steps]) => {
        const conversation = conversationOf(steps, () => true);
        for (const measured of measures(measureRetention(conversation, conversation))) {
          expect(measured).toMatchObject({ kept: measured.total, fraction: 1, missing: [] });
        }
      }),
    );
  });

  it('should give consistent measures, totals that depend on before only, and never more kept after dropping more', () => {
    fc.assert(
      fc.property(sessionWithMask, fc.nat(), ([steps, mask], extraDrop) => {
        const before = conversationOf(steps, () => true);
        const after = conversationOf(steps, (index) => mask[index] === true);
        // Drop one more kept step: nothing it held can count as kept any more.
        const keptSteps = mask.flatMap((kept, index) => (kept ? [index] : []));
        const dropped = keptSteps.length === 0 ? -1 : keptSteps[extraDrop % keptSteps.length];
        const smaller = conversationOf(steps, (index) => mask[index] === true && index !== dropped);

        const full = measureRetention(before, before);
        const report = measureRetention(before, after);
        const smallerReport = measureRetention(before, smaller);
        for (const measured of measures(report)) {
          expect(measured.kept).toBeGreaterThanOrEqual(0);
          expect(measured.kept).toBeLessThanOrEqual(measured.total);
          expect(measured.fraction).toBe(measured.total === 0 ? 1 : measured.kept / measured.total);
          expect(measured.missing).toHaveLength(Math.min(20, measured.total - measured.kept));
        }
        for (const key of ['userTexts', 'fileStates', 'errors'] as const) {
          expect(report[key].total).toBe(full[key].total);
          expect(smallerReport[key].kept).toBeLessThanOrEqual(report[key].kept);
        }
        // Deterministic: the same inputs give the same report.
        expect(measureRetention(before, after)).toEqual(report);
      }),
    );
  });
});
