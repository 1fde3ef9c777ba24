import type { ConformanceFixture } from '@ctx/conformance';
import { describeConformance } from '@ctx/conformance/vitest';
import { corpusExists, loadCorpusConversations } from '@ctx/test-corpus';
import { describe } from 'vitest';
import { createSlidingWindowStrategy } from './sliding-window-strategy.js';

// Three recorded agents with different shapes: a Claude Code session (one entry per assistant turn, parallel
// results), a mini-swe-agent run (text actions decoded as calls, format-error replies from the harness) and an
// OpenHands run (several opening user messages, then a pure tool loop).
const corpusFixtures: Record<string, string> = {
  'claude-code/claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': 'A short real Claude Code session with parallel tool results.',
  'openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json': 'A mini-swe-agent SWE-bench run: a 259-entry pure tool loop.',
  'openhands/multi_swe_bench_examples_output.jsonl#2': 'An OpenHands CodeAct run with three opening user messages.',
};

if (!corpusExists) console.warn('Skipping the corpus fixtures of the conformance kit: corpus not found (set CTX_CORPUS).');

const fixtures: ConformanceFixture[] = corpusExists
  ? loadCorpusConversations()
      .filter((item) => item.name in corpusFixtures)
      .map((item) => ({
        name: item.name,
        description: corpusFixtures[item.name] ?? '',
        history: item.conversation.history,
        ...(item.conversation.system === undefined ? {} : { system: item.conversation.system }),
        ...(item.conversation.tools === undefined ? {} : { tools: item.conversation.tools }),
      }))
  : [];

describeConformance({ strategy: () => createSlidingWindowStrategy(), fixtures });

describe('with summary: summarizer (requiresLLM: true)', () => {
  describeConformance({ strategy: () => createSlidingWindowStrategy({ summary: 'summarizer' }), fixtures });
});
