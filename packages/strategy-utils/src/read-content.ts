const systemReminder = /<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/g;
const catHeader = /^Here's the result of running `cat -n` on [^\n]*:\n/;
const numberedLine = /^\s*\d+(?:\t|→)/;

/*
 * File folds read the same results again on every call (and every turn): the content of long results is kept by
 * text, in a map bounded by characters (the texts are the history's own strings, so it holds little beyond them).
 */
const minimumKeptLength = 256;
const maximumKeptCharacters = 4_000_000;
const keptContents = new Map<string, string>();
let keptCharacters = 0;

/**
 * The file content a read result shows: without the `cat -n`-style line numbers read tools put before each line
 * (Claude Code `Read`, `str_replace_editor view`), the `cat -n` header line, and the `<system-reminder>`s a harness
 * appends. Text that is not numbered that way is taken as the content itself (gemini-cli `read_file`, `cat`).
 *
 * @param text - The read result's text.
 * @returns The content the edits' old text can be found in.
 */
export function readContentOf(text: string): string {
  if (text.length < minimumKeptLength) return contentOf(text);
  const kept = keptContents.get(text);
  if (kept !== undefined) {
    // Most recently used last, so the oldest is evicted first.
    keptContents.delete(text);
    keptContents.set(text, kept);
    return kept;
  }
  const content = contentOf(text);
  keptContents.set(text, content);
  keptCharacters += text.length + content.length;
  for (const [oldest, value] of keptContents) {
    if (keptCharacters <= maximumKeptCharacters) break;
    keptContents.delete(oldest);
    keptCharacters -= oldest.length + value.length;
  }
  return content;
}

function contentOf(text: string): string {
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
