import { isAnchor, isShownVerbatim, type IndexedSource, type LineIndex } from './line-index.js';
import { parseNumberedLine, type NumberedLine } from './numbered-line.js';

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
  /** `lines` already split into number prefix and content, when the caller has them (saves parsing twice). */
  readonly parsed?: readonly NumberedLine[];
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
 * Linear in practice: each line looks up at most `maximumCandidates` occurrences, and an accepted run is skipped
 * whole.
 *
 * @param lines - The string's lines.
 * @param options - The index of earlier lines and the acceptance rule.
 * @returns The accepted runs, top to bottom.
 * @example
 * ```ts
 * const runs = findLineRuns(text.split('\n'), { index, allowSelf: true, maximumCandidates: 16, accept: (run) => run.characters >= 200 });
 * ```
 */
export function findLineRuns(lines: readonly string[], options: FindLineRunsOptions): LineRun[] {
  const { index, allowSelf, maximumCandidates, accept } = options;
  const count = lines.length;
  const parsed = options.parsed ?? lines.map(parseNumberedLine);
  const contents = parsed.map((line) => line.content);
  const weightBefore = new Array<number>(count + 1);
  weightBefore[0] = 0;
  for (let line = 0; line < count; line++) {
    weightBefore[line + 1] = (weightBefore[line] as number) + (lines[line] as string).trimStart().length + 1;
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
  const earlier = new Map<string, number[]>();
  const runs: LineRun[] = [];

  let start = 0;
  while (start < count) {
    const content = contents[start] as string;
    let best: LineRun | undefined;
    if (isAnchor(content)) {
      const limit = numberingEnd[start] as number;
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
      index.forEachOccurrence(content, maximumCandidates, (sourceNumber, from) => {
        const source = (index.sources[sourceNumber] as IndexedSource).contents;
        let length = 0;
        while (start + length < limit && from + length < source.length && source[from + length] === contents[start + length]) {
          length++;
        }
        consider(sourceNumber, from, length);
      });
      if (allowSelf) {
        const positions = earlier.get(content) ?? [];
        for (let position = positions.length - 1, tried = 0; position >= 0 && tried < maximumCandidates; position--, tried++) {
          const from = positions[position] as number;
          let length = 0;
          while (
            start + length < limit &&
            from + length < start &&
            visible[from + length] === true &&
            contents[from + length] === contents[start + length]
          ) {
            length++;
          }
          consider(undefined, from, length);
        }
      }
    }
    const chosen: LineRun | undefined = best;
    if (chosen !== undefined && accept(chosen)) {
      runs.push(chosen);
      start += chosen.count;
      continue;
    }
    visible[start] = true;
    if (allowSelf && isAnchor(content)) {
      const positions = earlier.get(content);
      if (positions === undefined) earlier.set(content, [start]);
      else positions.push(start);
    }
    start++;
  }
  return runs;
}
