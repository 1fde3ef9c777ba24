import type { PassConfig } from './smart-passes-settings.js';

/**
 * The entries a pass may touch, as `[start, end)` into the history it sees (spec 004 FR-SM-003 selection):
 * `preserve_recent` leaves the newest `keepRecentCount` entries alone, `preserve_percent` the newest
 * `keepPercentage`% (rounded up), and `custom` takes `[from, to)`, where a negative index counts from the end.
 *
 * @param selection - The pass's selection.
 * @param length - Entries in the history the pass sees.
 * @returns The range, clamped to the history; empty when `start >= end`.
 * @example
 * ```ts
 * selectPassRange({ type: 'preserve_recent', keepRecentCount: 3 }, 10); // { start: 0, end: 7 }
 * selectPassRange({ type: 'custom', from: -4 }, 10); // { start: 6, end: 10 }
 * ```
 */
export function selectPassRange(selection: PassConfig['selection'], length: number): { start: number; end: number } {
  switch (selection.type) {
    case 'preserve_recent':
      return { start: 0, end: Math.max(0, length - selection.keepRecentCount) };
    case 'preserve_percent':
      return { start: 0, end: Math.max(0, length - Math.ceil((length * selection.keepPercentage) / 100)) };
    case 'custom': {
      const resolve = (index: number | undefined, fallback: number) => {
        if (index === undefined) return fallback;
        return Math.min(length, Math.max(0, index < 0 ? length + index : index));
      };
      return { start: resolve(selection.from, 0), end: resolve(selection.to, length) };
    }
  }
}
