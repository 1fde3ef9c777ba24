import { describeConformance } from '@ctx/conformance/vitest';
import { createHighDensityStrategy } from '@ctx/strategy-high-density';
import { createLosslessStrategy } from '@ctx/strategy-lossless';
import { createMiddleOutStrategy } from '@ctx/strategy-middle-out';
import { createSmartPassesStrategy } from '@ctx/strategy-smart-passes';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { loadCorpusFixtures } from '@ctx/test-corpus';
import { describe } from 'vitest';
import { builtInPresets } from './built-in-presets.js';
import { createPresetStrategy, type PresetStrategyFactory } from './create-preset-strategy.js';

const factories: Record<string, PresetStrategyFactory> = {
  lossless: createLosslessStrategy,
  'high-density': createHighDensityStrategy,
  truncation: createTruncationStrategy,
  'middle-out': createMiddleOutStrategy,
  'smart-passes': createSmartPassesStrategy,
};

// A real Claude Code session and a mini-swe-agent run (one shell tool for every action), besides the kit's own fixtures.
const fixtures = loadCorpusFixtures(
  {
    'claude-code/claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': 'Claude Code session with edits',
    'openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json': 'mini-swe-agent run, 259 entries',
  },
  'preset conformance',
);

// Every built-in preset is one strategy to the kit: smart passes and the other steps are checked as they run together.
for (const preset of Object.values(builtInPresets)) {
  describe(`preset ${preset.name}`, () => {
    describeConformance({ strategy: () => createPresetStrategy(preset, { factories }), fixtures });
  });
}
