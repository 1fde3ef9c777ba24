import { z } from 'zod';
import { InvalidApiProfileError } from '../errors/invalid-api-profile-error.js';
import { formatIssuePath, type ValidationIssue } from '../errors/validation-issue.js';
import type { CostModel } from '../strategy/cost-model.js';
import type { Summarizer } from '../strategy/summarizer.js';
import { INHERIT_THRESHOLD, MAX_CONDENSE_THRESHOLD, MIN_CONDENSE_THRESHOLD } from '../thresholds/threshold-constants.js';

/**
 * Named settings for one model a conversation can use (spec 004 FR-PR-001): the conversation runs on one profile,
 * and LLM strategies condense with another (a cheaper model, FR-CO-003). The application persists the ids it selects
 * (`compression.profile`, `compression.condensingProfile`); the profiles themselves carry live objects (a summarizer,
 * a cost model) and are passed to the orchestrator in code.
 */
export interface ApiProfile {
  /** What settings select it by, e.g. `sonnet` or `cheap-condenser`. */
  readonly id: string;
  /** A name for people; the id when absent. */
  readonly name?: string;
  /** The provider's model id, e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** The model's context window, in its tokens. */
  readonly contextWindow: number;
  /** Tokens kept free for the model's answer (its `max_tokens`) when this profile runs the conversation. */
  readonly maxOutputTokens?: number;
  /** Prices the model: turn reports, `estimateStrategyCost` and cache-aware planning use it. */
  readonly costModel?: CostModel;
  /** Summarizes with this model when the profile is the condensing one (or the conversation's, as the fallback). */
  readonly summarizer?: Summarizer;
  /**
   * The compression threshold while this profile runs the conversation, in percent of its window: 5..100, or -1 to
   * inherit the global one (spec 004 FR-TH-001). Overridden by `compression.profileThresholds` when that names it.
   */
  readonly threshold?: number;
  /**
   * The condensing prompt LLM strategies use when this profile condenses (spec 004 FR-PR-003): beats a strategy's
   * own `customPrompt` setting, else the strategy's built-in prompt is used.
   */
  readonly condensingPrompt?: string;
}

/** Longest condensing prompt accepted, in characters. */
export const MAX_CONDENSING_PROMPT_CHARACTERS = 20_000;

const liveObject = (method: string) =>
  z.custom<object>(
    (value) => typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function',
    { message: `expected an object with a ${method}() method` },
  );

const apiProfileSchema = z.strictObject({
  id: z.string().trim().min(1, 'expected a non-empty id'),
  name: z.string().min(1).optional(),
  model: z.string().trim().min(1, 'expected a model id'),
  contextWindow: z.int('expected a whole number of tokens').positive('expected a positive number of tokens'),
  maxOutputTokens: z.int().nonnegative().optional(),
  costModel: liveObject('price').optional(),
  summarizer: liveObject('summarize').optional(),
  threshold: z
    .number()
    .refine(
      (value) => value === INHERIT_THRESHOLD || (value >= MIN_CONDENSE_THRESHOLD && value <= MAX_CONDENSE_THRESHOLD),
      { message: `expected ${MIN_CONDENSE_THRESHOLD}..${MAX_CONDENSE_THRESHOLD} (percent) or ${INHERIT_THRESHOLD} (inherit)` },
    )
    .optional(),
  condensingPrompt: z
    .string()
    .refine((value) => value.trim() !== '', { message: 'expected a prompt, got only white space' })
    .refine((value) => value.length <= MAX_CONDENSING_PROMPT_CHARACTERS, {
      message: `expected at most ${MAX_CONDENSING_PROMPT_CHARACTERS} characters`,
    })
    .optional(),
});

/**
 * Validates API profiles (spec 004 FR-PR-001): every field, and that ids are unique. Returns them frozen, in order.
 *
 * @throws {@link InvalidApiProfileError} listing every problem with its path.
 * @example
 * ```ts
 * const profiles = parseApiProfiles([
 *   { id: 'sonnet', model: 'claude-sonnet-4-5', contextWindow: 200_000, costModel: sonnetCost, threshold: 80 },
 *   { id: 'haiku', model: 'claude-haiku-4-5', contextWindow: 200_000, costModel: haikuCost, summarizer: haikuSummarizer },
 * ]);
 * ```
 */
export function parseApiProfiles(profiles: unknown): readonly ApiProfile[] {
  const parsed = z.array(apiProfileSchema).safeParse(profiles);
  if (!parsed.success) {
    throw new InvalidApiProfileError({
      issues: parsed.error.issues.map((issue) => ({ path: formatIssuePath(issue.path, 'profiles'), message: issue.message })),
    });
  }
  const issues: ValidationIssue[] = [];
  const seen = new Map<string, number>();
  for (const [index, profile] of parsed.data.entries()) {
    const first = seen.get(profile.id);
    if (first === undefined) seen.set(profile.id, index);
    else issues.push({ path: `profiles[${index}].id`, message: `"${profile.id}" is already the id of profiles[${first}]` });
  }
  if (issues.length > 0) throw new InvalidApiProfileError({ issues });
  // The input objects, not zod's copies: summarizers and cost models keep their identity and methods.
  return Object.freeze((profiles as readonly ApiProfile[]).map((profile) => Object.freeze({ ...profile })));
}
