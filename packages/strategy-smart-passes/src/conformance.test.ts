import { describeConformance } from '@ctx/conformance/vitest';
import { loadCorpusFixtures } from '@ctx/test-corpus';
import { describe } from 'vitest';
import { createSmartPassesStrategy } from './smart-passes-strategy.js';

// Three real transcripts of different agents and formats: a Claude Code session, a mini-swe-agent run (long shell
// output) and an OpenHands session.
const picks: Readonly<Record<string, string>> = {
  'claude-code/claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl': 'Claude Code session, 23 entries',
  'openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json': 'mini-swe-agent run, 259 entries',
  'openhands/multi_swe_bench_examples_output.jsonl#2': 'OpenHands session, 69 entries',
};

const fixtures = loadCorpusFixtures(picks, 'smart-passes conformance');

describe('default passes', () => {
  describeConformance({ strategy: () => createSmartPassesStrategy(), fixtures });
});

describe('continuous, the default passes in optimize() and compress()', () => {
  describeConformance({ strategy: () => createSmartPassesStrategy({ trigger: 'continuous' }), fixtures });
});

// Everything at once: suppress assistant text and parameters, then fold the old half into one summary.
describe('aggressive individual pass, then a batch summary', () => {
  describeConformance({
    strategy: () =>
      createSmartPassesStrategy({
        trigger: 'continuous',
        passes: [
          {
            id: 'suppress-everything',
            name: 'Suppress everything old',
            selection: { type: 'preserve_recent', keepRecentCount: 2 },
            mode: 'individual',
            individualConfig: { defaults: { messageText: 'suppress', toolParameters: 'suppress', toolResults: 'suppress' }, keepErrors: false },
            execution: { type: 'always' },
          },
          {
            id: 'fold-old-half',
            name: 'Fold the old half',
            selection: { type: 'preserve_percent', keepPercentage: 50 },
            mode: 'batch',
            batchConfig: { operation: 'summarize', summarizationConfig: { keepFirst: 1, keepLast: 0 } },
            execution: { type: 'always' },
          },
        ],
      }),
    fixtures,
  });
});
