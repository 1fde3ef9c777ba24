import { describeConformance } from '@ctx/conformance/vitest';
import { loadCorpusFixtures } from '@ctx/test-corpus';
import { describe } from 'vitest';
import { createTruncationStrategy } from './truncation-strategy.js';

// Three real transcripts of different agents and formats: a Claude Code session (split assistant turns, structured
// results), a mini-swe-agent run (text actions, long shell output) and an OpenHands session (three leading user
// messages, execute_bash / str_replace_editor).
const picks: Readonly<Record<string, string>> = {
  'claude-code/claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl': 'Claude Code session, 23 entries',
  'openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json': 'mini-swe-agent run, 259 entries',
  'openhands/multi_swe_bench_examples_output.jsonl#2': 'OpenHands session, 69 entries',
};

const fixtures = loadCorpusFixtures(picks, 'truncation conformance');

describe('default settings', () => {
  describeConformance({ strategy: () => createTruncationStrategy(), fixtures });
});

// The most aggressive configuration: everything over its limits suppressed, user and assistant text included.
describe('suppress everything, one recent message', () => {
  describeConformance({
    strategy: () =>
      createTruncationStrategy({
        truncationMode: 'suppress',
        preserveRecentCount: 1,
        preserveUserMessages: false,
        preserveAssistantText: false,
        preserveErrors: false,
        maxMessageTextChars: 20,
      }),
    fixtures,
  });
});
