import { resolvePropertyRuns } from '@ctx/conformance';
import { densityDefaults, parseHistory, type DensityConfig, type HistoryEntry, type JsonValue } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { losslessSettingsSchema, type LosslessSettingsInput } from './lossless-settings.js';
import { createLosslessStrategy } from './lossless-strategy.js';
import { planReferences } from './plan-references.js';
import { isFrozenHistory, sharedReferencePlans } from './shared-reference-plans.js';
import { optimizeWith } from './test-support/optimize-with.js';

const runs = resolvePropertyRuns();
const config: DensityConfig = { ...densityDefaults, workspaceRoot: '/repo' };

const fileLines = (label: string, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `export const ${label}${index} = compute('${label}', ${index});`);
const numbered = (lines: readonly string[]): string =>
  lines.map((line, index) => `${String(index + 1).padStart(6)}→${line}`).join('\n');
const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const tool = (id: string, name: string, parameters: JsonValue, output: string): HistoryEntry[] => [
  { speaker: 'ai', blocks: [{ type: 'tool_call', id, name, parameters }] },
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: id, toolName: name, result: output }] },
];
const fileA = numbered(fileLines('alpha', 30));
const fileB = numbered(fileLines('beta', 30));

/** What a full plan of `history` gives, as `optimize()` reports it. */
function fullPlan(history: readonly HistoryEntry[], settings: LosslessSettingsInput = {}) {
  const plan = planReferences(history, { settings: losslessSettingsSchema.parse(settings), workspaceRoot: '/repo' });
  return { replacements: plan.replacements, counts: plan.replacements.size === 0 ? undefined : plan.counts };
}

function optimizeAnswer(history: readonly HistoryEntry[], settings: LosslessSettingsInput = {}) {
  const result = optimizeWith(createLosslessStrategy(settings))(history, config);
  return { replacements: result.replacements, counts: result.replacements.size === 0 ? undefined : result.metadata };
}

describe('isFrozenHistory', () => {
  it('should tell a history as HistoryService holds it from one with an entry the caller can still change', () => {
    const frozen = parseHistory([human('Hi.'), ...tool('r1', 'Read', { file_path: '/repo/a.ts' }, fileA)]);
    expect(isFrozenHistory(frozen)).toBe(true);
    expect(isFrozenHistory([...frozen, human('Still mine.')])).toBe(false);
  });
});

describe('sharedReferencePlans', () => {
  it('should share one cache between equal settings, whatever order their keys came in, and keep other settings apart', () => {
    const settings = losslessSettingsSchema.parse({});
    const reordered = Object.fromEntries(Object.entries(settings).reverse()) as typeof settings;
    expect(sharedReferencePlans(reordered)).toBe(sharedReferencePlans(settings));
    expect(sharedReferencePlans({ ...settings, minReferenceCharacters: 400 })).not.toBe(sharedReferencePlans(settings));
  });

  it('should keep planning with the settings it was made with when the caller changes its settings object', () => {
    const history = parseHistory([
      human('Read twice, strictly.'),
      ...tool('r1', 'Read', { file_path: '/repo/a.ts' }, fileA),
      ...tool('r2', 'Read', { file_path: '/repo/a.ts' }, fileA),
    ]);
    const settings = losslessSettingsSchema.parse({ minReferenceCharacters: 4321 });
    const plans = sharedReferencePlans(settings);
    (settings as { minReferenceCharacters: number }).minReferenceCharacters = 40;
    expect(plans.plan(history, '/repo').replacements.size).toBe(0);
    expect(sharedReferencePlans(losslessSettingsSchema.parse({ minReferenceCharacters: 4321 }))).toBe(plans);
  });

  it('should hand a new strategy the plan another one made of the same frozen history, equal to a full plan', () => {
    const history = parseHistory([
      human('Read twice.'),
      ...tool('r1', 'Read', { file_path: '/repo/a.ts' }, fileA),
      ...tool('r2', 'Read', { file_path: '/repo/a.ts' }, fileA),
    ]);
    const first = optimizeAnswer(history);
    const second = optimizeAnswer(history);
    expect(second).toStrictEqual(fullPlan(history));
    // The very replacement entries: the second strategy planned nothing again.
    expect(second.replacements.get(4)).toBe(first.replacements.get(4));
  });

  it('should plan an unfrozen history for each strategy on its own', () => {
    const history = [human('Read twice.'), ...tool('r1', 'Read', { file_path: '/repo/a.ts' }, fileA), ...tool('r2', 'Read', { file_path: '/repo/a.ts' }, fileA)];
    const first = optimizeAnswer(history);
    const second = optimizeAnswer(history);
    expect(second).toStrictEqual(first);
    expect(second.replacements.get(4)).not.toBe(first.replacements.get(4));
  });

  it('should never give a strategy the plan of another conversation or of other settings', () => {
    const start = parseHistory([human('Same start.')]);
    const reads = [...start, ...parseHistory([...tool('r1', 'Read', { file_path: '/repo/a.ts' }, fileA), ...tool('r2', 'Read', { file_path: '/repo/a.ts' }, fileA)])];
    // Same first entry, then other content: a different file, then the first file once.
    const other = [...start, ...parseHistory([...tool('r1', 'Read', { file_path: '/repo/b.ts' }, fileB), ...tool('r2', 'Read', { file_path: '/repo/a.ts' }, fileA)])];
    expect(optimizeAnswer(reads)).toStrictEqual(fullPlan(reads));
    expect(optimizeAnswer(other)).toStrictEqual(fullPlan(other));
    expect(optimizeAnswer(other).replacements.size).toBe(0);
    // Settings under which the repeated read is not rewritten.
    expect(optimizeAnswer(reads, { deduplicateFileReads: false })).toStrictEqual(fullPlan(reads, { deduplicateFileReads: false }));
    expect(optimizeAnswer(reads, { deduplicateFileReads: false }).replacements.size).toBe(0);
    expect(optimizeAnswer(reads).replacements.size).toBe(1);
  });

  it('should answer every strategy, whatever others asked before, as a full plan of its own input', () => {
    // Conversations built from a small pool of frozen entries, so that they share first entries and whole prefixes.
    const pool = parseHistory([
      ...tool('a1', 'Read', { file_path: '/repo/a.ts' }, fileA),
      ...tool('b1', 'Read', { file_path: '/repo/b.ts' }, fileB),
      ...tool('a2', 'Bash', { command: 'cat -n a.ts' }, fileA.replaceAll('→', '\t')),
      ...tool('b2', 'Read', { file_path: '/repo/b.ts' }, fileB),
    ]);
    const pairs = [0, 2, 4, 6].map((at) => pool.slice(at, at + 2));
    const starts = parseHistory([human('First.'), human('Second.')]);
    const callArbitrary = fc.record({
      start: fc.constantFrom(...starts),
      pairs: fc.array(fc.nat({ max: pairs.length - 1 }), { maxLength: 5 }),
      strict: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(callArbitrary, { minLength: 1, maxLength: 8 }), (calls) => {
        for (const { start, pairs: chosen, strict } of calls) {
          const history = [start, ...chosen.flatMap((pair) => pairs[pair] as HistoryEntry[])];
          const settings = strict ? { minReferenceCharacters: 4000 } : {};
          expect(optimizeAnswer(history, settings)).toStrictEqual(fullPlan(history, settings));
        }
      }),
      { numRuns: runs },
    );
  });
});
