import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * ctx's shared corpus of recorded transcripts (read-only, never copied into the repository): the `CTX_CORPUS`
 * environment variable when set, else `shared/corpus` beside the ctx repository checkout.
 */
export const corpusDirectory: string =
  process.env.CTX_CORPUS !== undefined && process.env.CTX_CORPUS !== ''
    ? process.env.CTX_CORPUS
    : fileURLToPath(new URL('../../../../../shared/corpus/', import.meta.url));

/** True when the corpus is there (its `manifest.json` exists); corpus tests skip themselves otherwise. */
export const corpusExists: boolean = existsSync(join(corpusDirectory, 'manifest.json'));

/**
 * The absolute path of a corpus file.
 *
 * @param file - A path relative to the corpus, e.g. `claude-code/spotter/tool_heavy.jsonl`.
 * @returns The path in {@link corpusDirectory}.
 */
export function corpusPath(file: string): string {
  return join(corpusDirectory, file);
}

/**
 * The text of a corpus file.
 *
 * @param file - A path relative to the corpus.
 * @returns The file's UTF-8 text.
 * @throws The file system error when the file cannot be read.
 */
export function readCorpusText(file: string): string {
  return readFileSync(corpusPath(file), 'utf8');
}

/**
 * A corpus file parsed as JSON.
 *
 * @param file - A path relative to the corpus, e.g. `manifest.json`.
 * @returns The parsed value.
 * @throws The file system error, or a `SyntaxError` when the file is not JSON.
 */
export function readCorpusJson(file: string): unknown {
  return JSON.parse(readCorpusText(file));
}

/**
 * Corpus files under `subdirectory` whose names end with `suffix`, sorted by name at each level.
 *
 * @param subdirectory - A directory relative to the corpus, e.g. `claude-code`.
 * @param suffix - The end of the file names to list, e.g. `.jsonl`.
 * @returns Paths relative to the corpus; empty when the directory is missing.
 *
 * @example
 * ```ts
 * for (const file of listCorpusFiles('claude-code', '.jsonl')) decode(readCorpusText(file));
 * ```
 */
export function listCorpusFiles(subdirectory: string, suffix: string): string[] {
  const root = join(corpusDirectory, subdirectory);
  if (!existsSync(root)) return [];
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const item of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(directory, item.name);
      if (item.isDirectory()) walk(path);
      else if (item.name.endsWith(suffix)) files.push(relative(corpusDirectory, path));
    }
  };
  walk(root);
  return files;
}

/**
 * The Anthropic `message` of every `user` / `assistant` record of a Claude Code session file, in file order: real
 * Anthropic Messages traffic for codec tests.
 *
 * @param file - A Claude Code session (`.jsonl`) relative to the corpus.
 * @returns Each message with its 1-based line number.
 */
export function readClaudeCodeMessages(file: string): { readonly line: number; readonly message: unknown }[] {
  const messages: { line: number; message: unknown }[] = [];
  readCorpusText(file)
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') return;
      const record = JSON.parse(text) as { type?: unknown; message?: unknown };
      if ((record.type === 'user' || record.type === 'assistant') && record.message !== undefined) {
        messages.push({ line: index + 1, message: record.message });
      }
    });
  return messages;
}
