import { describeConformance } from '@ctx/conformance/vitest';
import { loadCorpusFixtures } from '@ctx/test-corpus';
import { createStatefulWatermarkStrategy } from './stateful-watermark-strategy.js';
import { createWatermarkStrategy } from './watermark-strategy.js';

// One Claude Code session (TodoWrite checkpoints), one mini-swe-agent run, one OpenHands session: small enough to
// keep the kit fast, varied enough to cover split turns, text actions and native function calls.
const corpusFixtureNames: Readonly<Record<string, string>> = {
  'claude-code/claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl':
    'Claude Code demo session: split turns, TodoWrite, Task, Edit and MultiEdit calls',
  'openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json': 'mini-swe-agent run: one bash text action per turn',
  'openhands/multi_swe_bench_examples_output.jsonl#1': 'OpenHands session: execute_bash and str_replace_editor calls',
};

const corpusFixtures = loadCorpusFixtures(corpusFixtureNames, 'watermark conformance');

// Tools these fixtures call, as checkpoints, so every fixture is actually compressed (the default names never
// occur in recorded sessions).
const checkpointToolNames = ['TodoWrite', 'Bash', 'bash', 'execute_bash'];

describeConformance({ strategy: () => createWatermarkStrategy() });
describeConformance({ strategy: () => createWatermarkStrategy({ checkpointToolNames }), fixtures: corpusFixtures });
describeConformance({
  strategy: () => createStatefulWatermarkStrategy({ checkpointToolNames, removeThinking: true }),
  fixtures: corpusFixtures,
});
