// The calibration figures of packages/core/README.md, checked on the recorded Claude Code sessions: what a user
// of the orchestrator notices is that calibrated request sizes are closer to what the provider bills, and that far
// fewer requests are under-counted (the ones that overflow a window).
import { join } from 'node:path';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { createTiktokenTokenizer } from '@ctx/tokenizer-tiktoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { findCorpusDirectory } from '../corpus.js';
import type { CalibrationTokenizer } from './calibration-tokenizers.js';
import { loadClaudeCodeSessions, type LoadedClaudeCodeSession } from './load-claude-code-sessions.js';
import { measureCalibration, orchestratorPredictorName, type TokenizerCalibration } from './measure-calibration.js';

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping the calibration corpus test: ../shared/corpus not found (set CTX_CORPUS).');

/** Conversations measured: the first 10 (3 sessions, 7 subagents, one compaction) unless CTX_CALIBRATION_SESSIONS says more. */
const sessionLimit = Number(process.env.CTX_CALIBRATION_SESSIONS ?? '10');

function modeError(result: TokenizerCalibration, name: string) {
  const mode = result.modes.find((candidate) => candidate.mode === name);
  if (mode === undefined) throw new Error(`Expected a "${name}" row, got ${result.modes.map((row) => row.mode).join(', ')}`);
  return mode;
}

describe.skipIf(corpus === undefined)('measureCalibration on the recorded Claude Code sessions', () => {
  let sessions: LoadedClaudeCodeSession[] = [];
  beforeAll(async () => {
    sessions = await loadClaudeCodeSessions(join(corpus ?? '', 'claude-code'), { limit: sessionLimit });
  });

  const tokenizers: readonly [string, () => Promise<CalibrationTokenizer>][] = [
    ['gpt-tokenizer', async () => ({ tokenizer: await createGptTokenizer(), dispose: () => undefined })],
    [
      'tiktoken',
      async () => {
        const tokenizer = await createTiktokenTokenizer();
        return { tokenizer, dispose: () => tokenizer.dispose() };
      },
    ],
  ];

  for (const [label, create] of tokenizers) {
    it(`should predict request sizes closer to the provider's count with latest-ratio than without calibration (${label})`, async () => {
      const { tokenizer, dispose } = await create();
      const result = await measureCalibration(sessions, tokenizer).finally(dispose);

      expect(result.calls).toBeGreaterThan(50);
      const none = modeError(result, 'none');
      const latest = modeError(result, 'latest-ratio');
      const orchestrator = modeError(result, orchestratorPredictorName);
      // Claude's tokenizer and the unrecorded system prompt make our raw count too small.
      expect(result.ratio.median).toBeGreaterThan(1);
      expect(latest.meanAbsolutePercentageError).toBeLessThan(none.meanAbsolutePercentageError);
      expect(latest.underCountShare).toBeLessThan(none.underCountShare);
      // What the orchestrator actually uses is at least as safe as the factor alone.
      expect(orchestrator.underCounts).toBeLessThanOrEqual(latest.underCounts);
    });
  }
});
