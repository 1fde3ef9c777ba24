import { SHORT_HASH_LENGTH } from './content-hash.js';

/** Lines of a source as a reader sees them: printed line numbers when numbered, else positions in the output. */
export interface MarkerLineRange {
  readonly first: number;
  readonly last: number;
  /** True when `first`/`last` are printed line numbers (file lines), false for 1-based positions in the output. */
  readonly numbered: boolean;
  /** Set when the lines are in a tool call's parameters rather than in output (a here-document, a written file). */
  readonly inCall?: boolean;
}

/** What a marker says; one variant per operation. */
export type MarkerDescription =
  | {
      /** FR-LC-001: a read whose whole content repeats an earlier read. */
      readonly kind: 'repeated-file';
      readonly messageIndex: number;
      readonly operation: string;
      readonly hash: string;
    }
  | {
      /** FR-LC-002: a result identical to an earlier one. */
      readonly kind: 'consolidated';
      readonly messageIndex: number;
      readonly operation: string;
      /** Identical results so far, this one included. */
      readonly operations: number;
      readonly hash: string;
    }
  | {
      /** FR-LC-003: lines shown earlier by another call. */
      readonly kind: 'lines';
      readonly messageIndex: number;
      /** Left out when an earlier marker of the same output already named this message's operation. */
      readonly operation?: string;
      readonly source: MarkerLineRange;
      /** The printed numbers of the lines here, when they differ from the source's (an edit shifted them). */
      readonly here?: { readonly first: number; readonly last: number };
      readonly hash: string;
    }
  | {
      /** FR-LC-003: lines repeated from higher up in the same output. */
      readonly kind: 'same-output';
      readonly source: MarkerLineRange;
      readonly hash: string;
    }
  | {
      /** FR-LC-004: a harness status block (`<system-reminder>`) repeated from an earlier result. */
      readonly kind: 'repeated-status';
      readonly messageIndex: number;
      readonly hash: string;
    }
  | {
      /** FR-LC-004: a todo list superseded by a later one. */
      readonly kind: 'superseded-todos';
      readonly messageIndex: number;
      readonly hash: string;
    };

function lineRange(range: MarkerLineRange): string {
  const lines = range.first === range.last ? `line ${range.first}` : `lines ${range.first}–${range.last}`;
  if (range.numbered) return lines;
  return range.inCall === true ? `${lines} of the call` : `output ${lines}`;
}

/**
 * The one-line marker that stands in a tool result for content shown earlier: `⟨ Reference: See message #12 for
 * lines 118–158 (Read annotation.ex) · 3f9a1c ⟩`. Spec 004's formats (FR-LC-001 "File content already provided
 * above", FR-LC-002 "Consolidated N operations", FR-LC-003 "See message #index for description"), with the entry
 * index and the first hex digits of the content hash, so a reader can find the source and a tool can verify it.
 *
 * @param description - What the marker stands for.
 * @returns A single line (no line breaks).
 * @example
 * ```ts
 * formatReferenceMarker({ kind: 'repeated-file', messageIndex: 12, operation: 'Read a.ts', hash });
 * // '⟨ Reference: File content already provided above, see message #12 (Read a.ts) · 3f9a1c ⟩'
 * ```
 */
export function formatReferenceMarker(description: MarkerDescription): string {
  const hash = description.hash.slice(0, SHORT_HASH_LENGTH);
  switch (description.kind) {
    case 'repeated-file':
      return `⟨ Reference: File content already provided above, see message #${description.messageIndex} (${description.operation}) · ${hash} ⟩`;
    case 'consolidated':
      return `⟨ Consolidated ${description.operations} operations: same output as message #${description.messageIndex} (${description.operation}) · ${hash} ⟩`;
    case 'lines': {
      const here =
        description.here === undefined
          ? ''
          : `, here ${description.here.first === description.here.last ? `line ${description.here.first}` : `lines ${description.here.first}–${description.here.last}`}`;
      const operation = description.operation === undefined ? '' : ` (${description.operation})`;
      return `⟨ Reference: See message #${description.messageIndex} for ${lineRange(description.source)}${operation}${here} · ${hash} ⟩`;
    }
    case 'same-output':
      return `⟨ Reference: See ${lineRange(description.source)} above · ${hash} ⟩`;
    case 'repeated-status':
      return `⟨ Reference: See message #${description.messageIndex} for the same system reminder · ${hash} ⟩`;
    case 'superseded-todos':
      return `⟨ Superseded: see the newer todo list in message #${description.messageIndex} · ${hash} ⟩`;
  }
}
