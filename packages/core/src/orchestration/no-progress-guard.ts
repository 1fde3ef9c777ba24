/** The state of the world a compression attempt saw, to tell later whether anything changed since. */
export interface AttemptShape {
  /** The strategies tried, in order. */
  readonly chain: readonly string[];
  /** Bumped by every change to the history (appends included). */
  readonly historyVersion: number;
  /** Bumped by changes that rewrite the history (density, compaction, clear, system or tools). */
  readonly rewriteVersion: number;
  /** Bumped by every settings change (strategy, thresholds, profile). */
  readonly settingsVersion: number;
  /** The calibration factor the budget was computed with. */
  readonly factor: number;
  /** Tokens of the history (uncalibrated). */
  readonly tokens: number;
}

/**
 * Whether to skip an attempt, and the sentence that says why: `unchanged` when nothing changed at all (the outcome
 * would be the same; even the emergency path skips it), `growth` when a threshold-triggered attempt waits for more
 * content (the emergency path never waits for growth).
 */
export type GuardVerdict =
  | { readonly skip: false }
  | { readonly skip: true; readonly why: 'unchanged' | 'growth'; readonly message: string };

/**
 * The no-progress guard: after a compression attempt that made no progress — nothing applied, or applied but still
 * above the compression target (a shortfall) — it tells whether the next attempt could turn out differently. Keyed
 * on what changed, not on growth alone:
 * - nothing at all changed since an attempt that applied nothing (history, settings, calibration): the same
 *   strategies on the same input give the same answer, so skip, even on the emergency path;
 * - only appended content since (no rewrite, same settings and factor): a threshold-triggered attempt waits until the
 *   history grew by `retryAfterGrowth` of the window, so a chain that cannot reach its target does not run — and
 *   rewrite the history, invalidating the provider's prompt cache — on every turn (spec 002's anti-thrash rule);
 * - a rewrite, a settings change or a new calibration factor retries at once;
 * - the emergency path (the request does not fit) never waits for growth: what was appended may be what the chain
 *   can now shrink (a giant output that is no longer the newest).
 */
export interface NoProgressGuard {
  check(current: AttemptShape): GuardVerdict;
  /** An attempt in which nothing was applied; `shape` is the state it saw. */
  recordNoProgress(shape: AttemptShape): void;
  /** An attempt applied something but left the request above the target; `shape` is the state after it. */
  recordShortfall(shape: AttemptShape): void;
  /** An attempt reached its target: forget the failed one. */
  clear(): void;
}

/**
 * How far the calibration factor may move before it counts as a change: providers round their counts, so the
 * measured factor jitters by a fraction of a percent from call to call without the budget really changing.
 */
const factorTolerance = 0.01;

/**
 * Creates a {@link NoProgressGuard}.
 *
 * @param growthTokens - How many tokens the history must grow by before a threshold-triggered retry.
 */
export function createNoProgressGuard(growthTokens: number): NoProgressGuard {
  let last: (AttemptShape & { readonly applied: boolean }) | undefined;
  const sameChain = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((name, index) => name === b[index]);

  return {
    check(current) {
      if (last === undefined || !sameChain(last.chain, current.chain) || last.settingsVersion !== current.settingsVersion) {
        return { skip: false };
      }
      if (Math.abs(last.factor - current.factor) > factorTolerance * last.factor) return { skip: false };
      if (!last.applied && last.historyVersion === current.historyVersion) {
        return {
          skip: true,
          why: 'unchanged',
          message: `nothing changed since the last attempt (${last.chain.join(' → ')}) made no progress at ${last.tokens} tokens`,
        };
      }
      if (last.rewriteVersion === current.rewriteVersion && current.tokens < last.tokens + growthTokens) {
        const what = last.applied
          ? `the last compression (${last.chain.join(' → ')}) left ${last.tokens} tokens, above its target`
          : `the last attempt (${last.chain.join(' → ')}) at ${last.tokens} tokens made no progress`;
        return {
          skip: true,
          why: 'growth',
          message: `${what}; retrying once the history grows by ${Math.ceil(growthTokens)} tokens`,
        };
      }
      return { skip: false };
    },
    recordNoProgress(shape) {
      last = { ...shape, applied: false };
    },
    recordShortfall(shape) {
      last = { ...shape, applied: true };
    },
    clear() {
      last = undefined;
    },
  };
}
