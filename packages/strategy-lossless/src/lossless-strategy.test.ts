import { MockSummarizer, createTestCompressionContext } from '@ctx/conformance';
import {
  InvalidStrategySettingsError,
  densityDefaults,
  parseHistory,
  type CompressionStrategyFactory,
  type DensityConfig,
  type HistoryEntry,
  type JsonValue,
  type ToolResponseBlock,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { expandHistory } from './expand-history.js';
import { listContentReferences } from './list-content-references.js';
import type { LosslessSettings, LosslessSettingsInput } from './lossless-settings.js';
import { createLosslessStrategy } from './lossless-strategy.js';
import { optimizeWith } from './test-support/optimize-with.js';

// Compile-time check: the factory fits the contract's factory type, so registries and plugin loaders accept it.
const factory: CompressionStrategyFactory<LosslessSettingsInput, LosslessSettings> = createLosslessStrategy;

const config: DensityConfig = { ...densityDefaults, workspaceRoot: '/repo' };

/** A file of `count` distinctive lines, `label` making each file's lines unique. */
const fileLines = (label: string, count: number, first = 1): string[] =>
  Array.from({ length: count }, (_, index) => `export const ${label}${first + index} = compute('${label}', ${first + index});`);
const numbered = (lines: readonly string[], first = 1): string =>
  lines.map((line, index) => `${String(first + index).padStart(6)}→${line}`).join('\n');

const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const call = (id: string, name: string, parameters: JsonValue): HistoryEntry => ({
  speaker: 'ai',
  blocks: [{ type: 'tool_call', id, name, parameters }],
});
const result = (id: string, name: string, value: JsonValue, isError = false): HistoryEntry => ({
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId: id, toolName: name, result: value, ...(isError ? { isError } : {}) }],
});
const read = (id: string, path: string, text: string, range?: { offset: number; limit: number }): HistoryEntry[] => [
  call(id, 'Read', { file_path: path, ...range }),
  result(id, 'Read', text),
];
const bash = (id: string, command: string, output: string, isError = false): HistoryEntry[] => [
  call(id, 'Bash', { command }),
  result(id, 'Bash', output, isError),
];

function optimized(history: readonly HistoryEntry[]): HistoryEntry[] {
  const frozen = parseHistory(history);
  const optimize = optimizeWith(createLosslessStrategy());
  const plan = optimize(frozen, config);
  return frozen.map((entry, index) => plan.replacements.get(index) ?? entry);
}
const resultText = (entry: HistoryEntry | undefined): string =>
  (entry?.blocks[0] as ToolResponseBlock).result as string;

const file = fileLines('alpha', 30);
const fileText = numbered(file);

