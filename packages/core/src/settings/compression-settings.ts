import { z } from 'zod';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { formatIssuePath } from '../errors/validation-issue.js';
import { findPrototypeKeys } from './find-prototype-keys.js';
import { parseCompressionStrategyName, type StrategyRegistry } from '../strategy/strategy-registry.js';
import { INHERIT_THRESHOLD, MAX_CONDENSE_THRESHOLD, MIN_CONDENSE_THRESHOLD } from '../thresholds/threshold-constants.js';

const profileThresholdSchema = z.union([
  z.literal(INHERIT_THRESHOLD),
  z.number().min(MIN_CONDENSE_THRESHOLD).max(MAX_CONDENSE_THRESHOLD),
]);

const compressionSettingsSchema = z.strictObject({
  'compression.strategy': z
    .string()
    .min(1)
    .optional()
    .describe('Name of the active compression strategy. Defaults to the first registered strategy.'),
  'compression.fallbackStrategies': z
    .array(z.string().min(1))
    .default([])
    .describe(
      'Strategies tried, in order, when the active strategy throws, returns a no-op or makes no progress, or applied but left the request over the threshold (then on its result; spec 004 NFR-R-002).',
    ),
  'compression.profile': z
    .string()
    .min(1)
    .default('default')
    .describe('The active profile; selects its entry in compression.profileThresholds.'),
  'compression.condensingProfile': z
    .string()
    .min(1)
    .optional()
    .describe(
      "The API profile LLM strategies condense with (spec 004 FR-PR-001/002); the conversation's profile when unset or unusable.",
    ),
  'compression.threshold': z
    .number()
    .gt(0)
    .lte(1)
    .optional()
    .describe("Global compression threshold as a fraction of the context window; overrides the strategy's default."),
  'compression.profileThresholds': z
    .record(z.string(), profileThresholdSchema)
    .default({})
    .describe('Per-profile thresholds in percent (5..100), or -1 to inherit (spec 004 FR-TH-001).'),
  'compression.reservedOutputTokens': z
    .int()
    .nonnegative()
    .default(0)
    .describe("Tokens kept free for the model's answer (its max_tokens); used by the absolute trigger."),
  // Density settings have no schema default: unset means "the strategy's own setting, else the spec default"
  // (see densityDefaults and the orchestrator's getEffectiveSettings).
  'compression.density.readWritePruning': z
    .boolean()
    .optional()
    .describe('Drop file reads made stale by a later write (spec 000 §3a).'),
  'compression.density.fileDedupe': z
    .boolean()
    .optional()
    .describe('Keep only the newest @-inclusion of each file (spec 000 §3b).'),
  'compression.density.recencyPruning': z
    .boolean()
    .optional()
    .describe('Keep only the newest N results per tool (spec 000 §3c).'),
  'compression.density.recencyRetention': z
    .int()
    .optional()
    .describe('Results kept per tool when recency pruning is on; values below 1 mean 1.'),
});

/**
 * Spec 000's defaults for the density toggles, used when neither the session settings nor the strategy's own
 * settings set them.
 */
export const densityDefaults = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
} as const;

/**
 * Validated compression settings (spec 000 "Settings / Configuration Relationships"), keyed by their dotted names.
 * Defaults are filled in.
 */
export type CompressionSettings = z.output<typeof compressionSettingsSchema>;

/** Compression settings as a user writes them: every key optional. */
export type CompressionSettingsInput = z.input<typeof compressionSettingsSchema>;

/** One setting, for listings, help text and settings UIs. */
export interface SettingDescriptor {
  readonly key: keyof CompressionSettings;
  readonly description: string;
  /** The default, or undefined when the setting has none. */
  readonly defaultValue: unknown;
  /** The setting's JSON Schema. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/**
 * Validates compression settings and fills in defaults.
 *
 * @param input - Settings keyed by dotted name, e.g. `{ 'compression.density.recencyPruning': true }`.
 * @param options.strategies - When given, `compression.strategy` and `compression.fallbackStrategies` must name
 *   registered strategies.
 * @throws {@link InvalidSettingsError} listing `key: problem` lines.
 * @throws {@link UnknownStrategyError} for an unregistered strategy name (spec 000 ERR-001).
 */
export function parseCompressionSettings(
  input: unknown,
  options: { readonly strategies?: StrategyRegistry | readonly string[] } = {},
): CompressionSettings {
  const prototypeKeys = findPrototypeKeys(input);
  if (prototypeKeys.length > 0) throw new InvalidSettingsError({ issues: prototypeKeys });
  const result = compressionSettingsSchema.safeParse(input ?? {});
  if (!result.success) {
    throw new InvalidSettingsError({
      issues: result.error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
      cause: result.error,
    });
  }
  const settings = result.data;
  if (options.strategies !== undefined) {
    if (settings['compression.strategy'] !== undefined) {
      parseCompressionStrategyName(settings['compression.strategy'], options.strategies);
    }
    for (const name of settings['compression.fallbackStrategies']) {
      parseCompressionStrategyName(name, options.strategies);
    }
  }
  return settings;
}

/** Every compression setting with its description, default and JSON Schema. */
export function describeCompressionSettings(): readonly SettingDescriptor[] {
  const defaults: Record<string, unknown> = {
    ...compressionSettingsSchema.parse({}),
    'compression.density.readWritePruning': densityDefaults.readWritePruning,
    'compression.density.fileDedupe': densityDefaults.fileDedupe,
    'compression.density.recencyPruning': densityDefaults.recencyPruning,
    'compression.density.recencyRetention': densityDefaults.recencyRetention,
  };
  const jsonSchema = z.toJSONSchema(compressionSettingsSchema, { io: 'input' }) as {
    properties?: Record<string, Record<string, unknown>>;
  };
  return (Object.keys(compressionSettingsSchema.shape) as (keyof CompressionSettings)[]).map((key) => ({
    key,
    description: compressionSettingsSchema.shape[key].description ?? '',
    defaultValue: defaults[key],
    schema: jsonSchema.properties?.[key] ?? {},
  }));
}
