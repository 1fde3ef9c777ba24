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
  /** Each line's content (without its number prefix) as a {@link LineIndex.idOf} id, {@link unknownLine} where unknown. */
  readonly ids: readonly number[];
  /** Which lines the model sees behind a marker rather than verbatim; undefined when none. */
  readonly hidden: readonly boolean[] | undefined;
}

/** The id of a line whose original is unknown: equal to no line. */
export const unknownLine = -1;

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
 *
 * Line contents are compared as ids ({@link LineIndex.idOf}): one lookup per line read, after which comparing two
 * lines, finding where a line occurs and whether it is an anchor cost an array read.
 */
export interface LineIndex {
  readonly sources: readonly IndexedSource[];
  /** The id of a line content: equal contents, equal ids. */
  idOf(content: string): number;
  /** Whether the content with this id may start a run ({@link isAnchor}); false for {@link unknownLine}. */
  isAnchorId(id: number): boolean;
  /**
   * Adds a source whose original lines are given in order, with `undefined` where a line is unknown; `ids` are
   * computed from `lines` when not given.
   * @returns The source number.
   */
  add(source: Omit<IndexedSource, 'ids'> & { readonly ids?: IndexedSource['ids'] }): number;
  /**
   * Marks every source with this kind and id as shadowed.
   * @returns The sources that were not shadowed before (for {@link LineIndex.unshadow}).
   */
  shadow(kind: 'result' | 'call', id: string): readonly number[];
  /** Undoes a {@link LineIndex.shadow}: the sources it returned are live again. */
  unshadow(sourceNumbers: readonly number[]): void;
  /** Forgets the sources numbered `count` and up, newest first, as if they had never been added. */
  truncate(count: number): void;
  /**
   * Calls `visit(sourceNumber, line)` for the newest live occurrences of the anchor line with this id, newest first,
   * at most `limit`.
   */
  forEachOccurrence(id: number, limit: number, visit: (sourceNumber: number, line: number) => void): void;
}

/**
 * Creates an empty {@link LineIndex}.
 *
 * @returns The index.
 * @example
 * ```ts
 * const index = createLineIndex();
 * index.add({ source, entryIndex: 3, blockIndex: 0, call, lines: result.split('\n'), hidden: undefined });
 * ```
 */
export function createLineIndex(): LineIndex {
  const sources: IndexedSource[] = [];
  const shadowed: boolean[] = [];
  const byId = new Map<string, number[]>();
  // Line ids: one per distinct content, never reused (a rolled-back source leaves its ids behind, unused).
  const ids = new Map<string, number>();
  const anchors: boolean[] = [];
  // Occurrences of anchor lines, one list per id, as linked nodes appended in source order: `newest[id]` is the
  // last node of the id (-1 none), `older[node]` the one before it.
  const newest: number[] = [];
  const older: number[] = [];
  const nodeSource: number[] = [];
  const nodeLine: number[] = [];

  const idOf = (content: string): number => {
    let id = ids.get(content);
    if (id === undefined) {
      id = anchors.length;
      ids.set(content, id);
      anchors.push(isAnchor(content));
      newest.push(-1);
    }
    return id;
  };

  return {
    sources,
    idOf,
    isAnchorId: (id) => id !== unknownLine && anchors[id] === true,
    add(input) {
      const sourceNumber = sources.length;
      const lineIds =
        input.ids ?? input.lines.map((line) => (line === undefined ? unknownLine : idOf(parseNumberedLine(line).content)));
      sources.push({ ...input, ids: lineIds });
      shadowed.push(false);
      const idKey = `${input.source.kind}:${input.source.id}`;
      const sameId = byId.get(idKey);
      if (sameId === undefined) byId.set(idKey, [sourceNumber]);
      else sameId.push(sourceNumber);
      for (let line = 0; line < lineIds.length; line++) {
        const id = lineIds[line] as number;
        if (id === unknownLine || anchors[id] !== true) continue;
        older.push(newest[id] as number);
        newest[id] = nodeSource.length;
        nodeSource.push(sourceNumber);
        nodeLine.push(line);
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
      }
      if (count >= sources.length) return;
      // Nodes were appended in source order, so the forgotten sources' are the last ones.
      let node = nodeSource.length - 1;
      while (node >= 0 && (nodeSource[node] as number) >= count) {
        const id = (sources[nodeSource[node] as number] as IndexedSource).ids[nodeLine[node] as number] as number;
        newest[id] = older[node] as number;
        node--;
      }
      older.length = node + 1;
      nodeSource.length = node + 1;
      nodeLine.length = node + 1;
      sources.length = count;
      shadowed.length = count;
    },
    forEachOccurrence(id, limit, visit) {
      if (id === unknownLine) return;
      let visited = 0;
      for (let node = newest[id] ?? -1; node !== -1 && visited < limit; node = older[node] as number) {
        const sourceNumber = nodeSource[node] as number;
        if (shadowed[sourceNumber] === true) continue;
        visited++;
        visit(sourceNumber, nodeLine[node] as number);
      }
    },
  };
}
