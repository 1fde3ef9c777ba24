import type { FormatWarning } from '@ctx/core';

/**
 * Collects an encoder's losses once per kind, so a long history gives a short warning list: the first occurrence of
 * each kind is the warning, later ones only count.
 *
 * @example
 * ```ts
 * const losses = new LossCollector();
 * losses.add('filename', { type: 'lossy', message: 'media filename was dropped', path: 'history[3].blocks[0]' });
 * losses.add('filename', { type: 'lossy', message: 'media filename was dropped', path: 'history[9].blocks[1]' });
 * losses.toWarnings(); // [{ type: 'lossy', message: 'media filename was dropped (2 times; first at history[3].blocks[0])', path: 'history[3].blocks[0]' }]
 * ```
 */
export class LossCollector {
  private readonly counts = new Map<string, { warning: FormatWarning; count: number }>();

  /**
   * Records one occurrence of a loss.
   *
   * @param key - Groups occurrences of the same kind, e.g. `filename` or `metadata:openai`.
   * @param warning - The warning of the first occurrence; later ones of the same key only count.
   */
  add(key: string, warning: FormatWarning): void {
    const existing = this.counts.get(key);
    if (existing === undefined) this.counts.set(key, { warning, count: 1 });
    else existing.count += 1;
  }

  /**
   * One warning per kind, in order of first occurrence; a kind seen more than once says how often and where first.
   *
   * @returns The warnings.
   */
  toWarnings(): FormatWarning[] {
    return [...this.counts.values()].map(({ warning, count }) =>
      count === 1 ? warning : { ...warning, message: `${warning.message} (${count} times; first at ${warning.path ?? 'the conversation'})` },
    );
  }
}
