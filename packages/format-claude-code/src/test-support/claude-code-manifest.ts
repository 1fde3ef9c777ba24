import { corpusDirectory, corpusExists, readCorpusJson } from '@ctx/format-utils/testing';

if (!corpusExists) console.warn(`Skipping Claude Code corpus tests: corpus not found at ${corpusDirectory}`);

/** One manifest row (the fields these tests read). */
export interface ManifestEntry {
  readonly file: string;
  readonly format: string;
  readonly records: number;
  /** User plus assistant records, all lanes. */
  readonly messages: number;
  readonly record_types: Readonly<Record<string, number>>;
  /** `tool_use` blocks in assistant records, all lanes. */
  readonly tool_calls: number;
  /** `system` records with `subtype: 'compact_boundary'`. */
  readonly compact_boundaries: number;
  /** User records with `isCompactSummary: true`. */
  readonly compact_summaries: number;
  readonly sidechain_records: number;
  readonly malformed_lines: number;
  readonly versions: readonly string[];
  readonly dangling_parentUuid: number;
  readonly bytes: number;
}

/** The Claude Code rows of the manifest (empty when the corpus is missing). */
export function claudeCodeManifest(): ManifestEntry[] {
  if (!corpusExists) return [];
  const manifest = readCorpusJson('manifest.json') as ManifestEntry[];
  return manifest.filter((entry) => entry.format === 'claude-code-jsonl');
}
