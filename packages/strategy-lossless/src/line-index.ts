import type { ToolCallBlock } from '@ctx/core';
import type { ReferenceSource } from './lossless-record.js';
import { parseNumberedLine } from './numbered-line.js';

/** A string shown earlier in the history whose lines later output may point at. */
export interface IndexedSource {
  readonly source: Extract<ReferenceSource, { kind: 'result' | 'call' }>;
  /** Entry and block holding it, in the history being planned. */
  readonly entryIndex: number;
  readonly blockIndex: number;
  /** The tool call that produced it (for a result) or that holds it (for parameters). */
  readonly call: ToolCallBlock | undefined;
  /**
   * Original lines, those behind a marker included (a reference may point through one: it resolves, and expands,
   * in order); undefined where the original could not be rebuilt.
   */
  readonly lines: readonly (string | undefined)[];
  /** Line contents without number prefixes, undefined where unknown. */
  readonly contents: readonly (string | undefined)[];
  /** Which lines the model sees behind a marker rather than verbatim; undefined when none. */
  readonly hidden: readonly boolean[] | undefined;
}

/**
 * True when the model sees lines `from … from + count − 1` of a source verbatim (no marker in between).
 *
 * @param source - An indexed source.
 * @param from - First line.
 * @param count - Number of lines.
 * @returns Whether none of them is behind a marker.
 * @example
 * ```ts
 * isShownVerbatim(source, 0, source.lines.length);
 * ```
 */
export function isShownVerbatim(source: Pick<IndexedSource, 'hidden'>, from: number, count: number): boolean {
  if (source.hidden === undefined) return true;
  for (let line = from; line < from + count; line++) if (source.hidden[line] === true) return false;
  return true;
}

/** Lines shorter than this (trimmed) never start a reference: a lone brace matches everywhere and means nothing. */
const minimumAnchorLength = 3;
// Packs (source, line) into one number so the index holds plain number arrays.
const linesPerSource = 2 ** 22;

/**
 * True when a line's content is distinctive enough to start a reference.
 *
 * @param content - A line without its number prefix.
 * @returns Whether the line is indexed and may start a run.
 * @example
 * ```ts
 * isAnchor('}'); // false
 * isAnchor('def main():'); // true
 * ```
 */
export function isAnchor(content: string): boolean {
  if (content.length < minimumAnchorLength) return false;
  return content.trim().length >= minimumAnchorLength;
}

/**
 * Every known line of the sources seen so far, by content: where each line occurs. Sources shadowed by a later
 * block with the same call id are skipped, because a reference resolves to the nearest block with its id.
 */
export interface LineIndex {
  readonly sources: readonly IndexedSource[];
  /**
   * Adds a source whose original lines are given in order, with `undefined` where a line is unknown.
   * @returns The source number.
   */
  add(source: Omit<IndexedSource, 'contents'> & { readonly contents?: IndexedSource['contents'] }): number;
  /**
   * Marks every source with this kind and id as shadowed.
   * @returns The sources that were not shadowed before (for {@link LineIndex.unshadow}).
   */
  shadow(kind: 'result' | 'call', id: string): readonly number[];
  /** Undoes a {@link LineIndex.shadow}: the sources it returned are live again. */
  unshadow(sourceNumbers: readonly number[]): void;
  /** Forgets the sources numbered `count` and up, newest first, as if they had never been added. */
  truncate(count: number): void;
  /** Calls `visit(sourceNumber, line)` for the newest live occurrences of `content`, newest first, at most `limit`. */
  forEachOccurrence(content: string, limit: number, visit: (sourceNumber: number, line: number) => void): void;
}

/**
 * Creates an empty {@link LineIndex}.
 *
 * @returns The index.
 * @example
 * ```ts
 * const index = createLineIndex();
 * index.add({ source, entryIndex: 3, blockIndex: 0, call, lines: result.split('\n') });
 * ```
 */
export function createLineIndex(): LineIndex {
  const sources: IndexedSource[] = [];
  const shadowed: boolean[] = [];
  const byId = new Map<string, number[]>();
  const occurrences = new Map<string, number[]>();

  return {
    sources,
    add(input) {
      const sourceNumber = sources.length;
      const contents =
        input.contents ?? input.lines.map((line) => (line === undefined ? undefined : parseNumberedLine(line).content));
      sources.push({ ...input, contents });
      shadowed.push(false);
      const idKey = `${input.source.kind}:${input.source.id}`;
      const sameId = byId.get(idKey);
      if (sameId === undefined) byId.set(idKey, [sourceNumber]);
      else sameId.push(sourceNumber);
      const indexed = Math.min(contents.length, linesPerSource);
      for (let line = 0; line < indexed; line++) {
        const content = contents[line];
        if (content === undefined || !isAnchor(content)) continue;
        const packed = sourceNumber * linesPerSource + line;
        const list = occurrences.get(content);
        if (list === undefined) occurrences.set(content, [packed]);
        else list.push(packed);
      }
      return sourceNumber;
    },
    shadow(kind, id) {
      const changed: number[] = [];
      for (const sourceNumber of byId.get(`${kind}:${id}`) ?? []) {
        if (shadowed[sourceNumber] === true) continue;
        shadowed[sourceNumber] = true;
        changed.push(sourceNumber);
      }
      return changed;
    },
    unshadow(sourceNumbers) {
      for (const sourceNumber of sourceNumbers) shadowed[sourceNumber] = false;
    },
    truncate(count) {
      for (let sourceNumber = sources.length - 1; sourceNumber >= count; sourceNumber--) {
        const source = sources[sourceNumber] as IndexedSource;
        const idKey = `${source.source.kind}:${source.source.id}`;
        const sameId = byId.get(idKey) as number[];
        sameId.pop();
        if (sameId.length === 0) byId.delete(idKey);
        // Occurrences were appended in source order, so this source's are the last of each list.
        const indexed = Math.min(source.contents.length, linesPerSource);
        for (let line = indexed - 1; line >= 0; line--) {
          const content = source.contents[line];
          if (content === undefined || !isAnchor(content)) continue;
          const list = occurrences.get(content) as number[];
          list.pop();
          if (list.length === 0) occurrences.delete(content);
        }
      }
      if (count < sources.length) {
        sources.length = count;
        shadowed.length = count;
      }
    },
    forEachOccurrence(content, limit, visit) {
      const list = occurrences.get(content);
      if (list === undefined) return;
      let visited = 0;
      for (let position = list.length - 1; position >= 0 && visited < limit; position--) {
        const packed = list[position] as number;
        const sourceNumber = Math.floor(packed / linesPerSource);
        if (shadowed[sourceNumber] === true) continue;
        visited++;
        visit(sourceNumber, packed - sourceNumber * linesPerSource);
      }
    },
  };
}
