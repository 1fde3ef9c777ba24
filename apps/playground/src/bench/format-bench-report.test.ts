import { describe, expect, it } from 'vitest';
import { benchParts, type BenchPart } from './bench-parts.js';
import { benchCell, benchFailure, type BenchReport, type BenchSessionSummary } from './bench-report.js';
import { formatBenchReport } from './format-bench-report.js';

const session = (key: string, fastest: number, slowest: number): BenchSessionSummary => ({
  key,
  label: `${key.toLowerCase()}.jsonl`,
  bytes: 3_200_000,
  entries: 293,
  characters: 3_100_000,
  tokens: 171_407,
  window: 171_407,
  tokenizationMs: (fastest + slowest) / 2,
  tokenizationRangeMs: { fastest, slowest },
});

const report = (sessions: readonly BenchSessionSummary[], parts: readonly BenchPart[] = benchParts): BenchReport => ({
  tokenizer: 'gpt-tokenizer:o200k_base',
  source: 'corpus',
  sessions,
  measured: ['watermark'],
  skipped: [],
  parts,
  figures: [],
  peakRssBytes: 300 * 1024 * 1024,
  missed: 0,
});

describe('formatBenchReport', () => {
  it("should give each session's fastest and slowest tokenization pass", () => {
    const printed = formatBenchReport(report([session('S1', 59.4, 66.1)]));
    expect(printed).toMatch(/^ {2}S1 {2}s1\.jsonl: .*one tokenization pass 62\.8 ms \(59\.4–66\.1 ms over the run\)$/m);
  });

  it("should say when the machine's speed moved enough during the run that a value near its goal is not decided", () => {
    const steady = formatBenchReport(report([session('S1', 59.4, 66.1), session('S2', 140, 150)]));
    expect(steady).not.toContain("The machine's speed moved");
    const unsteady = formatBenchReport(report([session('S1', 59.4, 117), session('S2', 140, 150), session('S3', 90, 180)]));
    expect(unsteady).toContain(
      "The machine's speed moved during this run (a tokenization pass of S1 took 59.4–117 ms, of S3 took 90.0–180 ms): a value within its ± of a goal is not decided by one run",
    );
  });

  it('should name the parts a run measured when --only picked some, and describe the baseline row only when replays ran', () => {
    const all = formatBenchReport(report([session('S1', 59.4, 66.1)]));
    expect(all).not.toContain('--only');
    expect(all).toMatch(/^baseline: nothing compressed: each session replayed/m);
    const some = formatBenchReport(report([session('S1', 59.4, 66.1)], ['calls', 'cold']));
    expect(some).toMatch(/^Only these parts of the run \(--only\): calls, cold; the others' figures are left out\.$/m);
    expect(some).not.toContain('baseline: nothing compressed');
    // Without replays a session's pass is timed once: no range to give.
    expect(formatBenchReport(report([session('S1', 64.2, 64.2)], ['calls']))).toMatch(/one tokenization pass 64\.2 ms \(one timed pass\)$/m);
  });

  it('should say how many values could not be measured when a replay failed, instead of saying every value meets its goal', () => {
    const failing: BenchReport = {
      ...report([session('S1', 59.4, 66.1)]),
      figures: [
        {
          id: 'replay-vs-tokenization',
          part: 'replay',
          title: 'replay ÷ one o200k tokenization pass',
          unit: 'ratio',
          goal: { text: '≤ 1.2×', max: 1.2 },
          columns: ['S1'],
          rows: [
            { name: 'baseline: nothing compressed', reference: true, cells: [benchCell('S1', null, null, benchFailure('failed: ToolPairingError, see stderr'))] },
            { name: 'watermark', cells: [benchCell('S1', null, { text: '≤ 1.2×', max: 1.2 }, benchFailure('failed: ToolPairingError, see stderr'))] },
          ],
        },
        {
          id: 'optimize',
          part: 'calls',
          title: 'optimize() on the largest session (S1)',
          unit: 'ms',
          goal: { text: '≤ 1 ms', max: 1 },
          columns: ['warm'],
          // A value that does not apply is not a failure.
          rows: [{ name: 'one-shot', cells: [benchCell('warm', undefined, { text: '≤ 1 ms', max: 1 }, 'no optimize()')] }],
        },
      ],
    };
    const printed = formatBenchReport(failing);
    expect(printed).toMatch(/^✗ 2 values could not be measured: a replay or call failed \(the reasons are on stderr\)\.$/m);
    expect(printed).not.toContain('Every measured value meets its goal');
    expect(formatBenchReport(report([session('S1', 59.4, 66.1)]))).toMatch(/^Every measured value meets its goal\.$/m);
  });
});
