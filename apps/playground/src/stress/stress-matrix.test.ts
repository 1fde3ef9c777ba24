import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { createTokenCounter } from '@ctx/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { isFailingCell, runStressMatrix, type StressMatrix } from './run-stress-matrix.js';
import { simulateStressSession } from './simulate-stress-session.js';
import { createDefaultStressChains, createStressChain } from './stress-chains.js';
import { createStressScenarios } from './stress-scenarios.js';

/** Strategies that drop whole old turns: with one of them in the chain, any conversation fits a window it can fit at all. */
const turnDroppers = new Set(['sliding-window', 'top-down-truncation']);

describe('ctx stress matrix (issue 13: never overflow)', () => {
  let matrix: StressMatrix;
  beforeAll(async () => {
    matrix = await runStressMatrix({
      scenarios: createStressScenarios(),
      chains: createDefaultStressChains(),
      tokenizer: await createGptTokenizer(),
    });
  }, 300_000);

  it("should play spec 002's 25 stress scenarios and the giant outputs of 1×, 2× and 5× the window through 9 chains", () => {
    expect(matrix.scenarios.filter((scenario) => scenario.source === 'spec-002').length).toBeGreaterThanOrEqual(25);
    expect(matrix.scenarios.filter((scenario) => scenario.source === 'giant-output').map((scenario) => scenario.name)).toEqual([
      'TestStress_200k_GiantOutput_1x',
      'TestStress_200k_GiantOutput_2x',
      'TestStress_128k_GiantOutput_5x',
    ]);
    expect(matrix.cells).toHaveLength(matrix.scenarios.length * 9);
  });

  it('should send no request over the window, except one blind rejection that reveals a ratio no usage reported', () => {
    const failing = matrix.cells.filter(isFailingCell).map((cell) => `${cell.scenario} × ${cell.chain}`);
    expect(failing).toEqual([]);
    for (const cell of matrix.cells) {
      expect(cell.maxRealTokens, `${cell.scenario} × ${cell.chain}`).toBeLessThanOrEqual(
        matrix.scenarios.find((scenario) => scenario.name === cell.scenario)?.contextLimit ?? 0,
      );
      for (const overflow of cell.overflows) {
        const scenario = matrix.scenarios.find((candidate) => candidate.name === cell.scenario);
        expect(overflow.blind, `${cell.scenario} × ${cell.chain} turn ${overflow.turn}`).toBe(true);
        expect(scenario?.turns.some((turn) => turn.usageMetadata), cell.scenario).toBe(false);
      }
    }
  });

  it('should loop in no cell (no compaction without reduction, no futile retry every turn, no thrashing)', () => {
    expect(matrix.cells.flatMap((cell) => cell.loops.map((loop) => `${cell.scenario} × ${cell.chain}: ${loop.detail}`))).toEqual([]);
  });

  it('should fit every giant tool output, with every chain, and keep the history provider-valid', () => {
    const giant = matrix.cells.filter((cell) => cell.scenario.includes('GiantOutput') || cell.scenario.includes('SingleGiant'));
    expect(giant.length).toBeGreaterThanOrEqual(36);
    for (const cell of giant) {
      expect(cell.outcome, `${cell.scenario} × ${cell.chain}`).toEqual({ type: 'ok' });
      expect(cell.validity).toMatchObject({ anthropic: [], openai: [] });
    }
  });

  it('should end only with a typed "cannot fit", and only where the chain cannot drop turns or the system prompt alone is too large', () => {
    for (const cell of matrix.cells) {
      if (cell.outcome.type !== 'cannot-fit') continue;
      const where = `${cell.scenario} × ${cell.chain}`;
      if (cell.outcome.reason === 'overhead-too-large') {
        expect(cell.scenario, where).toBe('TestStress_CompactionNoInfiniteLoop');
      } else {
        expect(cell.chain.split('→').some((name) => turnDroppers.has(name)), where).toBe(false);
      }
      expect(cell.outcome.projectedTokens, where).toBeGreaterThan(cell.outcome.availableTokens);
    }
    const withTurnDropper = matrix.cells.filter((cell) => cell.chain.split('→').some((name) => turnDroppers.has(name)));
    expect(withTurnDropper.filter((cell) => cell.outcome.type === 'cannot-fit' && cell.outcome.reason !== 'overhead-too-large')).toEqual([]);
  });

  it('should report a system prompt larger than the window once, as "cannot fit", instead of retrying every turn', () => {
    const cells = matrix.cells.filter((cell) => cell.scenario === 'TestStress_CompactionNoInfiniteLoop');
    for (const cell of cells) {
      expect(cell.outcome).toMatchObject({ type: 'cannot-fit', reason: 'overhead-too-large' });
      expect(cell.compactions).toBe(0);
    }
  });

  it('should learn the ratio: the calibration factor ends near each scenario’s ratio when usage is reported', () => {
    for (const cell of matrix.cells.filter((candidate) => candidate.scenario === 'TestStress_200k_HighTokenRatio')) {
      expect(cell.calibrationFactor).toBeCloseTo(3, 1);
    }
  });
});

describe('the stress simulation can fail', () => {
  it('should count overflows when the orchestrator is blind to the token ratio (calibration off)', async () => {
    const scenario = createStressScenarios().find((candidate) => candidate.name === 'TestStress_200k_ToolHeavy');
    if (scenario === undefined) throw new Error('scenario missing');
    const result = await simulateStressSession({
      scenario,
      chain: createStressChain(['sliding-window']),
      tokenCounter: createTokenCounter(await createGptTokenizer()),
      calibration: false,
    });
    expect(result.overflows.length).toBeGreaterThan(0);
    expect(isFailingCell(result)).toBe(true);
  });
});
