import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenCounter } from '@ctx/core';
import { createAnthropicCostModel } from '@ctx/cost-anthropic';
import { beforeAll, describe, expect, it } from 'vitest';
import { isCompactionSummary } from '../calibration/claude-code-model-calls.js';
import { findCorpusDirectory } from '../corpus.js';
import { resolveStrategies } from '../resolve-strategies.js';
import { createTokenizer } from '../tokenizers.js';
import { sumCostByModel, type UsageTotals } from './model-cost-sums.js';
import { readCostSessions } from './read-cost-sessions.js';
import { simulateCompressedCost } from './simulate-compressed-cost.js';

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping the ctx cost corpus tests: ../shared/corpus not found (set CTX_CORPUS).');
const claudeCode = join(corpus ?? '', 'claude-code');
/** A session with a compaction and two subagent files (one of them Claude Code's compaction request). */
const spotterSession = '4d5611e5-241a-462a-8d15-5122611a9569';
const spotterFiles = [
  join(claudeCode, 'spotter', `${spotterSession}.jsonl`),
  join(claudeCode, 'spotter', spotterSession, 'subagents', 'agent-a2898e3.jsonl'),
  join(claudeCode, 'spotter', spotterSession, 'subagents', 'agent-acompact-e1f845.jsonl'),
];
/** Older format: sidechains inline in the session file, two models. */
const vslaFile = join(claudeCode, 'vsla', '5f8cbb78-38d3-47e9-9504-baa93bb166c9.jsonl');

interface RawUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number };
}

/**
 * The documented rule, done again from the raw lines: a line with a top-level `message.usage` is a usage record; the
 * records with the same message id and request id are one call, counted with the record that has the most tokens.
 */
function recount(files: readonly string[]): Map<string, UsageTotals & { usd: number }> {
  const calls = new Map<string, { model: string; usage: RawUsage; total: number }>();
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const record = JSON.parse(line) as { requestId?: string; message?: { id?: string; model?: string; usage?: RawUsage } };
      const usage = record.message?.usage;
      if (usage === undefined || record.message?.id === undefined) continue;
      const writes = usage.cache_creation === undefined
        ? (usage.cache_creation_input_tokens ?? 0)
        : (usage.cache_creation.ephemeral_5m_input_tokens ?? 0) + (usage.cache_creation.ephemeral_1h_input_tokens ?? 0);
      const total = usage.input_tokens + usage.output_tokens + writes + (usage.cache_read_input_tokens ?? 0);
      const key = `${record.message.id} ${record.requestId ?? ''}`;
      const seen = calls.get(key);
      if (seen === undefined || total > seen.total) calls.set(key, { model: record.message.model ?? '', usage, total });
    }
  }
  const byModel = new Map<string, UsageTotals & { usd: number }>();
  for (const { model, usage } of calls.values()) {
    const split = usage.cache_creation;
    const write5m = split === undefined ? (usage.cache_creation_input_tokens ?? 0) : (split.ephemeral_5m_input_tokens ?? 0);
    const write1h = split === undefined ? 0 : (split.ephemeral_1h_input_tokens ?? 0);
    const sum = byModel.get(model) ?? { calls: 0, inputTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, cacheReadTokens: 0, outputTokens: 0, usd: 0 };
    const cost = createAnthropicCostModel(model).price({
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      cacheWriteTokens: write5m,
      cacheWrite1hTokens: write1h,
      cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    });
    byModel.set(model, {
      calls: sum.calls + 1,
      inputTokens: sum.inputTokens + usage.input_tokens,
      cacheWrite5mTokens: sum.cacheWrite5mTokens + write5m,
      cacheWrite1hTokens: sum.cacheWrite1hTokens + write1h,
      cacheReadTokens: sum.cacheReadTokens + (usage.cache_read_input_tokens ?? 0),
      outputTokens: sum.outputTokens + usage.output_tokens,
      usd: sum.usd + cost,
    });
  }
  return byModel;
}

describe.skipIf(corpus === undefined)('ctx cost on the recorded Claude Code sessions', () => {
  let tokenCounter: ReturnType<typeof createTokenCounter>;
  beforeAll(async () => {
    tokenCounter = createTokenCounter(await createTokenizer('gpt-tokenizer'));
  });

  it.each([
    ['a session with its subagent files', spotterFiles],
    ['a session with inline sidechains', [vslaFile]],
  ])('should sum tokens and dollars per model as a recount of the raw lines does (%s)', async (_, files) => {
    const read = await readCostSessions(files, tokenCounter);
    const { models, total } = sumCostByModel(read.billedCalls);
    const expected = recount(files);
    expect(models.length).toBeGreaterThan(0);
    expect(new Set(models.map((sum) => sum.model))).toEqual(new Set(expected.keys()));
    for (const sum of models) {
      const { usd, ...tokens } = expected.get(sum.model) ?? { usd: Number.NaN };
      expect(sum, sum.model).toMatchObject(tokens);
      expect(sum.usd ?? Number.NaN).toBeCloseTo(usd, 6);
    }
    expect(total.usd).toBeCloseTo([...expected.values()].reduce((sum, model) => sum + model.usd, 0), 6);
    // Streamed responses write several records per call: counting records would overstate the bill.
    expect(read.usageRecords).toBeGreaterThan(total.calls);
  });

  it('should bill no more input with any deterministic strategy than was recorded, on sessions that never filled the window', async () => {
    const files = [
      join(claudeCode, 'spotter', 'tool_heavy.jsonl'),
      join(claudeCode, 'spotter', spotterSession, 'subagents', 'agent-a2898e3.jsonl'),
      join(claudeCode, 'claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'),
    ];
    const read = await readCostSessions(files, tokenCounter);
    const window = 200_000;
    // Only sessions with no compaction whose largest recorded request stayed under the window qualify.
    for (const session of read.sessions) {
      expect(session.conversation.history.some(isCompactionSummary)).toBe(false);
    }
    const largestRequest = Math.max(
      ...read.billedCalls.map(({ usage }) => usage.inputTokens + (usage.cacheWriteTokens ?? 0) + (usage.cacheWrite1hTokens ?? 0) + (usage.cacheReadTokens ?? 0)),
    );
    expect(largestRequest).toBeLessThan(window);

    const recorded = sumCostByModel(read.billedCalls);
    const strategies = await resolveStrategies({ plugin: [], set: [] });
    const simulated = await simulateCompressedCost({ sessions: read.sessions, billedCalls: read.billedCalls, recorded, strategies, tokenCounter, window });
    const input = (sums: UsageTotals) => sums.inputTokens + sums.cacheWrite5mTokens + sums.cacheWrite1hTokens + sums.cacheReadTokens;

    expect(simulated.replayedCalls).toBeGreaterThan(0);
    // Without a strategy the replay bills exactly what was recorded.
    expect(simulated.baseline.cost?.total).toMatchObject({ ...recorded.total, usd: expect.closeTo(recorded.total.usd, 9) as unknown });
    const deterministic = simulated.strategies.filter((row) => row.outcome !== 'needs-model');
    expect(deterministic.length).toBeGreaterThan(0);
    for (const row of deterministic) {
      expect(row.outcome, `${row.strategy}: ${row.detail ?? ''}`).toBe('simulated');
      expect(input(row.cost?.total ?? recorded.total), row.strategy).toBeLessThanOrEqual(input(recorded.total));
      expect(row.cost?.total.outputTokens, row.strategy).toBe(recorded.total.outputTokens);
    }
  });
});
