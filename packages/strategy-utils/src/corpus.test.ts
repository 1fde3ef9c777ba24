import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findNewToolPairingProblems } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { classifyHistoryToolCalls, type ClassifiedToolCall } from './classify-history-tool-calls.js';
import type { ToolErrorMarker } from './classify-tool-result.js';
import { extractActiveTodos } from './extract-active-todos.js';
import { findSafeCutIndices } from './safe-cut-indices.js';
import {
  corpusDirectory,
  corpusExists,
  loadCorpusHistories,
  type CorpusFamily,
  type CorpusHistory,
} from './test-support/corpus-histories.js';
import type { ToolCallKind } from './tool-call-semantics.js';
import { createToolSemanticsRegistry } from './tool-semantics-registry.js';

if (!corpusExists) console.warn('Skipping corpus tests of @ctx/strategy-utils: corpus not found (set CTX_CORPUS)');

const kinds: readonly ToolCallKind[] = ['read', 'write', 'edit', 'list', 'search', 'shell', 'todo', 'other'];
const families: readonly CorpusFamily[] = ['claude-code', 'gemini-cli', 'swe-agent-native', 'swe-agent-text', 'openhands', 'mini-swe-agent'];

interface Counts {
  calls: number;
  kinds: Record<ToolCallKind, number>;
  reads: number;
  rangedReads: number;
  writes: number;
  globs: number;
  errors: number;
  markers: Set<ToolErrorMarker>;
  unknownTools: Map<string, number>;
}

const emptyCounts = (): Counts => ({
  calls: 0,
  kinds: Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<ToolCallKind, number>,
  reads: 0,
  rangedReads: 0,
  writes: 0,
  globs: 0,
  errors: 0,
  markers: new Set(),
  unknownTools: new Map(),
});

const registry = createToolSemanticsRegistry();

function addRecords(counts: Counts, records: readonly ClassifiedToolCall[]): Counts {
  for (const { call, semantics, response } of records) {
    counts.calls++;
    counts.kinds[semantics.kind]++;
    counts.reads += semantics.reads.length;
    counts.rangedReads += semantics.reads.filter((read) => read.lineRange !== undefined).length;
    counts.writes += semantics.writes.length;
    counts.globs += semantics.globs.length;
    if (response?.outcome.outcome === 'error') {
      counts.errors++;
      if (response.outcome.marker !== undefined) counts.markers.add(response.outcome.marker);
    }
    if (!registry.has(call.name)) counts.unknownTools.set(call.name, (counts.unknownTools.get(call.name) ?? 0) + 1);
  }
  return counts;
}

function describeCounts(label: string, counts: Counts): string {
  const kindText = kinds.map((kind) => `${kind} ${counts.kinds[kind]}`).join(', ');
  const unknown = [...counts.unknownTools].map(([name, count]) => `${name}×${count}`).join(' ');
  return (
    `${label}: ${counts.calls} calls (${kindText}); files read ${counts.reads} (${counts.rangedReads} with a line range), ` +
    `written ${counts.writes}, globs ${counts.globs}; error results ${counts.errors} [${[...counts.markers].join(', ')}]; ` +
    `unknown tools: ${unknown === '' ? 'none' : unknown}`
  );
}

interface ManifestEntry {
  readonly file: string;
  readonly tool_calls?: number;
}

function manifestToolCalls(): Map<string, number> {
  const manifest = JSON.parse(readFileSync(join(corpusDirectory, 'manifest.json'), 'utf8')) as readonly ManifestEntry[];
  return new Map(manifest.flatMap((entry) => (typeof entry.tool_calls === 'number' ? [[entry.file, entry.tool_calls] as const] : [])));
}

