import { createCharacterTokenizer, createSyntheticHistory } from '@ctx/conformance';
import {
  applyDensityResultToHistory,
  createTokenCounter,
  findNewToolPairingProblems,
  parseHistory,
  type DensityConfig,
  type HistoryEntry,
  type TokenCounter,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, listUserTexts } from '@ctx/retention';
import fc from 'fast-check';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHighDensityStrategy } from './high-density-strategy.js';
import { bash, edit, exchange, human, inclusionText, read, write, type ToolExchange } from './test-support/history-fixtures.js';
import { propertyRuns } from '@ctx/test-properties';

const files = ['/repo/a.ts', '/repo/b.ts', 'src/c.ts', '/repo/src/c.ts'] as const;
const separator = '\n';

const fileArbitrary = fc.constantFrom(...files);

/** One tool call of a kind that matters to a density phase, with a result. */
const exchangeArbitrary = (id: string): fc.Arbitrary<ToolExchange> =>
  fc.oneof(
    fileArbitrary.map((path) => read(id, path, `     1\tconst value = old;${separator}     2\texport { value };`)),
    fileArbitrary.map((path) => edit(id, path)),
    fileArbitrary.map((path) => write(id, path)),
    fileArbitrary.map((path) => bash(id, `sed -n '1,20p' ${path}`)),
    fileArbitrary.map((path) => bash(id, `sed -i 's/old/new/' ${path}`, '')),
    fc.constant(bash(id, 'npm test')),
    fc.subarray([...files], { minLength: 1 }).map((paths) =>
      exchange(id, 'read_many_files', { paths: [...paths, ...(paths.length > 2 ? ['src/*.ts'] : [])] }, 'many files'),
    ),
    fileArbitrary.map((path) => exchange(id, 'Read', { file_path: path }, 'File does not exist.', { isError: true })),
  );

/** A human message: typed text, optionally with `@`-inclusions around it. */
const humanArbitrary: fc.Arbitrary<HistoryEntry> = fc
  .record({ typed: fc.constantFrom('fix it', 'why?', 'look at this'), included: fc.subarray([...files]) })
  .map(({ typed, included }) => human([typed, ...included.map((path) => inclusionText(path))].join('\n')));

type Step = { readonly kind: 'human'; readonly entry: HistoryEntry } | { readonly kind: 'turn'; readonly size: number; readonly answered: boolean };

/** Random histories of human messages and assistant turns (1–3 calls each); the last turn may lack its results. */
const historyArbitrary: fc.Arbitrary<readonly HistoryEntry[]> = fc
  .array(
    fc.oneof(
      humanArbitrary.map((entry): Step => ({ kind: 'human', entry })),
      fc.record({ size: fc.integer({ min: 1, max: 3 }), answered: fc.boolean() }).map((turn): Step => ({ kind: 'turn', ...turn })),
    ),
    { maxLength: 30 },
  )
  .chain((steps) => {
    let callNumber = 0;
    const parts = steps.map((step, index) => {
      if (step.kind === 'human') return fc.constant([step.entry]);
      const ids = Array.from({ length: step.size }, () => `call_${callNumber++}`);
      return fc.tuple(...ids.map(exchangeArbitrary)).map((exchanges): HistoryEntry[] => {
        const entries: HistoryEntry[] = [{ speaker: 'ai', blocks: exchanges.map((item) => item.call) }];
        // Only the last turn may still wait for its results.
        if (step.answered || index < steps.length - 1) {
          entries.push({ speaker: 'tool', blocks: exchanges.map((item) => item.response) });
        }
        return entries;
      });
    });
    return parts.length === 0 ? fc.constant<HistoryEntry[]>([]) : fc.tuple(...parts).map((chunks) => chunks.flat());
  })
  .map((entries) => parseHistory(entries));

const configArbitrary: fc.Arbitrary<DensityConfig> = fc.record({
  readWritePruning: fc.boolean(),
  fileDedupe: fc.boolean(),
  recencyPruning: fc.boolean(),
  recencyRetention: fc.integer({ min: -1, max: 4 }),
  workspaceRoot: fc.constantFrom('/repo', '/'),
});

/** User texts as the user typed them, without the `@`-inclusions (which dedup may strip). */
function typedTexts(entries: readonly HistoryEntry[]): string[] {
  return listUserTexts(entries).map((item) => item.text.split('\n')[0] ?? '');
}

