import type { TextBlock } from '@ctx/core';
import { savesTokens } from './saves-tokens.js';

/** One file's content `@`-included in a human message, as character offsets into the text. */
export interface FileInclusion {
  /** The path as the opening delimiter wrote it. */
  readonly path: string;
  /** Offset of the opening delimiter line. */
  readonly start: number;
  /** Offset after the section: the next opening delimiter line or the closing delimiter line. */
  readonly end: number;
  /** Which group of inclusions (one closing delimiter) the section belongs to, counted from 0. */
  readonly group: number;
}

/** A group of sections that share one closing delimiter: gemini-cli puts several files before one close. */
interface InclusionGroup {
  readonly sections: readonly FileInclusion[];
  /** Offset of the closing delimiter line, and the offset after it (and its line break). */
  readonly closeStart: number;
  readonly closeEnd: number;
}

/** The closing delimiter (spec 000 BR-DEDUP-001). */
const closingLine = '--- End of content ---';
const openingLine = /^--- (.+) ---$/;

const cache = new WeakMap<TextBlock, readonly InclusionGroup[]>();

/**
 * The opening delimiter names a file: no surrounding blanks and a path-like name (a separator or an extension).
 * gemini-cli's `--- Content from referenced files ---` header has the delimiter's shape but names no file.
 */
function looksLikePath(name: string): boolean {
  return name === name.trim() && /[/\\.]/.test(name);
}

function parseGroups(text: string): InclusionGroup[] {
  const groups: InclusionGroup[] = [];
  let open: { path: string; start: number }[] = [];
  let offset = 0;
  while (offset <= text.length) {
    const newline = text.indexOf('\n', offset);
    const lineEnd = newline === -1 ? text.length : newline;
    const next = newline === -1 ? text.length + 1 : newline + 1;
    const line = text.slice(offset, lineEnd).replace(/\r$/, '');
    if (line === closingLine) {
      if (open.length > 0) {
        const group = groups.length;
        const sections = open.map((section, index) => ({
          path: section.path,
          start: section.start,
          end: open[index + 1]?.start ?? offset,
          group,
        }));
        groups.push({ sections, closeStart: offset, closeEnd: Math.min(next, text.length) });
      }
      open = [];
    } else {
      const match = openingLine.exec(line);
      const name = match?.[1];
      if (name !== undefined && looksLikePath(name)) open.push({ path: name, start: offset });
    }
    offset = next;
  }
  // Sections after the last closing delimiter are not inclusions: both delimiters must match (BR-DEDUP-004, EC-020).
  return groups;
}

function groupsOf(block: TextBlock): readonly InclusionGroup[] {
  const cached = cache.get(block);
  if (cached !== undefined) return cached;
  const groups = block.text.includes(closingLine) ? parseGroups(block.text) : [];
  cache.set(block, groups);
  return groups;
}

/**
 * The `@` file inclusions of a text block, in order: `--- <path> ---` … `--- End of content ---` (spec 000
 * BR-DEDUP-001). A section without a closing delimiter is not an inclusion (BR-DEDUP-004, EC-020); several opening
 * delimiters before one closing delimiter are one section each. Cached per block.
 *
 * @param block - A text block of a human entry.
 * @returns The inclusions, or an empty list.
 */
export function findFileInclusions(block: TextBlock): readonly FileInclusion[] {
  const groups = groupsOf(block);
  return groups.length === 0 ? [] : groups.flatMap((group) => group.sections);
}

/**
 * The one-line note an inclusion is replaced by when a later message includes the file again.
 *
 * @param path - The path as the opening delimiter wrote it.
 * @returns The note, with its line break.
 */
export function inclusionMarker(path: string): string {
  return `[${path}: earlier copy removed — a later message includes this file again]\n`;
}

/**
 * Whether replacing an inclusion (its opening delimiter and content) with {@link inclusionMarker} saves tokens
 * ({@link savesTokens}): a small file included twice keeps both copies.
 *
 * @param inclusion - An inclusion from {@link findFileInclusions}.
 * @returns True when the marker is the smaller one.
 */
export function isWorthStripping(inclusion: FileInclusion): boolean {
  return savesTokens(inclusion.end - inclusion.start, inclusionMarker(inclusion.path).length);
}

/**
 * The text with some inclusions stripped (spec 000 BR-DEDUP-002/003): each becomes a one-line note saying a later
 * message includes the file again, and a closing delimiter whose sections are all stripped goes with them. Text
 * outside the stripped sections is kept byte for byte (EC-022).
 *
 * @param block - The text block.
 * @param stripped - Inclusions of `block` to strip (from {@link findFileInclusions}).
 * @returns The new text.
 */
export function stripFileInclusions(block: TextBlock, stripped: ReadonlySet<FileInclusion>): string {
  const text = block.text;
  const cuts: { start: number; end: number; replacement: string }[] = [];
  for (const group of groupsOf(block)) {
    let kept = 0;
    for (const section of group.sections) {
      if (stripped.has(section)) {
        cuts.push({
          start: section.start,
          end: section.end,
          replacement: inclusionMarker(section.path),
        });
      } else {
        kept++;
      }
    }
    if (kept === 0) cuts.push({ start: group.closeStart, end: group.closeEnd, replacement: '' });
  }
  cuts.sort((first, second) => first.start - second.start);
  let result = '';
  let offset = 0;
  for (const cut of cuts) {
    result += text.slice(offset, cut.start) + cut.replacement;
    offset = cut.end;
  }
  return result + text.slice(offset);
}
