import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { ValidationIssue } from '../errors/validation-issue.js';

/**
 * How the correction factor follows the provider's real counts:
 * - `latest-ratio` (spec 002 §5.1, §6.1): the factor is the latest call's `real ÷ estimate`.
 * - `moving-average`: an exponential moving average of those ratios (gemini-cli's approach), seeded with the first
 *   one, so one unusual call moves the factor only by `smoothing` of the difference.
 */
export type CalibrationMethod = 'latest-ratio' | 'moving-average';

/** Options of {@link createTokenCalibration}. */
export interface TokenCalibrationOptions {
  /**
   * How the factor follows the measured ratios.
   * @default 'latest-ratio'
   */
  readonly method?: CalibrationMethod;
  /**
   * The factor used before the provider has reported any usage, and the least factor used after a compaction until
   * it reports again (spec 002: 1.5 before any real count is known). Set it to 1 when your tokenizer is the
   * provider's own.
   * @default 1.5
   */
  readonly initialFactor?: number;
  /**
   * The smallest factor: our count is never scaled down below this share of itself (spec 002 floors at 1).
   * @default 1
   */
  readonly minFactor?: number;
  /**
   * The largest factor (spec 002 §6.1 caps at 5), so one anomalous call cannot make every later turn compress.
   * @default 5
   */
  readonly maxFactor?: number;
  /**
   * For `moving-average`: the weight of the newest ratio, in (0, 1].
   * @default 0.5
   */
  readonly smoothing?: number;
}

/** One model call: our estimate of the request and what the provider counted. */
export interface CalibrationSample {
  /** Tokens of the request as our tokenizer counted it (history, system, tools, pending message). */
  readonly estimatedTokens: number;
  /** Input tokens the provider counted for the same request, cached tokens included. */
  readonly actualTokens: number;
}

/** Where the current factor comes from. */
export type CalibrationSource =
  /** No usage reported yet: `initialFactor`. */
  | 'initial'
  /** Measured from the provider's reported usage. */
  | 'measured'
  /** A compaction rewrote the history since the last usage: the larger of the measured and the initial factor. */
  | 'reset'
  /** Calibration is turned off: the factor is 1. */
  | 'off';

/** The calibration's state, for reports and UIs. */
export interface CalibrationState {
  /** What our token counts are multiplied by before any decision. */
  readonly factor: number;
  readonly source: CalibrationSource;
  readonly method: CalibrationMethod;
  /** Usage reports taken into account so far. */
  readonly samples: number;
  /** The newest usage report, with its raw ratio (before the clamp). */
  readonly lastSample?: CalibrationSample & { readonly ratio: number };
}

/**
 * Turns our tokenizer's counts into the provider's: every decision the orchestrator makes (threshold, compression
 * target, emergency) multiplies our count by {@link TokenCalibration.getFactor}. Our tokenizer is rarely the
 * provider's (o200k under-counts Claude by ~10–30%, and a `chars ÷ 4` heuristic under-counts JSON by more), so a
 * request that looks like 80% of the window can be over it.
 */
export interface TokenCalibration {
  /** The resolved options. */
  readonly options: Readonly<Required<TokenCalibrationOptions>> & { readonly enabled: boolean };
  /** The factor in effect. */
  getFactor(): number;
  getState(): CalibrationState;
  /**
   * Takes one call's real count into account.
   *
   * @throws {@link InvalidSettingsError} when a figure is not a whole number ≥ 0 (`estimatedTokens` must be ≥ 1).
   */
  record(sample: CalibrationSample): CalibrationState;
  /**
   * A compaction rewrote the history: its content (and so the ratio) changed, so until the provider reports again
   * the factor is the larger of the measured one and `initialFactor` (spec 002 `resetCalibration`, never lowering
   * the factor below what was measured: a measured 3× stays 3×).
   */
  resetAfterCompaction(): void;
}

const defaults = {
  method: 'latest-ratio',
  initialFactor: 1.5,
  minFactor: 1,
  maxFactor: 5,
  smoothing: 0.5,
} as const satisfies Required<TokenCalibrationOptions>;

