import type { ContentBlock, HistoryEntry } from '@ctx/core';

/** Options of {@link createSyntheticHistory}. */
export interface SyntheticHistoryOptions {
  /** Exact number of entries to produce. */
  readonly entries: number;
  /**
   * Seed of the pseudo-random generator: the same seed gives the same history.
   * @default 1
   */
  readonly seed?: number;
}

/** mulberry32: a tiny, well-known deterministic PRNG; enough for reproducible fixtures. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const files = ['src/index.ts', 'src/parser.ts', 'src/format-date.ts', 'src/cache.ts', 'test/parser.test.ts', 'README.md'];
const commands = ['npm test', 'npm run lint', 'git status', 'npx tsc --noEmit', 'ls -la src'];
const requests = [
  'The date tests fail on CI, can you look?',
  'Can you also handle time zones?',
  'Please add a test for the empty input case.',
  'Why is the cache never invalidated?',
  'Looks good. Now update the README.',
  'Run the linter and fix what it reports.',
];

function fileContent(random: () => number, path: string): string {
  const lines = 20 + Math.floor(random() * 120);
  const body: string[] = [];
  for (let line = 1; line <= lines; line++) {
    const indent = ' '.repeat(2 * Math.floor(random() * 3));
    body.push(`${String(line).padStart(6)}\t${indent}const value${line} = compute(${Math.floor(random() * 1000)}); // ${path}`);
  }
  return body.join('\n');
}

function commandOutput(random: () => number, command: string): { text: string; isError: boolean } {
  const failed = random() < 0.25;
  const lines = [`$ ${command}`];
  const count = 3 + Math.floor(random() * 30);
  for (let index = 0; index < count; index++) lines.push(`  ✓ case ${index} (${Math.floor(random() * 50)} ms)`);
  if (failed) lines.push('  ✗ formats dates in UTC', '    AssertionError: expected "2026-11-03" to be "2026-11-04"');
  return { text: lines.join('\n'), isError: failed };
}

/**
 * Generates a deterministic, pair-valid agent session of exactly `entries` entries: user requests, assistant turns
 * with single and parallel tool calls (file reads, edits, shell commands, some failing), occasional thinking, and
 * final answers. For benchmarks at several sizes and for property-style conformance runs; real transcripts remain
 * the fixtures that matter.
 *
 * @example
 * ```ts
 * const history = createSyntheticHistory({ entries: 600, seed: 7 });
 * ```
 */
export function createSyntheticHistory(options: SyntheticHistoryOptions): HistoryEntry[] {
  const random = createRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const history: HistoryEntry[] = [];
  let callNumber = 0;

  const toolTurn = () => {
    const parallel = random() < 0.3 ? 2 + Math.floor(random() * 2) : 1;
    const calls: ContentBlock[] = [];
    const responses: ContentBlock[] = [];
    if (random() < 0.2) {
      calls.push({ type: 'thinking', thought: 'Let me look at the relevant code first.', signature: `sig_${callNumber}` });
    }
    for (let index = 0; index < parallel; index++) {
      const id = `call_${(callNumber++).toString(36).padStart(6, '0')}`;
      const kind = random();
      if (kind < 0.5) {
        const path = pick(files);
        calls.push({ type: 'tool_call', id, name: 'Read', parameters: { file_path: `/repo/${path}` } });
        responses.push({ type: 'tool_response', callId: id, toolName: 'Read', result: fileContent(random, path) });
      } else if (kind < 0.7) {
        const path = pick(files);
        calls.push({
          type: 'tool_call',
          id,
          name: 'Edit',
          parameters: { file_path: `/repo/${path}`, old_string: 'compute(1)', new_string: 'compute(2)' },
        });
        responses.push({ type: 'tool_response', callId: id, toolName: 'Edit', result: `Updated /repo/${path}` });
      } else {
        const command = pick(commands);
        const output = commandOutput(random, command);
        calls.push({ type: 'tool_call', id, name: 'Bash', parameters: { command } });
        responses.push({
          type: 'tool_response',
          callId: id,
          toolName: 'Bash',
          result: output.text,
          ...(output.isError ? { isError: true } : {}),
        });
      }
    }
    history.push({ speaker: 'ai', blocks: [{ type: 'text', text: 'Checking.' }, ...calls] });
    history.push({ speaker: 'tool', blocks: responses });
  };

  while (history.length < options.entries) {
    const remaining = options.entries - history.length;
    if (remaining === 1) {
      history.push({ speaker: 'human', blocks: [{ type: 'text', text: pick(requests) }] });
      break;
    }
    if (remaining === 2 || random() < 0.15 || history.length === 0) {
      history.push({ speaker: 'human', blocks: [{ type: 'text', text: pick(requests) }] });
      if (remaining === 2) {
        history.push({ speaker: 'ai', blocks: [{ type: 'text', text: 'Done: the change is in and the tests pass.' }] });
      }
      continue;
    }
    if (remaining === 3) {
      history.push({ speaker: 'ai', blocks: [{ type: 'text', text: 'One more check.' }] });
      continue;
    }
    toolTurn();
  }
  return history;
}