describe.skipIf(!corpusExists)('classifyHistoryToolCalls on the corpus', () => {
  const corpora: CorpusHistory[] = corpusExists ? loadCorpusHistories() : [];
  const started = performance.now();
  const results = corpora.map((corpus) => ({ corpus, records: classifyHistoryToolCalls(corpus.history, { workspaceRoot: corpus.workspaceRoot }) }));
  const elapsed = performance.now() - started;
  const byFamily = new Map(families.map((family) => [family, emptyCounts()]));
  for (const { corpus, records } of results) addRecords(byFamily.get(corpus.family) as Counts, records);

  it('should print per-file and per-family counts, the unknown tools and the time taken', () => {
    const lines = results.map(({ corpus, records }) => describeCounts(`${corpus.name} [${corpus.family}]`, addRecords(emptyCounts(), records)));
    const familyLines = families.map((family) => describeCounts(`TOTAL ${family}`, byFamily.get(family) as Counts));
    const total = results.reduce((sum, { records }) => sum + records.length, 0);
    console.log([...lines, '', ...familyLines, '', `classified ${total} tool calls of ${results.length} histories in ${elapsed.toFixed(1)} ms`].join('\n'));
    expect(results.length).toBeGreaterThan(0);
  });

  it('should classify every tool call the corpus manifest counts', () => {
    const expected = manifestToolCalls();
    for (const { corpus, records } of results) {
      const count = expected.get(corpus.name);
      if (count !== undefined) expect({ file: corpus.name, calls: records.length }).toEqual({ file: corpus.name, calls: count });
    }
  });

  it('should find reads and writes in every agent family', () => {
    for (const family of families) {
      const counts = byFamily.get(family) as Counts;
      expect({ family, hasReads: counts.reads > 0, hasWrites: counts.writes > 0 }).toEqual({ family, hasReads: true, hasWrites: true });
    }
  });

  it('should know every tool of the corpus and keep other below 10% of the calls of each family', () => {
    for (const family of families) {
      const counts = byFamily.get(family) as Counts;
      expect({ family, unknown: [...counts.unknownTools.keys()] }).toEqual({ family, unknown: [] });
      expect(counts.kinds.other / counts.calls).toBeLessThan(0.1);
    }
  });

  it('should find line ranges where agents read slices (Read offset, sed -n, view_range)', () => {
    for (const family of ['claude-code', 'mini-swe-agent', 'openhands'] as const) {
      expect({ family, ranged: (byFamily.get(family) as Counts).rangedReads > 10 }).toEqual({ family, ranged: true });
    }
  });

  it('should give every SWE-agent edit the file its editor has open', () => {
    const sweAgentEdits = results
      .filter(({ corpus }) => corpus.family.startsWith('swe-agent'))
      .flatMap(({ records }) => records.filter((record) => record.semantics.kind === 'edit'));
    expect(sweAgentEdits.length).toBeGreaterThan(0);
    for (const record of sweAgentEdits) expect(record.semantics.writes.length).toBe(1);
  });

  it("should recognize each family's error markers", () => {
    const expectedMarkers: Readonly<Partial<Record<CorpusFamily, readonly ToolErrorMarker[]>>> = {
      'claude-code': ['is-error'],
      'gemini-cli': ['error-field', 'exit-code'],
      'mini-swe-agent': ['exit-code'],
      openhands: ['editor-error'],
      'swe-agent-text': ['edit-rejected'],
    };
    for (const [family, markers] of Object.entries(expectedMarkers)) {
      const found = (byFamily.get(family as CorpusFamily) as Counts).markers;
      for (const marker of markers) expect({ family, marker, found: found.has(marker) }).toEqual({ family, marker, found: true });
    }
  });

  it('should extract the latest todo list of the sessions that keep one, with valid statuses', () => {
    const withTodos = results.filter(({ corpus }) =>
      corpus.history.some((entry) => entry.blocks.some((block) => block.type === 'tool_call' && block.name === 'TodoWrite')),
    );
    expect(withTodos.length).toBeGreaterThan(0);
    for (const { corpus } of withTodos) {
      const todos = extractActiveTodos(corpus.history);
      expect(todos?.length ?? 0).toBeGreaterThan(0);
      for (const todo of todos ?? []) expect(['pending', 'in_progress', 'completed']).toContain(todo.status);
    }
    const gemini = results.find(({ corpus }) => corpus.family === 'gemini-cli');
    expect(gemini === undefined ? undefined : extractActiveTodos(gemini.corpus.history)).toBeUndefined();
  });

  it('should only offer cuts that introduce no pairing problem', () => {
    for (const { corpus } of results) {
      const { history } = corpus;
      const cuts = findSafeCutIndices(history);
      expect(cuts.length).toBeGreaterThan(1);
      // Checking every cut is quadratic; a spread of cuts per file covers every shape of boundary.
      const step = Math.max(1, Math.floor(cuts.length / 40));
      for (let position = 0; position < cuts.length; position += step) {
        const cut = cuts[position] as number;
        expect({ file: corpus.name, cut, problems: findNewToolPairingProblems(history, history.slice(cut)) }).toEqual({
          file: corpus.name,
          cut,
          problems: [],
        });
      }
    }
  });
});
