import { describeConformance } from '@ctx/conformance/vitest';
import { corpusExists, loadCorpusConversations } from '@ctx/test-corpus';
import { createLosslessStrategy } from './lossless-strategy.js';

// Three varied real transcripts keep the kit fast: a Claude Code session (Read/Edit/TodoWrite, line-numbered reads),
// a mini-swe-agent run (every action a shell command) and an OpenHands session (str_replace_editor views).
const fixtureNames = [
  'claude-code/vsla/d7d349f9-c243-46e2-9a32-4a0eddfc634b.jsonl',
  'openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json',
  'openhands/multi_swe_bench_examples_output.jsonl#1',
];

if (!corpusExists) console.warn('Skipping the corpus fixtures of the lossless conformance run: corpus not found');

const fixtures = corpusExists
  ? loadCorpusConversations()
      .filter((item) => fixtureNames.includes(item.name))
      .map((item) => ({
        name: item.name,
        description: `Recorded transcript ${item.name}`,
        history: item.conversation.history,
        ...(item.conversation.system === undefined ? {} : { system: item.conversation.system }),
        ...(item.conversation.tools === undefined ? {} : { tools: item.conversation.tools }),
      }))
  : [];

describeConformance({ strategy: () => createLosslessStrategy(), fixtures });
