import { hashContent } from './content-hash.js';
import type { LineReference } from './lossless-record.js';
import { formatNumberedLine, parseNumberedLine } from './numbered-line.js';

/**
 * The lines a reference stands for, rebuilt from its source's original lines (renumbered when the reference says
 * so) and checked against the reference's hash.
 *
 * @param reference - Where the lines come from (`from`, `count`), how they are numbered here, and their hash.
 * @param sourceLines - The source's lines as they originally were.
 * @returns The lines, or undefined when the source is too short or they do not hash to `reference.hash`.
 * @example
 * ```ts
 * rebuildReferencedLines(reference, sourceText.split('\n')) ?? fail('hash-mismatch');
 * ```
 */
export function rebuildReferencedLines(
  reference: Pick<LineReference, 'from' | 'count' | 'numbering' | 'hash'>,
  sourceLines: readonly (string | undefined)[],
): string[] | undefined {
  if (reference.from + reference.count > sourceLines.length) return undefined;
  const lines: string[] = [];
  const { numbering } = reference;
  for (let offset = 0; offset < reference.count; offset++) {
    const line = sourceLines[reference.from + offset];
    if (line === undefined) return undefined;
    const content = parseNumberedLine(line).content;
    lines.push(
      numbering === undefined
        ? content
        : formatNumberedLine(numbering.start + offset, numbering.width, numbering.separator, content),
    );
  }
  return hashContent(lines.join('\n')) === reference.hash ? lines : undefined;
}
