import {
  createTokenCounter,
  parseHistory,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type DensityConfig,
  type DensityResult,
  type HistoryEntry,
  type TokenCounter,
  type Tokenizer,
} from '@ctx/core';
import type { ConformanceFixture } from './conformance-fixtures.js';
import { createTestCompressionContext } from './create-test-compression-context.js';
import { MockSummarizer } from './mocks/mock-summarizer.js';

/** Thrown by a check that found a violation; the message says what the strategy did wrong. */
export class ConformanceFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceFailure';
  }
}

/**
 * How tight the budget of a `compress()` run is.
 * - `tight`: the fixture fills the whole window, so the target (threshold × window × 0.6) is well below it.
 * - `roomy`: the window is ten times the fixture; a strategy has nothing it needs to do.
 */
export type BudgetKind = 'tight' | 'roomy';

/** One strategy and one fixture, with everything a check needs to run them. */
export interface ConformanceSubject {
  /** A fresh strategy instance (strategies may keep state between calls). */
  readonly createStrategy: () => CompressionStrategy;
  readonly fixture: ConformanceFixture;
  readonly tokenizer: Tokenizer;
  readonly densityConfig: DensityConfig;
}

/** The fixture's history as frozen, validated entries: any attempt to mutate it throws. */
export function frozenHistory(subject: ConformanceSubject): readonly HistoryEntry[] {
  return parseHistory(subject.fixture.history, `fixture ${subject.fixture.name}`);
}

/** A counter over the subject's tokenizer (fresh cache). */
export function counterFor(subject: ConformanceSubject): TokenCounter {
  return createTokenCounter(subject.tokenizer);
}

/** Builds a frozen compression context for the fixture, with a tight or roomy budget. */
export function buildContext(
  subject: ConformanceSubject,
  strategy: CompressionStrategy,
  history: readonly HistoryEntry[],
  budget: BudgetKind,
): { context: CompressionContext; summarizer: MockSummarizer } {
  // A strategy that says it needs no model gets a summarizer that throws when called.
  const summarizer = strategy.requiresLLM
    ? new MockSummarizer((request) => `Summary of ${request.entries.length} earlier entries.`)
    : new MockSummarizer();
  const base = {
    history,
    tokenizer: subject.tokenizer,
    ...(subject.fixture.system === undefined ? {} : { system: subject.fixture.system }),
    ...(subject.fixture.tools === undefined ? {} : { tools: subject.fixture.tools }),
    threshold: strategy.trigger.defaultThreshold,
    summarizer,
    activeTodos: [{ content: 'Fix the failing test', status: 'in_progress' as const }],
  };
  const tight = createTestCompressionContext(base);
  const context =
    budget === 'tight' ? tight : createTestCompressionContext({ ...base, contextLimit: tight.budget.contextLimit * 10 });
  return { context, summarizer };
}

/** Runs `compress()`, turning a mutation attempt on the frozen input into a clear failure. */
export async function runCompress(
  strategy: CompressionStrategy,
  context: CompressionContext,
): Promise<CompressionResult> {
  try {
    return await strategy.compress(context);
  } catch (error) {
    throw explainMutation(error) ?? error;
  }
}

/** Runs `optimize()`, turning a mutation attempt on the frozen input into a clear failure. */
export function runOptimize(
  strategy: CompressionStrategy & Required<Pick<CompressionStrategy, 'optimize'>>,
  history: readonly HistoryEntry[],
  config: DensityConfig,
): DensityResult {
  try {
    return strategy.optimize(history, config);
  } catch (error) {
    throw explainMutation(error) ?? error;
  }
}

function explainMutation(error: unknown): ConformanceFailure | undefined {
  if (error instanceof TypeError && /read only|read-only|frozen|not extensible|Cannot (add|assign|delete)/i.test(error.message)) {
    return new ConformanceFailure(`the strategy tried to mutate its (frozen) input: ${error.message}`);
  }
  return undefined;
}

/** A stable string form of any strategy output, for determinism comparisons (Maps become sorted entry lists). */
export function stableSerialize(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Map ? [...(item as Map<unknown, unknown>).entries()].sort(([a], [b]) => Number(a) - Number(b)) : item,
  );
}
