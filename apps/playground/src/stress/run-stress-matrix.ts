import { createTokenCounter, type Tokenizer } from '@ctx/core';
import { simulateStressSession, type StressSessionResult } from './simulate-stress-session.js';
import type { StressChain } from './stress-chains.js';
import { createStressContent } from './stress-content.js';
import type { StressScenario } from './stress-scenario.js';

/** Options of {@link runStressMatrix}. */
export interface StressMatrixOptions {
  readonly scenarios: readonly StressScenario[];
  readonly chains: readonly StressChain[];
  /** Counts our tokens; one counter (and content cache) is shared by every session. */
  readonly tokenizer: Tokenizer;
  /** Called after each cell, e.g. for a progress bar. */
  readonly onCell?: (result: StressSessionResult) => void;
}

/** The sums of a matrix run. */
export interface StressTotals {
  readonly sessions: number;
  readonly sends: number;
  readonly compactions: number;
  /** Overflowing sends, and the cells that had one. */
  readonly overflows: number;
  readonly overflowCells: number;
  /** Overflows sent blind (no real count known yet), which reveal the provider's count. */
  readonly blindOverflows: number;
  /** Overflows a chain is to blame for ({@link blamedOverflows}). */
  readonly blamedOverflows: number;
  /** Loops found, and the cells that had one. */
  readonly loops: number;
  readonly loopCells: number;
  readonly cannotFitCells: number;
  /** Cells with a defect ({@link isFailingCell}). */
  readonly failingCells: number;
  /** Cells whose session threw something other than `ContextWindowExceededError`. */
  readonly errorCells: number;
  /** Cells whose final history is not a valid Anthropic or OpenAI request. */
  readonly invalidCells: number;
}

/** Every cell of a run, in scenario order then chain order. */
export interface StressMatrix {
  readonly scenarios: readonly StressScenario[];
  readonly chains: readonly StressChain[];
  readonly cells: readonly StressSessionResult[];
  readonly totals: StressTotals;
  /** Wall-clock time of the whole run. */
  readonly durationMs: number;
}

/** True when a cell's final history would be rejected by Anthropic or OpenAI. */
export function isInvalidCell(cell: StressSessionResult): boolean {
  return cell.validity.anthropic.length > 0 || cell.validity.openai.length > 0;
}

/**
 * The overflows a cell is to blame for: every one, except a single blind overflow (no real count known yet: the
 * provider reports no usage and the undercount is larger than the initial factor, which no estimate can see) —
 * the rejection that reveals the ratio. A second one means the revealed count was not used.
 */
export function blamedOverflows(cell: StressSessionResult): number {
  const blind = cell.overflows.filter((overflow) => overflow.blind).length;
  return cell.overflows.length - Math.min(blind, 1);
}

/**
 * True when a cell shows a defect: an overflow it is to blame for ({@link blamedOverflows}), a loop, an unexpected
 * error, or an invalid final history. A `cannot-fit` outcome is not one by itself: the agent was told, nothing was
 * sent.
 */
export function isFailingCell(cell: StressSessionResult): boolean {
  return blamedOverflows(cell) > 0 || cell.loops.length > 0 || cell.outcome.type === 'error' || isInvalidCell(cell);
}

/** Sums the cells of a run. */
export function sumStressCells(cells: readonly StressSessionResult[]): StressTotals {
  const count = (predicate: (cell: StressSessionResult) => boolean) => cells.filter(predicate).length;
  const sum = (value: (cell: StressSessionResult) => number) => cells.reduce((total, cell) => total + value(cell), 0);
  return {
    sessions: cells.length,
    sends: sum((cell) => cell.sends),
    compactions: sum((cell) => cell.compactions),
    overflows: sum((cell) => cell.overflows.length),
    overflowCells: count((cell) => cell.overflows.length > 0),
    blindOverflows: sum((cell) => cell.overflows.filter((overflow) => overflow.blind).length),
    blamedOverflows: sum(blamedOverflows),
    loops: sum((cell) => cell.loops.length),
    loopCells: count((cell) => cell.loops.length > 0),
    cannotFitCells: count((cell) => cell.outcome.type === 'cannot-fit'),
    failingCells: count(isFailingCell),
    errorCells: count((cell) => cell.outcome.type === 'error'),
    invalidCells: count(isInvalidCell),
  };
}

/**
 * Runs every scenario through every chain, one session at a time. Scenarios are the outer loop: a scenario's
 * content is generated once and every chain's session counts it with the same token counter, so each text is
 * tokenized once.
 */
export async function runStressMatrix(options: StressMatrixOptions): Promise<StressMatrix> {
  const started = performance.now();
  const tokenCounter = createTokenCounter(options.tokenizer);
  const cells: StressSessionResult[] = [];
  for (const scenario of options.scenarios) {
    const content = createStressContent(scenario);
    for (const chain of options.chains) {
      const result = await simulateStressSession({ scenario, chain, tokenCounter, content });
      cells.push(result);
      options.onCell?.(result);
    }
  }
  return {
    scenarios: options.scenarios,
    chains: options.chains,
    cells,
    totals: sumStressCells(cells),
    durationMs: performance.now() - started,
  };
}
