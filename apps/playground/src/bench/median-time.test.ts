import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { medianTime } from './median-time.js';

// A clock the test moves: what medianTime reads of the time is what the work below says it took, whatever the
// machine is doing meanwhile.
let clock = 0;
const spend = (milliseconds: number) => {
  clock += milliseconds;
};

describe('medianTime', () => {
  beforeEach(() => {
    clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

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
        spend(0.02);
      },
    );
    // Every input is run once, right after it was prepared: conversations are never interleaved.
    for (let index = 0; index < events.length; index += 2) {
      expect(events[index]).toBe('prepare');
      expect(events[index + 1]).toBe(`run ${index / 2 + 1}`);
    }
    // Batched: more calls than the warm-up runs and three single timed ones; the figure is one call's.
    expect(prepared).toBeGreaterThan(200 + 3);
    expect(milliseconds).toBeCloseTo(0.02, 6);
  });

  it('should warm a call of milliseconds up until its runs add up to 60 ms, within the warm-up budget', async () => {
    let runs = 0;
    await medianTime(
      1,
      () => undefined,
      () => {
        runs++;
        spend(2);
      },
    );
    // Thirty untimed runs of 2 ms (five would leave the JIT's work in the figure), then one timed.
    expect(runs).toBe(31);

    let budgeted = 0;
    await medianTime(
      1,
      () => spend(5),
      () => {
        budgeted++;
        spend(2);
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
        await Promise.resolve();
        spend(60);
      },
    );
    // Five warm-up runs (they add up to 300 ms, past the 60 ms of warm-up), then two timed ones.
    expect(runs).toBe(7);
    expect(milliseconds).toBe(60);
  });
});
