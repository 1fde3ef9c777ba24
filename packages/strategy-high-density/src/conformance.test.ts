import { describeConformance } from '@ctx/conformance/vitest';
import { loadCorpusFixtures } from '@ctx/test-corpus';
import { createHighDensityStrategy } from './high-density-strategy.js';

// One Claude Code session, one mini-swe-agent run, one SWE-agent trajectory: small enough to keep the kit fast,
// varied enough to cover Read/Edit pairs, shell reads and writes, and an editor with an open file.
const corpusFixtureNames: Readonly<Record<string, string>> = {
  'claude-code/claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl':
    'Claude Code demo session: split turns, Read, Edit and MultiEdit calls',
  'openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json': 'mini-swe-agent run: sed -n reads and sed -i writes',
  'swe-agent/gpt4__pydicom-1458.traj': 'SWE-agent run: open, edit and status lines',
};

const corpusFixtures = loadCorpusFixtures(corpusFixtureNames, 'high-density conformance');

describeConformance({ strategy: () => createHighDensityStrategy(), fixtures: corpusFixtures });
// With dedup off the strategy does not declare rewritesUserText, so the kit's user-text-verbatim check runs too.
describeConformance({ strategy: () => createHighDensityStrategy({ fileDedupe: false }), fixtures: corpusFixtures });
describeConformance({
  strategy: () => createHighDensityStrategy({ recencyPruning: true, foldEdits: true }),
  fixtures: corpusFixtures,
});
