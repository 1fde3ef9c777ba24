import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenCounter } from '@ctx/core';
import { builtInPresets, presetToJson } from '@ctx/presets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCorpusDirectory } from '../corpus.js';
import { resolveStrategies } from '../resolve-strategies.js';
import { createTokenizer } from '../tokenizers.js';
import { sumCostByModel } from './model-cost-sums.js';
import { readCostSessions } from './read-cost-sessions.js';
import { simulateCompressedCost } from './simulate-compressed-cost.js';

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping the cache-aware planning corpus test: ../shared/corpus not found (set CTX_CORPUS).');
/** The two longest recorded Claude Code sessions (main conversations, 3.1 and 3.5 MB). */
const sessions = ['4d5611e5-241a-462a-8d15-5122611a9569', '258c7280-ae70-4798-800f-63464d01a85d'].map((id) =>
  join(corpus ?? '', 'claude-code', 'spotter', `${id}.jsonl`),
);

describe.skipIf(corpus === undefined)('cache-aware planning on recorded Claude Code sessions', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'ctx-cache-aware-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('should turn a preset that compacts every turn from costing more than the recorded sessions into saving', async () => {
    // coding-agent compacting on every call instead of at the threshold: each rewrite of history already sent
    // makes the provider write its cached prompt again.
    const continuous = JSON.parse(presetToJson(builtInPresets['coding-agent'])) as { name: string; strategies: { settings?: { trigger?: string } }[] };
    continuous.name = 'coding-agent-every-turn';
    for (const step of continuous.strategies) {
      if (step.settings?.trigger !== undefined) step.settings.trigger = 'continuous';
    }
    const file = join(directory, 'coding-agent-every-turn.json');
    writeFileSync(file, JSON.stringify(continuous));

    const tokenCounter = createTokenCounter(await createTokenizer('gpt-tokenizer'));
    const read = await readCostSessions(sessions, tokenCounter);
    const recorded = sumCostByModel(read.billedCalls);
    const strategies = await resolveStrategies({ presets: file, plugin: [], set: [] });
    const simulated = await simulateCompressedCost({
      sessions: read.sessions,
      billedCalls: read.billedCalls,
      recorded,
      strategies,
      tokenCounter,
      window: 200_000,
      cacheAware: true,
    });
    const [row] = simulated.strategies;
    expect(row?.outcome, row?.detail).toBe('simulated');
    const plain = row!.cost!.total.usd;
    const aware = row!.cacheAware!.cost.total.usd;
    // Without planning the rewrites cost more in cache writes than the smaller requests save.
    expect(plain).toBeGreaterThan(recorded.total.usd);
    expect(aware).toBeLessThan(recorded.total.usd);
    expect(aware).toBeLessThan(plain);
    expect(row!.cacheAware!.declined).toBeGreaterThan(0);
    expect(row!.cacheAware!.rewrites).toBeLessThan(row!.rewrites);
  });
});
