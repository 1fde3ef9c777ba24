import { corpusExists, readCorpusJson } from '@ctx/format-utils/testing';

if (!corpusExists) console.warn('Skipping format-trajectories corpus tests: corpus not found (set CTX_CORPUS).');

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
