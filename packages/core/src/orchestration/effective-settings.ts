import { densityDefaults, type CompressionSettings } from '../settings/compression-settings.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { DensityConfig } from '../strategy/density-result.js';
import { resolveThreshold, type ResolvedThreshold } from '../thresholds/resolve-threshold.js';

/** The settings in effect for a profile (spec 004 FR-PA-002 `getEffectiveConfig`). */
export interface EffectiveCompressionSettings {
  readonly strategy: string;
  readonly fallbackStrategies: readonly string[];
  readonly profile: string;
  readonly threshold: ResolvedThreshold;
  readonly contextLimit: number;
  readonly reservedOutputTokens: number;
  readonly density: DensityConfig;
}

/** What {@link resolveEffectiveSettings} resolves from. */
export interface EffectiveSettingsSources {
  readonly strategy: CompressionStrategy;
  readonly settings: CompressionSettings;
  readonly profile: string;
  readonly thresholdOverride: number | undefined;
  readonly contextLimit: number;
  readonly workspaceRoot: string;
}

/**
 * The settings in effect for the active strategy and a profile: the threshold by precedence (spec 000
 * BR-THRESH-001 with spec 004 FR-TH-001), the fallbacks without the active strategy itself, and each density toggle
 * from the session's `compression.density.*` setting, else the strategy's own setting of that name (so a strategy
 * created with `recencyPruning: true` prunes by recency), else spec 000's default.
 */
export function resolveEffectiveSettings(sources: EffectiveSettingsSources): EffectiveCompressionSettings {
  const { strategy, settings, profile } = sources;
  const own = (strategy.settings ?? {}) as Readonly<Record<string, unknown>>;
  const ownBoolean = (key: string) => (typeof own[key] === 'boolean' ? own[key] : undefined);
  const ownInteger = (key: string) => (Number.isInteger(own[key]) ? (own[key] as number) : undefined);
  return {
    strategy: strategy.name,
    fallbackStrategies: settings['compression.fallbackStrategies'].filter((name) => name !== strategy.name),
    profile,
    threshold: resolveThreshold({
      override: sources.thresholdOverride,
      profile,
      profileThresholds: settings['compression.profileThresholds'],
      globalThreshold: settings['compression.threshold'],
      strategyDefault: strategy.trigger.defaultThreshold,
    }),
    contextLimit: sources.contextLimit,
    reservedOutputTokens: settings['compression.reservedOutputTokens'],
    density: {
      readWritePruning:
        settings['compression.density.readWritePruning'] ?? ownBoolean('readWritePruning') ?? densityDefaults.readWritePruning,
      fileDedupe: settings['compression.density.fileDedupe'] ?? ownBoolean('fileDedupe') ?? densityDefaults.fileDedupe,
      recencyPruning:
        settings['compression.density.recencyPruning'] ?? ownBoolean('recencyPruning') ?? densityDefaults.recencyPruning,
      recencyRetention:
        settings['compression.density.recencyRetention'] ?? ownInteger('recencyRetention') ?? densityDefaults.recencyRetention,
      workspaceRoot: sources.workspaceRoot,
    },
  };
}
