import { describe, expect, it } from 'vitest';
import { medianTime } from './median-time.js';

/** Spins for about `microseconds`: a call short enough to be timed in batches. */
function spin(microseconds: number): void {
  const until = performance.now() + microseconds / 1000;
  while (performance.now() < until) {
    // busy
  }
}

describe('medianTime', () => {
  it('should run a short call on its own input, right after preparing it, and report the time of one call', async () => {
    const events: string[] = [];
    let prepared = 0;
    const milliseconds = await medianTime(
      3,
      () => {
        events.push('prepare');
        return ++prepared;
      },
      (input) => {
        events.push(`run ${input}`);
        spin(20);
      },
    );
    // Every input is run once, right after it was prepared: conversations are never interleaved.
    for (let index = 0; index < events.length; index += 2) {
      expect(events[index]).toBe('prepare');
      expect(events[index + 1]).toBe(`run ${index / 2 + 1}`);
    }
    // Batched: more calls than five warm-up runs and three single timed ones; the figure is one call's.
    expect(prepared).toBeGreaterThan(8 + 3);
    expect(milliseconds).toBeGreaterThanOrEqual(0.02);
  });

  it('should warm a call of milliseconds up until its runs add up to 60 ms, within the warm-up budget', async () => {
    let runs = 0;
    await medianTime(
      1,
      () => undefined,
      () => {
        runs++;
        spin(2_000);
      },
    );
    // About thirty untimed runs of 2 ms (five would leave the JIT's work in the figure), then one timed.
    expect(runs).toBeGreaterThanOrEqual(30);

    let budgeted = 0;
    await medianTime(
      1,
      () => spin(5_000),
      () => {
        budgeted++;
        spin(2_000);
      },
      { warmUpBudgetMilliseconds: 20 },
    );
    // The budget counts preparation too: past it, the warm-up stops after its first five runs.
    expect(budgeted).toBe(6);
  });

  it('should time a long call once per run, after awaiting what it returns', async () => {
    let runs = 0;
    const milliseconds = await medianTime(
      2,
      () => undefined,
      async () => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 60));
      },
    );
    // Five warm-up runs (they add up to 300 ms, past the 60 ms of warm-up), then two timed ones.
    expect(runs).toBe(7);
    expect(milliseconds).toBeGreaterThanOrEqual(50);
  });
});
