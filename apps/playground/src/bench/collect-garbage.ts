import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs a full garbage collection now. Called before each timed pass and replay, outside the timing, so no
 * measurement pays for collecting the garbage the one before it left (a tokenization pass measured right after a
 * replay would otherwise run slower than on its own). V8 exposes `gc` only to contexts created after
 * `--expose-gc` is set, hence the new context; the flag stays on for this process only.
 */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
