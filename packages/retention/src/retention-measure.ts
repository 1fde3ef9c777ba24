/**
 * How much of one kind of content survived: `kept` of `total`, and what is missing.
 *
 * @example
 * ```ts
 * const { userTexts } = measureRetention(before, after);
 * console.log(`${userTexts.kept}/${userTexts.total} user texts kept`, userTexts.missing);
 * ```
 */
export interface RetentionMeasure {
  readonly total: number;
  readonly kept: number;
  /** kept / total, 1 when total is 0 */
  readonly fraction: number;
  /** up to 20 short descriptions of what is missing */
  readonly missing: readonly string[];
}

/** At most this many descriptions of missing items per measure: enough to act on, short enough for a report. */
const maxMissingDescriptions = 20;

/** The longest excerpt of a text a missing-item description quotes. */
const excerptLength = 60;

/** Counts items as kept or missing and builds the {@link RetentionMeasure}. */
export class RetentionTally {
  private total = 0;
  private kept = 0;
  private readonly missing: string[] = [];

  /** Counts one kept item. */
  keep(): void {
    this.total++;
    this.kept++;
  }

  /** Counts one missing item; `describe` runs only while fewer than 20 descriptions were collected. */
  lose(describe: () => string): void {
    this.total++;
    if (this.missing.length < maxMissingDescriptions) this.missing.push(describe());
  }

  /** The measure of everything counted so far. */
  toMeasure(): RetentionMeasure {
    return {
      total: this.total,
      kept: this.kept,
      fraction: this.total === 0 ? 1 : this.kept / this.total,
      missing: [...this.missing],
    };
  }
}

/**
 * A short, quoted, one-line excerpt of `text` for a missing-item description.
 *
 * @param text - Any text.
 * @returns `"first 60 characters…"` with line breaks shown as spaces.
 */
export function quoteExcerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > excerptLength ? `${line.slice(0, excerptLength)}…` : line);
}
