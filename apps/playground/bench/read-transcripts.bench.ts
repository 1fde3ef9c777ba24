// Parse + convert the largest recorded sessions of the corpus (warm; the file text is already in memory).
// Target for the largest Claude Code session: ≤ 100 ms. Skipped when ../shared/corpus is absent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertClaudeCodeSession, parseClaudeCodeSession } from '@ctx/format-claude-code';
import { decodeTrajectory } from '@ctx/format-trajectories';
import { bench, describe } from 'vitest';
import { findBenchCorpus, measuredRun } from './bench-support.js';

const corpus = findBenchCorpus('transcript benchmarks');
const measured = measuredRun({ time: 3000, warmupTime: 1000 });

if (corpus !== undefined) {
  const claudeCode = readFileSync(join(corpus, 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), 'utf8');
  const miniSweAgent = readFileSync(join(corpus, 'openai-chat/mini-swe-agent/psf__requests-1142.traj.json'), 'utf8');

  describe('read the largest corpus transcripts', () => {
    bench('Claude Code 3.1 MB: parse + convert (whole session)', () => {
      convertClaudeCodeSession(parseClaudeCodeSession(claudeCode), { view: 'whole-session' });
    }, measured);
    bench('Claude Code 3.1 MB: parse + convert (last epoch)', () => {
      convertClaudeCodeSession(parseClaudeCodeSession(claudeCode), { view: 'last-epoch' });
    }, measured);
    bench('mini-swe-agent 2.1 MB: JSON.parse + decode', () => {
      decodeTrajectory(JSON.parse(miniSweAgent));
    }, measured);
  });
}
