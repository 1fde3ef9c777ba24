import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The recorded transcripts beside the repository (`../shared/corpus` from the repository root), or undefined when
 * this checkout has none. `CTX_CORPUS` overrides the location.
 */
export function findCorpusDirectory(): string | undefined {
  const fromEnvironment = process.env.CTX_CORPUS;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return existsSync(fromEnvironment) ? fromEnvironment : undefined;
  const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
  const candidate = resolve(repositoryRoot, '..', 'shared', 'corpus');
  return existsSync(candidate) ? candidate : undefined;
}

/** Every transcript file under `directory` (JSON, JSON Lines, trajectories), sorted, recursively. */
export function listTranscriptFiles(directory: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(jsonl|json|traj)$/.test(entry.name) && entry.name !== 'manifest.json') files.push(path);
    }
  };
  walk(directory);
  return files.sort();
}
