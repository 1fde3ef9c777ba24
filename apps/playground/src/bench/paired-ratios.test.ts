import { describe, expect, it } from 'vitest';
import { pairWithPasses } from './paired-ratios.js';

describe('pairWithPasses', () => {
  it('should divide each run by the mean of the passes measured right before and right after it', () => {
    // The machine slowed down between the first run and the second: each run is divided by its own passes.
    const passes = [60, 60, 120, 120];
    const runs = [
      { milliseconds: 72, passBefore: 0 },
      { milliseconds: 108, passBefore: 1 },
      { milliseconds: 144, passBefore: 2 },
    ];
    expect(pairWithPasses(runs, passes)?.runRatios).toEqual([1.2, 1.2, 1.2]);
  });

  it('should report the run of median ratio, not the run of median time', () => {
    const passes = [50, 50, 100, 100];
    const runs = [
      { milliseconds: 65, passBefore: 0, name: 'fast machine, 1.3×' },
      { milliseconds: 110, passBefore: 1, name: 'slowing machine, 1.47×' },
      { milliseconds: 110, passBefore: 2, name: 'slow machine, 1.1×' },
    ];
    const paired = pairWithPasses(runs, passes);
    expect(paired?.reported.name).toBe('fast machine, 1.3×');
    expect(paired?.reported.ratio).toBeCloseTo(1.3, 10);
  });

  it('should report a failed run, and leave it out of the ratios', () => {
    const paired = pairWithPasses(
      [
        { milliseconds: 60, passBefore: 0 },
        { milliseconds: 5, passBefore: 1, error: 'InvalidHistoryError: entry 3' },
      ],
      [50, 50, 50],
    );
    expect(paired?.reported.error).toBe('InvalidHistoryError: entry 3');
    expect(paired?.runRatios).toEqual([1.2]);
  });

  it('should refuse a run without a pass after it', () => {
    expect(() => pairWithPasses([{ milliseconds: 60, passBefore: 1 }], [50, 50, 50].slice(0, 2))).toThrow(/either side of the run at pass 1, found 2 passes/);
    expect(pairWithPasses([], [50])).toBeUndefined();
  });
});
