import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8 exposes `gc` only to contexts created after `--expose-gc` is set, hence the new context; the flag stays on for
// this process only.
const gc = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as (options?: { readonly type: 'minor' | 'major' }) => void;
})();

/**
 * Runs a full garbage collection now. Called before each timed pass and replay, outside the timing, so no
 * measurement pays for collecting the garbage the one before it left (a tokenization pass measured right after a
 * replay would otherwise run slower than on its own).
 */
export const collectGarbage: () => void = () => gc();

/**
 * Collects the young generation only (a scavenge): called between preparing a timed call and timing it, so the call
 * does not pay for collecting what its preparation left (a session copied and validated), without the full
 * collection's side effects (everything moved to the old generation, caches cold).
 */
export const collectYoungGarbage: () => void = () => gc({ type: 'minor' });
