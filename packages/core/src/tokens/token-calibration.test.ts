import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { createTokenCalibration } from './token-calibration.js';

describe('createTokenCalibration', () => {
  it('spec 002 §5.1: should use 1.5 before any usage is known', () => {
    const calibration = createTokenCalibration();
    expect(calibration.getFactor()).toBe(1.5);
    expect(calibration.getState()).toMatchObject({ source: 'initial', samples: 0, method: 'latest-ratio' });
  });

  it('spec 002 §5.1: should take the factor from the latest call, real ÷ estimate', () => {
    const calibration = createTokenCalibration();
    calibration.record({ estimatedTokens: 10_000, actualTokens: 11_800 });
    expect(calibration.getFactor()).toBeCloseTo(1.18);
    calibration.record({ estimatedTokens: 20_000, actualTokens: 40_000 });
    expect(calibration.getFactor()).toBe(2);
    expect(calibration.getState()).toMatchObject({ source: 'measured', samples: 2, lastSample: { ratio: 2 } });
  });

  it('spec 002 §6.1: should clamp the correction to [1, 5]', () => {
    const calibration = createTokenCalibration();
    calibration.record({ estimatedTokens: 1_000, actualTokens: 600 });
    expect(calibration.getFactor()).toBe(1);
    calibration.record({ estimatedTokens: 1_000, actualTokens: 12_000 });
    expect(calibration.getFactor()).toBe(5);
    // The raw ratio stays visible for diagnosis.
    expect(calibration.getState().lastSample?.ratio).toBe(12);
  });

  it('should smooth ratios with the moving average, seeded by the first one', () => {
    const calibration = createTokenCalibration({ method: 'moving-average', smoothing: 0.5 });
    calibration.record({ estimatedTokens: 10_000, actualTokens: 12_000 });
    expect(calibration.getFactor()).toBeCloseTo(1.2);
    calibration.record({ estimatedTokens: 10_000, actualTokens: 30_000 });
    expect(calibration.getFactor()).toBeCloseTo(2.1);
    calibration.record({ estimatedTokens: 10_000, actualTokens: 30_000 });
    expect(calibration.getFactor()).toBeCloseTo(2.55);
  });

  it('spec 002 resetCalibration: should go back to at least the initial factor after a compaction, never below what was measured', () => {
    const low = createTokenCalibration();
    low.record({ estimatedTokens: 1_000, actualTokens: 1_100 });
    low.resetAfterCompaction();
    expect(low.getFactor()).toBe(1.5);
    expect(low.getState().source).toBe('reset');
    low.record({ estimatedTokens: 1_000, actualTokens: 1_100 });
    expect(low.getFactor()).toBeCloseTo(1.1);

    const high = createTokenCalibration();
    high.record({ estimatedTokens: 1_000, actualTokens: 3_000 });
    high.resetAfterCompaction();
    expect(high.getFactor()).toBe(3);
  });

  it('should stay at 1 and ignore usage when turned off', () => {
    const calibration = createTokenCalibration(false);
    calibration.record({ estimatedTokens: 1_000, actualTokens: 3_000 });
    calibration.resetAfterCompaction();
    expect(calibration.getFactor()).toBe(1);
    expect(calibration.getState()).toMatchObject({ source: 'off', samples: 1 });
  });

  it('should reject options and samples out of range with what was expected', () => {
    expect(() => createTokenCalibration({ initialFactor: 0 })).toThrow(/calibration\.initialFactor: Expected a positive number, got 0/);
    expect(() => createTokenCalibration({ minFactor: 3, maxFactor: 2 })).toThrow(/minFactor ≤ maxFactor/);
    expect(() => createTokenCalibration({ smoothing: 1.5 })).toThrow(InvalidSettingsError);
    const calibration = createTokenCalibration();
    expect(() => calibration.record({ estimatedTokens: 0, actualTokens: 10 })).toThrow(/estimatedTokens: Expected a whole number of tokens ≥ 1, got 0/);
    expect(() => calibration.record({ estimatedTokens: 10, actualTokens: Number.NaN })).toThrow(/actualTokens/);
    expect(calibration.getState().samples).toBe(0);
  });
});
