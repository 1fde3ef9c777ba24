const systemReminder = /<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/g;
const catHeader = /^Here's the result of running `cat -n` on [^\n]*:\n/;
const numberedLine = /^\s*\d+(?:\t|→)/;

/**
 * The file content a read result shows: without the `cat -n`-style line numbers read tools put before each line
 * (Claude Code `Read`, `str_replace_editor view`), the `cat -n` header line, and the `<system-reminder>`s a harness
 * appends. Text that is not numbered that way is taken as the content itself (gemini-cli `read_file`, `cat`).
 *
 * @param text - The read result's text.
 * @returns The content the edits' old text can be found in.
 */
export function readContentOf(text: string): string {
  const body = (text.includes('<system-reminder>') ? text.replace(systemReminder, '') : text)
    .replace(catHeader, '')
    .replace(/\s+$/, '');
  const lines = body.split('\n');
  if (!lines.every((line) => numberedLine.test(line))) return body;
  return lines.map((line) => line.replace(numberedLine, '')).join('\n');
}

/**
 * The result text of a folded read: a header line saying what the text is (so neither the model nor a later pass
 * mistakes it for the tool's output), then the content.
 *
 * @param path - The file.
 * @param content - The file's content after the edits.
 * @param options - `partial` when the read showed only part of the file.
 * @returns The new result text.
 */
export function formatReconstructedRead(path: string, content: string, options: { readonly partial: boolean }): string {
  const what = options.partial ? `the part of ${path} this call read` : path;
  return `[Reconstructed by ctx: ${what} with the edits made later in this conversation applied; not the tool's original output]\n${content}`;
}

/**
 * The content of a folded read's result (the text after its header line).
 *
 * @param text - A result written by {@link formatReconstructedRead}.
 * @returns The content.
 */
export function reconstructedContentOf(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? '' : text.slice(newline + 1);
}
