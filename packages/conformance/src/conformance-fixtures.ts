import type { HistoryEntry, TextBlock, ToolDefinition } from '@ctx/core';
import { createSyntheticHistory } from './synthetic-history.js';

/** A named history the kit runs a strategy on. */
export interface ConformanceFixture {
  /** Short kebab-case name shown in reports. */
  readonly name: string;
  /** The one situation the fixture exercises. */
  readonly description: string;
  readonly history: readonly HistoryEntry[];
  readonly system?: readonly TextBlock[];
  readonly tools?: readonly ToolDefinition[];
}

const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const aiText = (text: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });
const lines = (label: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${String(index + 1).padStart(6)}\t${label} line ${index + 1}`).join('\n');

const chatOnly: ConformanceFixture = {
  name: 'chat-only',
  description: 'Human and assistant text only, no tools (spec 000 EC-003/EC-004).',
  history: Array.from({ length: 12 }, (_, index) =>
    index % 2 === 0
      ? human(`Question ${index / 2}: how should the parser treat input number ${index}? ${'Details. '.repeat(20)}`)
      : aiText(`Answer ${(index - 1) / 2}: it should normalize it first. ${'Reasoning. '.repeat(30)}`),
  ),
};

const sequentialTools: ConformanceFixture = {
  name: 'sequential-tools',
  description: 'One tool call per assistant turn, each answered by the next tool entry.',
  history: [
    human('Fix the failing parser test.'),
    ...Array.from({ length: 6 }, (_, index): HistoryEntry[] => [
      {
        speaker: 'ai',
        blocks: [
          { type: 'text', text: `Reading file ${index}.` },
          { type: 'tool_call', id: `seq_${index}`, name: 'Read', parameters: { file_path: `/repo/src/file-${index}.ts` } },
        ],
      },
      {
        speaker: 'tool',
        blocks: [{ type: 'tool_response', callId: `seq_${index}`, toolName: 'Read', result: lines(`file-${index}`, 60) }],
      },
    ]).flat(),
    aiText('Fixed: the parser now trims input before matching.'),
  ],
};

const parallelCalls: ConformanceFixture = {
  name: 'parallel-calls',
  description: 'Assistant turns with three parallel calls answered together; batches must stay whole.',
  history: [
    human('Compare the three config files.'),
    ...Array.from({ length: 4 }, (_, turn): HistoryEntry[] => [
      {
        speaker: 'ai',
        blocks: ['a', 'b', 'c'].map((suffix) => ({
          type: 'tool_call' as const,
          id: `par_${turn}_${suffix}`,
          name: 'Read',
          parameters: { file_path: `/repo/config-${turn}-${suffix}.json` },
        })),
      },
      {
        speaker: 'tool',
        blocks: ['a', 'b', 'c'].map((suffix) => ({
          type: 'tool_response' as const,
          callId: `par_${turn}_${suffix}`,
          toolName: 'Read',
          result: lines(`config-${turn}-${suffix}`, 40),
        })),
      },
    ]).flat(),
    aiText('They differ only in the port number.'),
  ],
};

const splitTurns: ConformanceFixture = {
  name: 'split-turns',
  description:
    'Claude Code style: one assistant turn stored as consecutive ai entries, its results as consecutive tool entries.',
  history: [
    human('Run the tests and show me the failures.'),
    ...Array.from({ length: 4 }, (_, turn): HistoryEntry[] => [
      { speaker: 'ai', blocks: [{ type: 'text', text: `Running batch ${turn}.` }] },
      {
        speaker: 'ai',
        blocks: [{ type: 'tool_call', id: `split_${turn}_1`, name: 'Bash', parameters: { command: `npm test -- ${turn}` } }],
      },
      {
        speaker: 'ai',
        blocks: [{ type: 'tool_call', id: `split_${turn}_2`, name: 'Bash', parameters: { command: 'git status' } }],
      },
      {
        speaker: 'tool',
        blocks: [{ type: 'tool_response', callId: `split_${turn}_1`, toolName: 'Bash', result: lines('test output', 50) }],
      },
      {
        speaker: 'tool',
        blocks: [{ type: 'tool_response', callId: `split_${turn}_2`, toolName: 'Bash', result: 'nothing to commit' }],
      },
    ]).flat(),
    aiText('Two tests fail, both in the date formatter.'),
  ],
};

const thinkingAndErrors: ConformanceFixture = {
  name: 'thinking-and-errors',
  description: 'Thinking blocks with signatures (kept verbatim or dropped whole) and failed tool results.',
  history: [
    human('Why does the build fail?'),
    ...Array.from({ length: 5 }, (_, turn): HistoryEntry[] => [
      {
        speaker: 'ai',
        blocks: [
          { type: 'thinking', thought: `Turn ${turn}: the error mentions a missing export. ${'Hmm. '.repeat(40)}`, signature: `EqMBCkgIARAB${turn}` },
          { type: 'tool_call', id: `err_${turn}`, name: 'Bash', parameters: { command: 'npm run build' } },
        ],
      },
      {
        speaker: 'tool',
        blocks: [
          {
            type: 'tool_response',
            callId: `err_${turn}`,
            toolName: 'Bash',
            result: `error TS2305: Module './parser' has no exported member 'parse'.\n${lines('build log', 30)}`,
            isError: true,
          },
        ],
      },
    ]).flat(),
    aiText('The build fails because parse is not exported from src/parser.ts.'),
  ],
};

const withSystemAndTools: ConformanceFixture = {
  name: 'system-and-tools',
  description: 'System instructions and tool definitions beside the history: counted, never changed.',
  system: [{ type: 'text', text: `You are a careful coding agent. ${'Follow the rules. '.repeat(60)}` }],
  tools: [
    { name: 'Read', description: 'Read a file', inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } } },
    { name: 'Bash', description: 'Run a shell command', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  ],
  history: sequentialTools.history,
};

const longSession: ConformanceFixture = {
  name: 'long-session',
  description: 'A generated 150-entry agent session with mixed single and parallel calls (deterministic).',
  history: createSyntheticHistory({ entries: 150, seed: 42 }),
};

/**
 * The kit's built-in fixtures, small and hand-written (one situation each) plus one generated long session. Pass
 * your own recorded transcripts in `fixtures` as well: real histories are the fixtures that matter.
 */
export const defaultConformanceFixtures: readonly ConformanceFixture[] = [
  chatOnly,
  sequentialTools,
  parallelCalls,
  splitTurns,
  thinkingAndErrors,
  withSystemAndTools,
  longSession,
];
