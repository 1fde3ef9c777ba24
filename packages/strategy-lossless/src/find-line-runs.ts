import { isShownVerbatim, type IndexedSource, type LineIndex } from './line-index.js';
import type { NumberedLine } from './numbered-line.js';
import { trimmedStartLength } from './trimmed-start-length.js';

/** Lines of a string that repeat lines shown earlier: the target lines `start … start + count − 1`. */
export interface LineRun {
  readonly start: number;
  readonly count: number;
  /** The source (a number of the {@link LineIndex}), or undefined for earlier lines of the same string. */
  readonly sourceNumber: number | undefined;
  /** First source line. */
  readonly from: number;
  /** Characters the run covers (each line trimmed at the start, plus its line break): its weight as text. */
  readonly characters: number;
}

/** Options of {@link findLineRuns}. */
export interface FindLineRunsOptions {
  /** `lines` split into number prefix and content ({@link parseNumberedLine}). */
  readonly parsed: readonly NumberedLine[];
  /** Each line's content as an id of `index` ({@link LineIndex.idOf}). */
  readonly ids: readonly number[];
  readonly index: LineIndex;
  /** Whether a run may repeat earlier lines of the same string. */
  readonly allowSelf: boolean;
  /** Occurrences of a line tried as the start of a run, newest first. */
  readonly maximumCandidates: number;
  /** Decides whether the longest run found at a line is worth a marker. */
  readonly accept: (run: LineRun) => boolean;
}

/**
 * Whether lines `index` and `index + 1` can be rebuilt as consecutive lines of one run: both without a number
 * prefix, or both with one, numbered `n` and `n + 1` with the same width and separator.
 */
function continuesNumbering(first: NumberedLine, second: NumberedLine): boolean {
  if (first.number === undefined) return second.number === undefined;
  return (
    second.number === first.number + 1 && second.width === first.width && second.separator === first.separator
  );
}

/**
 * Finds, greedily from the top, the longest runs of `lines` that repeat lines of earlier sources (as they
 * originally were) or earlier lines of the same string: line contents must be equal, number prefixes aside, and a
 * run's own number prefixes must count up by one so that they can be rebuilt. Of equally long runs, one whose
 * source shows the lines verbatim wins. Runs never overlap and a self run only points above its own start, at lines
 * that stay visible.
 *
 * Linear in practice: each line looks up at most `maximumCandidates` occurrences, an accepted run is skipped whole,
 * and lines are compared as ids (a number per distinct content), never character by character.
 *
 * @param lines - The string's lines.
 * @param options - The index of earlier lines and the acceptance rule.
 * @returns The accepted runs, top to bottom.
 * @example
 * ```ts
 * const lines = text.split('\n');
 * const parsed = lines.map(parseNumberedLine);
 * const ids = parsed.map((line) => index.idOf(line.content));
 * const runs = findLineRuns(lines, { parsed, ids, index, allowSelf: true, maximumCandidates: 16, accept: (run) => run.characters >= 200 });
 * ```
 */
export function findLineRuns(lines: readonly string[], options: FindLineRunsOptions): LineRun[] {
  const { index, allowSelf, maximumCandidates, accept, parsed, ids } = options;
  const count = lines.length;
  const weightBefore = new Array<number>(count + 1);
  weightBefore[0] = 0;
  for (let line = 0; line < count; line++) {
    weightBefore[line + 1] = (weightBefore[line] as number) + trimmedStartLength(lines[line] as string) + 1;
  }
  // numberingEnd[i]: the first line after i that cannot continue a run starting at i.
  const numberingEnd = new Array<number>(count);
  for (let line = count - 1; line >= 0; line--) {
    numberingEnd[line] =
      line + 1 < count && continuesNumbering(parsed[line] as NumberedLine, parsed[line + 1] as NumberedLine)
        ? (numberingEnd[line + 1] as number)
        : line + 1;
  }
  const visible = new Array<boolean>(count).fill(false);
  // Earlier visible anchor lines of this string, by id: the newest line, and for each line the previous one with
  // the same id (-1 none).
  const newestEarlier = new Map<number, number>();
  const olderEarlier = allowSelf ? new Array<number>(count).fill(-1) : [];
  const runs: LineRun[] = [];

  let start = 0;
  let limit = 0;
  let best: LineRun | undefined;
  let bestShown = false;
  const consider = (sourceNumber: number | undefined, from: number, length: number) => {
    if (length === 0) return;
    const characters = (weightBefore[start + length] as number) - (weightBefore[start] as number);
    if (best !== undefined && characters < best.characters) return;
    // Of equally long runs, the one the model can read at its source without following another marker.
    const shown = sourceNumber === undefined || isShownVerbatim(index.sources[sourceNumber] as IndexedSource, from, length);
    if (best !== undefined && characters === best.characters && (bestShown || !shown)) return;
    best = { start, count: length, sourceNumber, from, characters };
    bestShown = shown;
  };
  const extendFromSource = (sourceNumber: number, from: number) => {
    const source = (index.sources[sourceNumber] as IndexedSource).ids;
    let length = 0;
    while (start + length < limit && from + length < source.length && source[from + length] === ids[start + length]) {
      length++;
    }
    consider(sourceNumber, from, length);
  };

  while (start < count) {
    const id = ids[start] as number;
    const anchor = index.isAnchorId(id);
    best = undefined;
    if (anchor) {
      limit = numberingEnd[start] as number;
      bestShown = false;
      index.forEachOccurrence(id, maximumCandidates, extendFromSource);
      if (allowSelf) {
        for (let from = newestEarlier.get(id) ?? -1, tried = 0; from !== -1 && tried < maximumCandidates; from = olderEarlier[from] as number, tried++) {
          let length = 0;
          while (start + length < limit && from + length < start && visible[from + length] === true && ids[from + length] === ids[start + length]) {
            length++;
          }
          consider(undefined, from, length);
        }
      }
    }
    // Assigned by `consider`, which the type checker cannot follow.
    const chosen = best as LineRun | undefined;
    if (chosen !== undefined && accept(chosen)) {
      runs.push(chosen);
      start += chosen.count;
      continue;
    }
    visible[start] = true;
    if (allowSelf && anchor) {
      olderEarlier[start] = newestEarlier.get(id) ?? -1;
      newestEarlier.set(id, start);
    }
    start++;
  }
  return runs;
}
