import type { HistoryEntry } from '@ctx/core';
import type { LosslessSettings } from './lossless-settings.js';
import { createReferencePlanCache, type ReferencePlanCache } from './reference-plan-cache.js';

// Distinct settings whose plans are kept; the least recently used settings go first (a caller that makes strategies
// with ever new settings cannot grow this without bound).
const maximumSettings = 8;
const cachesBySettings = new Map<string, ReferencePlanCache>();

// Keys of frozen settings objects, which cannot change: worked out once.
const keysOfFrozenSettings = new WeakMap<LosslessSettings, string>();

/** A key equal for equal settings, whatever order their keys came in. */
function settingsKey(settings: LosslessSettings): string {
  const known = keysOfFrozenSettings.get(settings);
  if (known !== undefined) return known;
  const key = JSON.stringify(Object.entries(settings).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
  if (Object.isFrozen(settings)) keysOfFrozenSettings.set(settings, key);
  return key;
}

/**
 * Whether every entry of `history` is frozen, as `HistoryService` holds them (each validated, copied and frozen once,
 * at the trust boundary): such entries never change, so a plan of them is valid for whoever asks.
 *
 * @param history - The history.
 * @returns True when no entry can be changed in place.
 * @example
 * ```ts
 * isFrozenHistory(parseHistory(entries)); // true
 * ```
 */
export function isFrozenHistory(history: readonly HistoryEntry[]): boolean {
  for (const entry of history) if (!Object.isFrozen(entry)) return false;
  return true;
}

/**
 * The {@link ReferencePlanCache} every lossless strategy with these settings shares, for frozen histories: a new
 * strategy (a new process step, a preset built again, a `compress()` by a fresh instance) asked about a history
 * another one planned plans only what that one has not, and hands out the very replacement entries it planned.
 *
 * Sharing is safe for the same reasons a cache shared by conversations is: plans are kept by input, never by caller
 * (a history is checked entry by entry against a kept plan before that plan is used), every answer equals a full
 * plan's, and what planning frozen entries builds is frozen too. Only frozen histories may be passed: an unfrozen
 * entry could be changed in place between two callers' calls.
 *
 * @param settings - The strategies' settings; plans are kept apart per distinct settings. Pass a frozen object when
 *   asking often: its key is then worked out once.
 * @returns The cache for these settings.
 * @example
 * ```ts
 * const plans = isFrozenHistory(history) ? sharedReferencePlans(settings) : ownPlans;
 * ```
 */
export function sharedReferencePlans(settings: LosslessSettings): ReferencePlanCache {
  const key = settingsKey(settings);
  let cache = cachesBySettings.get(key);
  if (cache === undefined) {
    // A frozen copy: the caches outlive the strategy that made them, and its settings object could be changed.
    cache = createReferencePlanCache(Object.freeze({ ...settings }));
  } else {
    cachesBySettings.delete(key);
  }
  cachesBySettings.set(key, cache);
  for (const oldest of cachesBySettings.keys()) {
    if (cachesBySettings.size <= maximumSettings) break;
    cachesBySettings.delete(oldest);
  }
  return cache;
}
