import { INHERIT_THRESHOLD, MAX_CONDENSE_THRESHOLD, MIN_CONDENSE_THRESHOLD } from './threshold-constants.js';

/** Where an effective threshold came from, highest precedence first. */
export type ThresholdSource = 'override' | 'profile' | 'global' | 'strategy-default';

/** The threshold in effect and how it was chosen. */
export interface ResolvedThreshold {
  /** Fraction of the context window in (0, 1]. */
  readonly value: number;
  readonly source: ThresholdSource;
  /** Values that were set but ignored because they were invalid (spec 004 FR-TH-001 "warn and use global"). */
  readonly warnings: readonly string[];
}

/** The candidate thresholds, by level. */
export interface ThresholdSources {
  /** A session override (spec 000 "ephemeral override"), as a fraction in (0, 1]. */
  readonly override?: number | undefined;
  /** The active profile. */
  readonly profile?: string | undefined;
  /** Per-profile thresholds in percent: 5..100, or -1 to inherit (spec 004 FR-TH-001). */
  readonly profileThresholds?: Readonly<Record<string, number>> | undefined;
  /** The global threshold setting (`compression.threshold`), as a fraction in (0, 1]. */
  readonly globalThreshold?: number | undefined;
  /** The strategy's `trigger.defaultThreshold`. */
  readonly strategyDefault: number;
}

const isFraction = (value: number) => Number.isFinite(value) && value > 0 && value <= 1;

/**
 * Picks the effective compression threshold.
 *
 * Precedence (spec 000 BR-THRESH-001 merged with spec 004 FR-TH-001): session override → the active profile's
 * threshold (unless absent or -1 = inherit) → the global `compression.threshold` setting → the strategy's
 * `trigger.defaultThreshold`. A value outside its valid range is skipped with a warning, never fatal.
 *
 * @example
 * ```ts
 * resolveThreshold({ profile: 'cheap', profileThresholds: { cheap: 60 }, strategyDefault: 0.85 });
 * // → { value: 0.6, source: 'profile', warnings: [] }
 * ```
 */
export function resolveThreshold(sources: ThresholdSources): ResolvedThreshold {
  const warnings: string[] = [];

  if (sources.override !== undefined) {
    if (isFraction(sources.override)) return { value: sources.override, source: 'override', warnings };
    warnings.push(`Ignored threshold override ${sources.override}: expected a fraction in (0, 1].`);
  }

  const { profile, profileThresholds } = sources;
  const profileValue =
    profile !== undefined && profileThresholds !== undefined && Object.hasOwn(profileThresholds, profile)
      ? profileThresholds[profile]
      : undefined;
  if (profileValue !== undefined && profileValue !== INHERIT_THRESHOLD) {
    if (
      Number.isFinite(profileValue) &&
      profileValue >= MIN_CONDENSE_THRESHOLD &&
      profileValue <= MAX_CONDENSE_THRESHOLD
    ) {
      return { value: profileValue / 100, source: 'profile', warnings };
    }
    warnings.push(
      `Ignored threshold ${profileValue} of profile "${sources.profile}": expected ${MIN_CONDENSE_THRESHOLD}..${MAX_CONDENSE_THRESHOLD} (percent) or ${INHERIT_THRESHOLD} (inherit).`,
    );
  }

  if (sources.globalThreshold !== undefined) {
    if (isFraction(sources.globalThreshold)) return { value: sources.globalThreshold, source: 'global', warnings };
    warnings.push(`Ignored compression.threshold ${sources.globalThreshold}: expected a fraction in (0, 1].`);
  }

  return { value: sources.strategyDefault, source: 'strategy-default', warnings };
}
