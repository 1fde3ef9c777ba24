import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The recorded transcripts beside the repository (`/work/shared/corpus` on the project machine), or undefined when
 * this checkout has none. `CTX_CORPUS` overrides the location.
 */
function findCorpusDirectory(): string | undefined {
  const fromEnvironment = process.env.CTX_CORPUS;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return existsSync(fromEnvironment) ? fromEnvironment : undefined;
  const candidate = fileURLToPath(new URL('../../../../../shared/corpus/', import.meta.url));
  return existsSync(candidate) ? candidate : undefined;
}

export const corpusDirectory = findCorpusDirectory();

/** True when the corpus is there; corpus tests are skipped otherwise. */
export const hasCorpus = corpusDirectory !== undefined;

if (!hasCorpus) console.warn('Skipping format-trajectories corpus tests: corpus not found (set CTX_CORPUS).');

/** The text of a corpus file, by its path relative to the corpus directory. */
export function readCorpusText(relativePath: string): string {
  return readFileSync(join(corpusDirectory as string, relativePath), 'utf8');
}

/** A corpus file parsed as JSON. */
export function readCorpusJson(relativePath: string): unknown {
  return JSON.parse(readCorpusText(relativePath));
}

/** The statistics `manifest.json` states for one file (only the fields these tests compare). */
export interface ManifestEntry {
  readonly file: string;
  readonly messages: number;
  readonly tool_calls?: number;
  readonly openai_tool_calls?: number;
  readonly roles?: Readonly<Record<string, number>>;
  readonly types?: Readonly<Record<string, number>>;
  readonly per_session?: readonly { readonly instance: string; readonly events: number; readonly actions: number }[];
}

/** The manifest entry of a corpus file. */
export function readManifestEntry(relativePath: string): ManifestEntry {
  const manifest = readCorpusJson('manifest.json') as readonly ManifestEntry[];
  const entry = manifest.find((candidate) => candidate.file === relativePath);
  if (entry === undefined) throw new Error(`manifest.json has no entry for ${relativePath}`);
  return entry;
}
