import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared corpus of recorded transcripts (read-only, never copied into the repository). */
export const corpusDirectory =
  process.env.CTX_CORPUS ?? fileURLToPath(new URL('../../../../../shared/corpus/', import.meta.url));

export const corpusExists = existsSync(corpusDirectory);

/** Corpus files under `subdirectory` whose names end with `suffix`, as paths relative to the corpus. */
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

export function readCorpusText(file: string): string {
  return readFileSync(join(corpusDirectory, file), 'utf8');
}

/** The `message` of every `user` / `assistant` record of a Claude Code session, in file order. */
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

/** Freezes a value and everything in it, so a test fails if the code under test writes to its input. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
