/**
 * The status lines SWE-agent's harness appends to every observation: `(Open file: /path)` and `(Current
 * directory: /path)`. Tool semantics read them (the open file is the target of later `edit` calls; the directory is
 * the workspace relative paths resolve against), so a pass that replaces a result's payload keeps them: otherwise
 * the next pass would classify later calls differently.
 */
export interface HarnessStatus {
  /** The last `(Open file: …)` path; `null` for `n/a`; undefined when the text has none. Not normalized. */
  readonly openFile: string | null | undefined;
  /** The last `(Current directory: …)` path when it is absolute (templates such as `<cwd>` are skipped). */
  readonly directory: string | undefined;
  /** The status lines as they appear, newline-joined, to append to a replacement (empty when there are none). */
  readonly lines: string;
}

const openFileLine = /\(Open file: ([^)\n]*)\)/g;
const directoryLine = /\(Current directory: ([^)\n]*)\)/g;

function lastMatch(text: string, pattern: RegExp): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(pattern)) last = match[1];
  return last?.trim();
}

/**
 * Reads the harness status lines of a tool result's text.
 *
 * @param text - The result's text.
 * @returns What the lines say.
 */
export function readHarnessStatus(text: string): HarnessStatus {
  const hasOpenFile = text.includes('(Open file: ');
  const hasDirectory = text.includes('(Current directory: ');
  if (!hasOpenFile && !hasDirectory) return { openFile: undefined, directory: undefined, lines: '' };
  const openFile = hasOpenFile ? lastMatch(text, openFileLine) : undefined;
  const rawDirectory = hasDirectory ? lastMatch(text, directoryLine) : undefined;
  const lines: string[] = [];
  if (openFile !== undefined) lines.push(`(Open file: ${openFile})`);
  if (rawDirectory !== undefined) lines.push(`(Current directory: ${rawDirectory})`);
  return {
    openFile: openFile === undefined ? undefined : openFile === 'n/a' ? null : openFile,
    directory: rawDirectory?.startsWith('/') === true ? rawDirectory : undefined,
    lines: lines.join('\n'),
  };
}