function validateOptions(options: TokenCalibrationOptions): Required<TokenCalibrationOptions> {
  const resolved = { ...defaults, ...options };
  const issues: ValidationIssue[] = [];
  const positive = (key: 'initialFactor' | 'minFactor' | 'maxFactor') => {
    const value = resolved[key];
    if (!(Number.isFinite(value) && value > 0)) issues.push({ path: key, message: `Expected a positive number, got ${String(value)}` });
  };
  positive('initialFactor');
  positive('minFactor');
  positive('maxFactor');
  if (resolved.method !== 'latest-ratio' && resolved.method !== 'moving-average') {
    issues.push({ path: 'method', message: `Expected "latest-ratio" or "moving-average", got ${JSON.stringify(resolved.method)}` });
  }
  if (!(Number.isFinite(resolved.smoothing) && resolved.smoothing > 0 && resolved.smoothing <= 1)) {
    issues.push({ path: 'smoothing', message: `Expected a number in (0, 1], got ${String(resolved.smoothing)}` });
  }
  if (issues.length === 0 && resolved.minFactor > resolved.maxFactor) {
    issues.push({ path: 'minFactor', message: `Expected minFactor ≤ maxFactor, got ${resolved.minFactor} > ${resolved.maxFactor}` });
  }
  if (issues.length > 0) throw new InvalidSettingsError({ issues: issues.map((issue) => ({ ...issue, path: `calibration.${issue.path}` })) });
  return resolved;
}

/**
 * Creates a {@link TokenCalibration}. Pass `false` to turn calibration off (the factor stays 1 and usage reports
 * are ignored): for measuring in your own tokenizer's units, as `ctx compare` does.
 *
 * @throws {@link InvalidSettingsError} for options out of range (factors ≤ 0, `minFactor > maxFactor`, `smoothing`
 *   outside (0, 1]).
 *
 * @example
 * ```ts
 * const calibration = createTokenCalibration({ method: 'moving-average' });
 * calibration.getFactor(); // 1.5, before any usage
 * calibration.record({ estimatedTokens: 10_000, actualTokens: 11_800 });
 * calibration.getFactor(); // 1.18: the first sample seeds the average
 * calibration.record({ estimatedTokens: 20_000, actualTokens: 26_000 });
 * calibration.getFactor(); // 1.24: halfway from 1.18 to 1.3
 * ```
 */
export function createTokenCalibration(options: TokenCalibrationOptions | false = {}): TokenCalibration {
  const enabled = options !== false;
  const resolved = validateOptions(options === false ? {} : options);
  const clamp = (ratio: number) => Math.min(resolved.maxFactor, Math.max(resolved.minFactor, ratio));
  let measured: number | undefined;
  let source: CalibrationSource = enabled ? 'initial' : 'off';
  let samples = 0;
  let lastSample: CalibrationState['lastSample'];

  const getFactor = (): number => {
    if (!enabled) return 1;
    if (measured === undefined) return clamp(resolved.initialFactor);
    return source === 'reset' ? Math.max(measured, clamp(resolved.initialFactor)) : measured;
  };

  const getState = (): CalibrationState => ({
    factor: getFactor(),
    source,
    method: resolved.method,
    samples,
    ...(lastSample === undefined ? {} : { lastSample }),
  });

  return {
    options: { ...resolved, enabled },
    getFactor,
    getState,
    record({ estimatedTokens, actualTokens }) {
      const issues: ValidationIssue[] = [];
      if (!(Number.isSafeInteger(estimatedTokens) && estimatedTokens >= 1)) {
        issues.push({ path: 'estimatedTokens', message: `Expected a whole number of tokens ≥ 1, got ${String(estimatedTokens)}` });
      }
      if (!(Number.isSafeInteger(actualTokens) && actualTokens >= 0)) {
        issues.push({ path: 'actualTokens', message: `Expected a whole number of tokens ≥ 0, got ${String(actualTokens)}` });
      }
      if (issues.length > 0) throw new InvalidSettingsError({ issues });
      const ratio = actualTokens / estimatedTokens;
      samples += 1;
      lastSample = { estimatedTokens, actualTokens, ratio };
      if (!enabled) return getState();
      const clamped = clamp(ratio);
      measured =
        resolved.method === 'moving-average' && measured !== undefined
          ? clamp(resolved.smoothing * clamped + (1 - resolved.smoothing) * measured)
          : clamped;
      source = 'measured';
      return getState();
    },
    resetAfterCompaction() {
      if (enabled && measured !== undefined) source = 'reset';
    },
  };
}