/** The conformance kit's default (characters / 4) and the CLI's default (gpt-tokenizer, o200k_base). */
const counters: TokenCounter[] = [];

function checkOptimize(entries: readonly HistoryEntry[], config: DensityConfig, foldEdits: boolean): void {
  const snapshot: unknown = structuredClone(entries);
  const strategy = createHighDensityStrategy({ foldEdits });
  const result = strategy.optimize?.(entries, config);
  if (result === undefined) throw new Error('high-density must optimize');
  // Accepted by applyDensityResult (it throws on conflicts, duplicates, bounds and new pairing problems).
  const next = applyDensityResultToHistory(entries, result, 'high-density');
  expect(findNewToolPairingProblems(entries, next)).toEqual([]);
  expect(entries).toEqual(snapshot);
  // Never grows the token count, whatever the tokenizer.
  for (const counter of counters) expect(counter.countEntries(next)).toBeLessThanOrEqual(counter.countEntries(entries));
  // Idempotent: a second optimize (by the same strategy, and by a fresh one) finds nothing more.
  for (const again of [strategy.optimize?.(next, config), createHighDensityStrategy({ foldEdits }).optimize?.(next, config)]) {
    expect(again?.removals).toEqual([]);
    expect(again?.replacements.size).toBe(0);
  }
  expect(typedTexts(next)).toEqual(typedTexts(entries));
}

describe('createHighDensityStrategy (properties)', () => {
  beforeAll(async () => {
    counters.push(createTokenCounter(createCharacterTokenizer()), createTokenCounter(await createGptTokenizer()));
  });

  it('should return a valid, idempotent, non-mutating result that keeps typed user text and never grows the tokens, on random histories', () => {
    fc.assert(
      fc.property(historyArbitrary, configArbitrary, fc.boolean(), (entries, config, foldEdits) => {
        checkOptimize(entries, config, foldEdits);
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  it('should do the same on the conformance kit synthetic histories', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 10_000 }),
        configArbitrary,
        fc.boolean(),
        (size, seed, config, foldEdits) => {
          checkOptimize(parseHistory(createSyntheticHistory({ entries: size, seed })), config, foldEdits);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });

  it('should never make a history an invalid Anthropic or OpenAI request', () => {
    fc.assert(
      fc.property(historyArbitrary, configArbitrary, fc.boolean(), (entries, config, foldEdits) => {
        const result = createHighDensityStrategy({ foldEdits }).optimize?.(entries, config);
        if (result === undefined) throw new Error('high-density must optimize');
        const next = applyDensityResultToHistory(entries, result);
        const problems = findNewValidityProblems(checkProviderValidity({ history: entries }), checkProviderValidity({ history: next }));
        expect(problems).toEqual({ anthropic: [], openai: [] });
      }),
      { numRuns: propertyRuns(150) },
    );
  });

  it('should match a fresh strategy at every turn of a simulated agent loop (append, optimize, apply)', () => {
    fc.assert(
      fc.property(fc.array(historyArbitrary, { minLength: 1, maxLength: 6 }), configArbitrary, fc.boolean(), (chunks, config, foldEdits) => {
        const strategy = createHighDensityStrategy({ foldEdits });
        let current: readonly HistoryEntry[] = [];
        for (const chunk of chunks) {
          const grown = [...current, ...chunk];
          // Appending after an assistant turn still waiting for results would not be a valid history.
          if (findNewToolPairingProblems([], grown).length > 0) continue;
          const result = strategy.optimize?.(grown, config);
          expect(result).toEqual(createHighDensityStrategy({ foldEdits }).optimize?.(grown, config));
          if (result === undefined) throw new Error('high-density must optimize');
          current = applyDensityResultToHistory(grown, result);
        }
      }),
      { numRuns: propertyRuns(150) },
    );
  });

  it('should give a resumed optimize the same result as a fresh one when turns are appended', () => {
    fc.assert(
      fc.property(historyArbitrary, historyArbitrary, configArbitrary, fc.boolean(), (first, appended, config, foldEdits) => {
        // Appending only makes sense after a complete turn.
        fc.pre(first.at(-1)?.speaker !== 'ai');
        const strategy = createHighDensityStrategy({ foldEdits });
        strategy.optimize?.(first, config);
        const grown = [...first, ...appended];
        fc.pre(findNewToolPairingProblems([], grown).length === 0);
        expect(strategy.optimize?.(grown, config)).toEqual(createHighDensityStrategy({ foldEdits }).optimize?.(grown, config));
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
