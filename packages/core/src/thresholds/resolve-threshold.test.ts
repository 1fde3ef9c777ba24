import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_THRESHOLD } from '../strategy/strategy-trigger.js';
import { resolveThreshold } from './resolve-threshold.js';
import {
  INHERIT_THRESHOLD,
  MAX_CONDENSE_THRESHOLD,
  MIN_CONDENSE_THRESHOLD,
  TOKEN_BUFFER_PERCENTAGE,
} from './threshold-constants.js';

const allLevels = {
  override: 0.5,
  profile: 'cheap',
  profileThresholds: { cheap: 60 },
  globalThreshold: 0.7,
  strategyDefault: 0.85,
} as const;

describe('resolveThreshold', () => {
  it('BR-THRESH-001: should prefer the session override over the profile threshold', () => {
    expect(resolveThreshold(allLevels)).toEqual({ value: 0.5, source: 'override', warnings: [] });
  });

  it('BR-THRESH-001: should prefer the profile threshold over the global threshold', () => {
    expect(resolveThreshold({ ...allLevels, override: undefined })).toEqual({
      value: 0.6,
      source: 'profile',
      warnings: [],
    });
  });

  it('BR-THRESH-001: should prefer the global threshold over the strategy default', () => {
    expect(resolveThreshold({ ...allLevels, override: undefined, profileThresholds: {} })).toEqual({
      value: 0.7,
      source: 'global',
      warnings: [],
    });
  });

  it('BR-THRESH-001: should fall back to the strategy default when nothing is set', () => {
    expect(resolveThreshold({ strategyDefault: 0.85 })).toEqual({
      value: 0.85,
      source: 'strategy-default',
      warnings: [],
    });
  });

  it('FR-TH-001: should use the active profile threshold, in percent, as a fraction', () => {
    const resolved = resolveThreshold({
      profile: 'cheap',
      profileThresholds: { cheap: 40, expensive: 90 },
      strategyDefault: 0.85,
    });
    expect(resolved.value).toBeCloseTo(0.4, 10);
    expect(resolved.source).toBe('profile');
  });

  it('FR-TH-001: should ignore the thresholds of profiles that are not active', () => {
    const resolved = resolveThreshold({
      profile: 'default',
      profileThresholds: { cheap: 40 },
      globalThreshold: 0.7,
      strategyDefault: 0.85,
    });
    expect(resolved).toEqual({ value: 0.7, source: 'global', warnings: [] });
  });

  it('FR-TH-001: should ignore profile thresholds when no profile is active', () => {
    expect(resolveThreshold({ profileThresholds: { cheap: 40 }, strategyDefault: 0.85 }).source).toBe(
      'strategy-default',
    );
  });

  it('FR-TH-001: should inherit the global threshold silently when the profile threshold is -1', () => {
    const resolved = resolveThreshold({
      profile: 'cheap',
      profileThresholds: { cheap: INHERIT_THRESHOLD },
      globalThreshold: 0.7,
      strategyDefault: 0.85,
    });
    expect(INHERIT_THRESHOLD).toBe(-1);
    expect(resolved).toEqual({ value: 0.7, source: 'global', warnings: [] });
  });

  it('FR-TH-001: should inherit the strategy default when the profile threshold is -1 and no global is set', () => {
    expect(
      resolveThreshold({ profile: 'cheap', profileThresholds: { cheap: -1 }, strategyDefault: 0.85 }),
    ).toEqual({ value: 0.85, source: 'strategy-default', warnings: [] });
  });

  it.each([3, 150, Number.NaN, -2])(
    'FR-TH-001: should ignore an invalid profile threshold %s with a warning naming it and use the global',
    (invalid) => {
      const resolved = resolveThreshold({
        profile: 'cheap',
        profileThresholds: { cheap: invalid },
        globalThreshold: 0.7,
        strategyDefault: 0.85,
      });
      expect(resolved.value).toBe(0.7);
      expect(resolved.source).toBe('global');
      expect(resolved.warnings).toHaveLength(1);
      expect(resolved.warnings[0]).toContain(`threshold ${invalid} of profile "cheap"`);
      expect(resolved.warnings[0]).toContain('5..100');
    },
  );

  it('FR-TH-001: should fall through an invalid profile threshold to the strategy default without a global', () => {
    const resolved = resolveThreshold({ profile: 'cheap', profileThresholds: { cheap: 3 }, strategyDefault: 0.85 });
    expect(resolved.value).toBe(0.85);
    expect(resolved.source).toBe('strategy-default');
    expect(resolved.warnings).toHaveLength(1);
  });

  it.each([0, -0.5, 1.5, 85, Number.NaN])(
    'BR-THRESH-001: should skip an invalid override %s with a warning and use the next level',
    (invalid) => {
      const resolved = resolveThreshold({ ...allLevels, override: invalid });
      expect(resolved.value).toBe(0.6);
      expect(resolved.source).toBe('profile');
      expect(resolved.warnings).toEqual([expect.stringContaining(`override ${invalid}`)]);
    },
  );

  it.each([0, 1.5, 85, Number.NaN])(
    'BR-THRESH-001: should skip an invalid global threshold %s with a warning and use the strategy default',
    (invalid) => {
      const resolved = resolveThreshold({ globalThreshold: invalid, strategyDefault: 0.85 });
      expect(resolved.value).toBe(0.85);
      expect(resolved.source).toBe('strategy-default');
      expect(resolved.warnings).toEqual([expect.stringContaining(`compression.threshold ${invalid}`)]);
    },
  );

  it('BR-THRESH-001: should collect a warning for every invalid level it skipped', () => {
    const resolved = resolveThreshold({
      override: 2,
      profile: 'cheap',
      profileThresholds: { cheap: 150 },
      globalThreshold: 0,
      strategyDefault: 0.85,
    });
    expect(resolved.source).toBe('strategy-default');
    expect(resolved.warnings).toHaveLength(3);
  });

  it('BR-THRESH-001: should accept an override of exactly 1 (the whole window)', () => {
    expect(resolveThreshold({ override: 1, strategyDefault: 0.85 })).toEqual({
      value: 1,
      source: 'override',
      warnings: [],
    });
  });

  it('FR-TH-002: should accept profile thresholds at exactly the minimum and maximum', () => {
    const atPercent = (percent: number) =>
      resolveThreshold({ profile: 'p', profileThresholds: { p: percent }, strategyDefault: 0.85 });
    expect(atPercent(MIN_CONDENSE_THRESHOLD)).toEqual({ value: 0.05, source: 'profile', warnings: [] });
    expect(atPercent(MAX_CONDENSE_THRESHOLD)).toEqual({ value: 1, source: 'profile', warnings: [] });
  });

  it.each([4.9, 100.1])('FR-TH-002: should reject a profile threshold of %s just outside the range', (value) => {
    const resolved = resolveThreshold({ profile: 'p', profileThresholds: { p: value }, strategyDefault: 0.85 });
    expect(resolved.source).toBe('strategy-default');
    expect(resolved.warnings).toEqual([expect.stringContaining(`threshold ${value} of profile "p"`)]);
  });

  it('FR-TH-001: should not read inherited object properties as profile thresholds', () => {
    for (const profile of ['constructor', 'toString', '__proto__']) {
      expect(resolveThreshold({ profile, profileThresholds: {}, globalThreshold: 0.7, strategyDefault: 0.85 })).toEqual({
        value: 0.7,
        source: 'global',
        warnings: [],
      });
    }
  });
});

describe('MIN_CONDENSE_THRESHOLD', () => {
  it('FR-TH-002: should be 5 percent', () => {
    expect(MIN_CONDENSE_THRESHOLD).toBe(5);
  });
});

describe('MAX_CONDENSE_THRESHOLD', () => {
  it('FR-TH-002: should be 100 percent', () => {
    expect(MAX_CONDENSE_THRESHOLD).toBe(100);
  });
});

describe('TOKEN_BUFFER_PERCENTAGE', () => {
  it('FR-TH-002: should be a 10% safety buffer', () => {
    expect(TOKEN_BUFFER_PERCENTAGE).toBe(0.1);
  });
});

describe('DEFAULT_COMPRESSION_THRESHOLD', () => {
  it('BR-THRESH-002: should be 0.85 for the existing strategies', () => {
    expect(DEFAULT_COMPRESSION_THRESHOLD).toBe(0.85);
  });

  it('BR-THRESH-003: should be the value resolveThreshold falls back to for a strategy that uses it', () => {
    expect(resolveThreshold({ strategyDefault: DEFAULT_COMPRESSION_THRESHOLD })).toEqual({
      value: 0.85,
      source: 'strategy-default',
      warnings: [],
    });
  });
});