describe('createLosslessStrategy', () => {
  it('should be a continuous, lossless strategy that needs no LLM, with its defaults', () => {
    const strategy = factory();
    expect(strategy.name).toBe('lossless');
    expect(strategy.trigger.mode).toBe('continuous');
    expect(strategy.requiresLLM).toBe(false);
    expect(strategy.capabilities?.lossless).toBe(true);
    expect(strategy.settings).toEqual({
      deduplicateFileReads: true,
      consolidateToolResults: true,
      removeObsoleteState: true,
      referenceToolCallParameters: true,
      rewriteToolCallParameters: true,
      keepErrorResults: false,
      errorTailLines: 5,
      minReferenceCharacters: 200,
    });
  });

  it('should reject invalid settings with InvalidStrategySettingsError', () => {
    expect(() => createLosslessStrategy({ minReferenceCharacters: 10 })).toThrow(InvalidStrategySettingsError);
    expect(() => createLosslessStrategy({ errorTailLines: 0 })).toThrow(InvalidStrategySettingsError);
    expect(() => createLosslessStrategy({ unknown: true } as LosslessSettingsInput)).toThrow(InvalidStrategySettingsError);
  });

  it('FR-LC-001: should replace a repeated read of unchanged content with one reference to the first read', () => {
    const history = [human('Look at a.ts twice.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText)];
    const output = optimized(history);
    expect(resultText(output[2])).toBe(fileText);
    expect(resultText(output[4])).toMatch(
      /^⟨ Reference: File content already provided above, see message #2 \(Read a\.ts\) · [0-9a-f]{6} ⟩$/,
    );
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-001: should reference a partial read inside an earlier read by its line numbers, keeping its own numbering', () => {
    const partial = numbered(file.slice(9, 20), 10);
    const history = [human('Read a.ts, then lines 10–20.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', partial, { offset: 10, limit: 11 })];
    const output = optimized(history);
    expect(resultText(output[4])).toMatch(/^⟨ Reference: See message #2 for lines 10–20 \(Read a\.ts\) · [0-9a-f]{6} ⟩$/);
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-001: should treat a read after an edit as new information: changed lines stay, unchanged ones point back with their new numbers', () => {
    const edited = ['// inserted by the edit: a brand new first line of the file', ...file];
    const history = [
      human('Add a header to a.ts.'),
      ...read('r1', '/repo/a.ts', fileText),
      call('e1', 'Edit', { file_path: '/repo/a.ts', old_string: file[0] as string, new_string: `${edited[0] as string}\n${file[0] as string}` }),
      result('e1', 'Edit', 'The file /repo/a.ts has been updated.'),
      ...read('r2', '/repo/a.ts', numbered(edited)),
    ];
    const output = optimized(history);
    const reread = resultText(output[6]);
    expect(reread.split('\n')[0]).toBe(`     1→${edited[0] as string}`);
    expect(reread).not.toContain('File content already provided above');
    expect(reread).toMatch(/⟨ Reference: See message #2 for lines 1–30 \(Read a\.ts\), here lines 2–31 · [0-9a-f]{6} ⟩/);
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-001: should leave a changed file whose new content was never shown as it is', () => {
    const changed = fileLines('beta', 30);
    const history = [human('Read it again.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', numbered(changed))];
    const output = optimized(history);
    expect(output[4]).toEqual(history[4]);
  });

  it('FR-LC-002: should consolidate a repeated command output into a reference naming the number of operations', () => {
    const listing = fileLines('listing', 20).join('\n');
    const history = [
      human('List twice.'),
      ...bash('b1', 'ls -la src', listing),
      ...bash('b2', 'ls -la src', listing),
      ...bash('b3', 'ls -la src', listing),
    ];
    const output = optimized(history);
    expect(resultText(output[2])).toBe(listing);
    expect(resultText(output[4])).toMatch(/^⟨ Consolidated 2 operations: same output as message #2 \(Bash `ls -la src`\) · [0-9a-f]{6} ⟩$/);
    expect(resultText(output[6])).toMatch(/^⟨ Consolidated 3 operations: same output as message #2/);
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-002: should keep the lines that differ between two runs of a command and reference only the repeated ones', () => {
    const first = fileLines('search', 20);
    const second = [...first.slice(0, 15), 'a new match that the second search found and the first did not', ...first.slice(15)];
    const history = [human('Search twice.'), ...bash('b1', 'grep -rn search src', first.join('\n')), ...bash('b2', 'grep -rn search src', second.join('\n'))];
    const output = optimized(history);
    const lines = resultText(output[4]).split('\n');
    expect(lines).toContain('a new match that the second search found and the first did not');
    expect(lines[0]).toMatch(/^⟨ Reference: See message #2 for output lines 1–15 \(Bash `grep -rn search src`\) · [0-9a-f]{6} ⟩$/);
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-002: should keep an error result its own block with its new lines and its last lines verbatim, referencing only repeated lines above them', () => {
    const trace = fileLines('frame', 20);
    const first = [...trace, 'AssertionError: expected 1 to be 2'].join('\n');
    const second = ['a new line the second run printed first', ...trace, 'TypeError: cannot read x of undefined'].join('\n');
    const history = [human('Run the tests twice.'), ...bash('b1', 'npm test', first, true), ...bash('b2', 'npm test', second, true)];
    const output = optimized(history);
    const block = output[4]?.blocks[0] as ToolResponseBlock;
    expect(output[4]?.blocks).toHaveLength(1);
    expect(block.callId).toBe('b2');
    const lines = (block.result as string).split('\n');
    expect(lines[0]).toBe('a new line the second run printed first');
    expect(lines[1]).toMatch(/^⟨ Reference: See message #2 for output lines 1–16 \(Bash `npm test`\) · [0-9a-f]{6} ⟩$/);
    // The last five non-blank lines (four repeated frames and the new exception) stay, though four repeat.
    expect(lines.slice(2)).toEqual([...trace.slice(16), 'TypeError: cannot read x of undefined']);
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-002: should never turn an error result into nothing but references, even when it repeats an earlier error whole', () => {
    const failure = [...fileLines('failure', 20), '', 'Error: 3 tests failed', ''].join('\n');
    const history = [human('Run the tests twice.'), ...bash('b1', 'npm test', failure, true), ...bash('b2', 'npm test', failure, true)];
    const output = optimized(history);
    const text = resultText(output[4]);
    expect(text).not.toContain('Consolidated');
    expect(text.split('\n').slice(1)).toEqual([...fileLines('failure', 20).slice(16), '', 'Error: 3 tests failed', '']);
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-002: should keep error results wholly verbatim when keepErrorResults is on', () => {
    const failure = fileLines('failure', 20).join('\n');
    const history = parseHistory([human('Run the tests twice.'), ...bash('b1', 'npm test', failure, true), ...bash('b2', 'npm test', failure, true)]);
    expect([...optimizeWith(createLosslessStrategy())(history, config).replacements.keys()]).toEqual([4]);
    const optimize = optimizeWith(createLosslessStrategy({ keepErrorResults: true }));
    expect(optimize(history, config).replacements.size).toBe(0);
  });

  it('FR-LC-003: should point a repeated output at its latest copy with one reference, through that copy\'s own references, and expand it', () => {
    const common = fileLines('common', 20);
    const added = fileLines('added', 20);
    const history = parseHistory([
      human('Run the suite three times.'),
      ...bash('b1', 'pytest', common.join('\n')),
      ...bash('b2', 'pytest', [...common, ...added].join('\n')),
      ...bash('b3', 'pytest', [...common, ...added, 'a last line only the third run printed'].join('\n')),
    ]);
    const strategy = createLosslessStrategy();
    const plan = optimizeWith(strategy)(history, config);
    const output = history.map((entry, index) => plan.replacements.get(index) ?? entry);
    expect(resultText(output[4]).split('\n')[0]).toMatch(/^⟨ Reference: See message #2 for output lines 1–20 /);
    // Lines 1–20 of message #4 are a marker there; the chain resolves in order.
    expect(resultText(output[6]).split('\n')).toEqual([
      expect.stringMatching(/^⟨ Reference: See message #4 for output lines 1–40 \(Bash `pytest`\) · [0-9a-f]{6} ⟩$/),
      'a last line only the third run printed',
    ]);
    expect(expandHistory(output)).toEqual(history);
    // Planned turn by turn, the third output finds the same reference through the second's record.
    const firstTwo = history.slice(0, 5);
    const earlier = optimizeWith(strategy)(firstTwo, config);
    const running = parseHistory([...firstTwo.map((entry, index) => earlier.replacements.get(index) ?? entry), ...history.slice(5)]);
    const later = optimizeWith(strategy)(running, config);
    expect([...later.replacements.keys()]).toEqual([6]);
    expect(later.replacements.get(6)).toEqual(plan.replacements.get(6));
  });

  it('FR-LC-003: should name a source message\'s operation in the first marker of an output that points at it, not in every one', () => {
    const first = fileLines('first', 12);
    const second = fileLines('second', 12);
    const history = [
      human('Print both, then both again with a line between.'),
      ...bash('b1', 'python show.py', [...first, 'the middle line of the first print', ...second].join('\n')),
      ...bash('b2', 'python show.py', [...first, 'a different middle line in the second print', ...second].join('\n')),
    ];
    const lines = resultText(optimized(history)[4]).split('\n');
    expect(lines[0]).toMatch(/^⟨ Reference: See message #2 for output lines 1–12 \(Bash `python show\.py`\) · [0-9a-f]{6} ⟩$/);
    expect(lines[1]).toBe('a different middle line in the second print');
    expect(lines[2]).toMatch(/^⟨ Reference: See message #2 for output lines 14–25 · [0-9a-f]{6} ⟩$/);
    expect(expandHistory(optimized(history))).toEqual(history);
  });

  it('FR-LC-003: should reference content a Write call wrote, and lines repeated higher up in the same output', () => {
    const written = fileLines('gamma', 20).join('\n');
    const repeated = fileLines('delta', 12);
    const history = [
      human('Write b.ts and read it back; then print the log.'),
      call('w1', 'Write', { file_path: '/repo/b.ts', content: written }),
      result('w1', 'Write', 'File created successfully at: /repo/b.ts'),
      ...read('r1', '/repo/b.ts', numbered(written.split('\n'))),
      ...bash('b1', 'cat log.txt', [...repeated, 'separator between the two copies of the block', ...repeated].join('\n')),
    ];
    const output = optimized(history);
    expect(resultText(output[4])).toMatch(/^⟨ Reference: File content already provided above, see message #1 \(Write b\.ts\) · [0-9a-f]{6} ⟩$/);
    expect(resultText(output[6]).split('\n').at(-1)).toMatch(/^⟨ Reference: See output lines 1–12 above · [0-9a-f]{6} ⟩$/);
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-003: should rewrite repeated lines in tool call parameters unless rewriteToolCallParameters is off', () => {
    const script = fileLines('script', 20).join('\n');
    const history = parseHistory([
      human('Write the script twice.'),
      ...bash('b1', `cat <<'EOF' > run.py\n${script}\nEOF`, ''),
      ...bash('b2', `cat <<'EOF' > run.py\n${script}\nprint('done')\nEOF`, ''),
    ]);
    expect(optimizeWith(createLosslessStrategy({ rewriteToolCallParameters: false }))(history, config).replacements.size).toBe(0);
    const plan = optimizeWith(createLosslessStrategy())(history, config);
    expect([...plan.replacements.keys()]).toEqual([3]);
    const rewritten = plan.replacements.get(3)?.blocks[0] as unknown as { parameters: { command: string } };
    expect(rewritten.parameters.command).toMatch(
      /^⟨ Reference: See message #1 for lines 1–21 of the call \(Bash run\.py\) · [0-9a-f]{6} ⟩\nprint\('done'\)\nEOF$/,
    );
    expect(expandHistory(history.map((entry, index) => plan.replacements.get(index) ?? entry))).toEqual(history);
  });

  it('should never rewrite the tool calls of a turn with signed thinking', () => {
    const script = fileLines('script', 20).join('\n');
    const history = parseHistory([
      human('Write the script twice.'),
      ...bash('b1', `cat <<'EOF' > run.py\n${script}\nEOF`, ''),
      { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'Write it again.', signature: 'EqMBCkgIARAB' }] },
      ...bash('b2', `cat <<'EOF' > run.py\n${script}\nEOF`, ''),
    ]);
    const plan = optimizeWith(createLosslessStrategy())(history, config);
    expect(plan.replacements.size).toBe(0);
  });

  it('FR-LC-003: should reference a parallel result of the same entry and rewrite only text inside structured results', () => {
    const listing = fileLines('listing', 20).join('\n');
    const history = [
      human('Two listings at once, then a structured one.'),
      {
        speaker: 'ai',
        blocks: [
          { type: 'tool_call', id: 'p1', name: 'Bash', parameters: { command: 'ls src' } },
          { type: 'tool_call', id: 'p2', name: 'Bash', parameters: { command: 'ls src/' } },
        ],
      },
      {
        speaker: 'tool',
        blocks: [
          { type: 'tool_response', callId: 'p1', toolName: 'Bash', result: listing },
          { type: 'tool_response', callId: 'p2', toolName: 'Bash', result: listing },
        ],
      },
      call('s1', 'execute_bash', { command: 'ls src' }),
      result('s1', 'execute_bash', { id: 'obs-7', exit_code: 0, content: [{ type: 'text', text: listing }] }),
    ] satisfies HistoryEntry[];
    const output = optimized(history);
    const parallel = output[2]?.blocks as ToolResponseBlock[];
    expect(parallel[0]?.result).toBe(listing);
    expect(parallel[1]?.result).toMatch(/^⟨ Consolidated 2 operations: same output as message #2/);
    const structured = (output[4]?.blocks[0] as ToolResponseBlock).result as { id: string; exit_code: number; content: { text: string }[] };
    expect(structured.id).toBe('obs-7');
    expect(structured.exit_code).toBe(0);
    expect(structured.content[0]?.text).toMatch(/^⟨ Consolidated 3 operations: same output as message #2/);
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-003: should record type, original index, path, operation and a verifying hash for every reference', () => {
    const history = [human('Twice.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText)];
    const references = listContentReferences(optimized(history));
    expect(references).toHaveLength(1);
    expect(references[0]).toMatchObject({
      entryIndex: 4,
      blockIndex: 0,
      reference: { type: 'file', originalIndex: 2, path: '/repo/a.ts', operation: 'Read a.ts', whole: true },
    });
    expect(references[0]?.reference?.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('FR-LC-004: should replace superseded todo lists in compress, keep the latest, and restore them with expandHistory', async () => {
    const todos = (status: string): JsonValue => ({
      todos: [
        { content: 'Write the parser', status, activeForm: 'Writing the parser' },
        { content: 'Test the parser', status: 'pending', activeForm: 'Testing the parser' },
      ],
    });
    const history = [
      human('Plan the parser work.'),
      call('t1', 'TodoWrite', todos('pending')),
      result('t1', 'TodoWrite', 'Todos have been modified successfully.'),
      call('t2', 'TodoWrite', todos('in_progress')),
      result('t2', 'TodoWrite', 'Todos have been modified successfully.'),
      call('t3', 'TodoWrite', todos('completed')),
      result('t3', 'TodoWrite', 'Todos have been modified successfully.'),
    ];
    const frozen = parseHistory(history);
    const optimize = optimizeWith(createLosslessStrategy());
    expect(optimize(frozen, config).replacements.size).toBe(0);

    const context = createTestCompressionContext({ history });
    const outcome = await createLosslessStrategy().compress(context);
    if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.type}`);
    const parameters = (index: number) => (outcome.newHistory[index]?.blocks[0] as { parameters: JsonValue }).parameters;
    expect(parameters(1)).toEqual({ todos: expect.stringMatching(/^⟨ Superseded: see the newer todo list in message #5 · [0-9a-f]{6} ⟩$/) as unknown });
    expect(parameters(3)).toEqual({ todos: expect.stringMatching(/^⟨ Superseded/) as unknown });
    expect(outcome.newHistory[5]).toBe(context.history[5]);
    expect(outcome.metadata.counts).toMatchObject({ obsoleteStatesRemoved: 2 });
    expect(expandHistory(outcome.newHistory)).toEqual(history);
  });

  it('FR-LC-004: should replace a status block repeated from an earlier result with a short reference', () => {
    const reminder = `<system-reminder>\n${fileLines('reminder', 8).join('\n')}\n</system-reminder>`;
    const history = [
      human('Run two commands.'),
      ...bash('b1', 'make one', `first output line that is only here\n${reminder}`),
      ...bash('b2', 'make two', `second output line that is only here\n${reminder}`),
    ];
    const output = optimized(history);
    expect(resultText(output[4])).toMatch(
      /^second output line that is only here\n⟨ Reference: See message #2 for the same system reminder · [0-9a-f]{6} ⟩$/,
    );
    expect(expandHistory(output)).toEqual(history);
  });

  it('FR-LC-004: should make zero model calls even when a summarizer is available', async () => {
    const summarizer = new MockSummarizer('unused');
    const history = [human('Twice.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText)];
    const outcome = await createLosslessStrategy().compress(createTestCompressionContext({ history, summarizer }));
    expect(outcome.type).toBe('applied');
    expect(summarizer.calls).toHaveLength(0);
    if (outcome.type === 'applied') expect(outcome.metadata.llmCallMade).toBe(false);
  });

  it('should report per-operation counts and savings from compress', async () => {
    const listing = fileLines('listing', 20).join('\n');
    const history = [human('Twice.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText), ...bash('b1', 'ls', listing), ...bash('b2', 'ls', listing)];
    const outcome = await createLosslessStrategy().compress(createTestCompressionContext({ history }));
    if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.type}`);
    expect(outcome.metadata.counts).toMatchObject({ fileReadsDeduplicated: 1, toolResultsConsolidated: 1, entriesRewritten: 2 });
    expect(outcome.metadata.counts?.['tokensSaved']).toBeGreaterThan(0);
  });

  it('should estimate the tokens compress would leave', async () => {
    const history = [human('Twice.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText)];
    const context = createTestCompressionContext({ history });
    const strategy = createLosslessStrategy();
    const estimate = await strategy.estimateReduction?.(context);
    const outcome = await strategy.compress(context);
    if (outcome.type !== 'applied') throw new Error(`expected applied, got ${outcome.type}`);
    expect(estimate).toEqual({
      tokensBefore: context.tokenCounter.countEntries(context.history),
      estimatedTokensAfter: context.tokenCounter.countEntries(outcome.newHistory),
    });
    expect(estimate?.estimatedTokensAfter).toBeLessThan(estimate?.tokensBefore ?? 0);
  });

  it('should return no-op when the history is under the target, and when nothing is redundant', async () => {
    const history = [human('Once.'), ...read('r1', '/repo/a.ts', fileText)];
    const strategy = createLosslessStrategy();
    expect(await strategy.compress(createTestCompressionContext({ history, contextLimit: 1_000_000 }))).toMatchObject({
      type: 'no-op',
      reason: 'already-under-target',
    });
    expect(await strategy.compress(createTestCompressionContext({ history }))).toMatchObject({
      type: 'no-op',
      reason: 'too-few-compressible',
    });
  });

  it('should leave reads alone when deduplicateFileReads is off, and command outputs when consolidateToolResults is off', () => {
    const listing = fileLines('listing', 20).join('\n');
    const history = parseHistory([human('Twice.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText), ...bash('b1', 'ls', listing), ...bash('b2', 'ls', listing)]);
    const noReads = optimizeWith(createLosslessStrategy({ deduplicateFileReads: false }));
    const noResults = optimizeWith(createLosslessStrategy({ consolidateToolResults: false }));
    expect([...noReads(history, config).replacements.keys()]).toEqual([8]);
    expect([...noResults(history, config).replacements.keys()]).toEqual([4]);
  });

  it('should not rewrite entries it already rewrote when optimize runs again', () => {
    const history = [human('Twice.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText)];
    const once = optimized(history);
    const optimize = optimizeWith(createLosslessStrategy());
    expect(optimize(parseHistory(once), config).replacements.size).toBe(0);
  });

  it('should give conversations that share one strategy, turn by turn, what a new strategy gives each of them', () => {
    const shared = optimizeWith(createLosslessStrategy());
    const start = parseHistory([human('Same start.')]);
    // Both conversations begin with the very same entry object, then differ.
    const first = [...start, ...parseHistory([...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText)])];
    const second = [...start, ...parseHistory([...bash('b1', 'npm test', fileText), ...read('r2', '/repo/b.ts', fileText)])];
    for (let end = 2; end <= 5; end++) {
      for (const history of [first, second]) {
        const input = history.slice(0, end);
        // An unfrozen copy: planned by the new strategy alone (frozen histories share plans between strategies).
        const alone = optimizeWith(createLosslessStrategy())(structuredClone(input), config);
        expect(shared(input, config)).toStrictEqual(alone);
      }
    }
    expect(shared(first, config).replacements.size).toBe(1);
    expect(resultText(shared(second, config).replacements.get(4))).toContain('message #2');
  });

  it('should never modify its input', () => {
    const history = [human('Twice.'), ...read('r1', '/repo/a.ts', fileText), ...read('r2', '/repo/a.ts', fileText)];
    const copy = structuredClone(history);
    optimized(history);
    expect(history).toEqual(copy);
  });
});
