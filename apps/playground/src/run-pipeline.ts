import {
  HistoryService,
  createCompressionOrchestrator,
  type ComposedStrategy,
  type CompressionStrategy,
  type Conversation,
  type Summarizer,
  type TokenCounter,
  type TurnReport,
} from '@ctx/core';
import { guardStrategyCalls } from './guard-strategy-calls.js';
import { StrategyFailedError } from './strategy-failed-error.js';

/** Options of {@link runPipeline}. */
export interface PipelineOptions {
  readonly conversation: Conversation;
  /** Strategies run one after the other on the same history; factories, so every run starts fresh. */
  readonly strategies: readonly (() => CompressionStrategy)[];
  /** Shared across runs so each entry is tokenized once. */
  readonly tokenCounter: TokenCounter;
  /** The context window. */
  readonly window: number;
  /** Threshold override, a fraction in (0, 1]. */
  readonly threshold?: number;
  /** Compression target for the whole request, in tokens (default: threshold × window × 0.6). */
  readonly budget?: number;
  /** Handed to LLM strategies (one-shot, middle-out, native) through the compression context. */
  readonly summarizer?: Summarizer;
}

/** What a pipeline run did. */
export interface PipelineResult {
  /** One report per strategy, in order. */
  readonly reports: readonly TurnReport[];
  /** The history after every strategy ran. */
  readonly after: Conversation;
  /**
   * `after` as the model can still read it: the references of strategies that implement `expand()` (lossless)
   * resolved, newest pass first; the same object as `after` when there were none. A reference whose source a later
   * pass removed or changed is left as it is (its content counts as gone).
   */
  readonly readable: Conversation;
  /** Time of all passes (optimize, compress, apply), in milliseconds. */
  readonly milliseconds: number;
}

/**
 * Runs strategies on a conversation the way an agent loop would: for each strategy, an orchestrator on the shared
 * history calls `ensureCompressionBeforeSend()` (density optimization for continuous strategies, then compression
 * when the request passes the threshold).
 *
 * @throws `StrategyFailedError` when a strategy's `optimize()`, `compress()` or (last pass only) `expand()`
 *   throws — one line naming the strategy, the method and what happened (a write to its frozen input is called out);
 *   the strategy's error is the `cause`. Errors of the orchestrator itself (e.g. an invalid result) propagate as they are.
 */
export async function runPipeline(options: PipelineOptions): Promise<PipelineResult> {
  const { conversation } = options;
  const history = new HistoryService({
    tokenCounter: options.tokenCounter,
    system: conversation.system,
    tools: conversation.tools,
    history: conversation.history,
  });
  await history.waitForTokenUpdates();
  const reports: TurnReport[] = [];
  const strategies: CompressionStrategy[] = [];
  for (const createStrategy of options.strategies) {
    const strategy = createStrategy();
    strategies.push(strategy);
    const orchestrator = createCompressionOrchestrator({
      history,
      strategies: [guardStrategyCalls(strategy)],
      contextLimit: options.window,
      // The window and budget are in the chosen tokenizer's tokens: measuring, not guarding a provider's limit.
      calibration: false,
      ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
      ...(options.budget === undefined ? {} : { targetTokens: options.budget }),
      settings: options.threshold === undefined ? {} : { 'compression.threshold': options.threshold },
    });
    reports.push(await orchestrator.ensureCompressionBeforeSend());
    orchestrator.dispose();
  }
  const after: Conversation = {
    ...history.toConversation(),
    ...(conversation.providerMetadata === undefined ? {} : { providerMetadata: conversation.providerMetadata }),
  };
  return {
    reports,
    after,
    readable: resolveReferences(after, strategies),
    milliseconds: reports.flatMap((report) => report.passes).reduce((sum, pass) => sum + pass.durationMs, 0),
  };
}

/** The strategies a pass ran: a composed strategy's steps (recursively), else the strategy itself. */
function stepsOf(strategy: CompressionStrategy): CompressionStrategy[] {
  const steps = (strategy as Partial<ComposedStrategy>).steps;
  return Array.isArray(steps) && strategy.expand === undefined ? steps.flatMap(stepsOf) : [strategy];
}

/**
 * Resolves the references of every strategy that implements `expand()`, last pass first. An `expand()` that throws
 * although no pass ran after its strategy is a broken strategy, and its error propagates (the run is reported as
 * failed); after a later pass it only means that pass removed what a reference points at.
 */
function resolveReferences(after: Conversation, passes: readonly CompressionStrategy[]): Conversation {
  // A preset (composeStrategies) runs its steps in order: its lossless steps' references are resolved like a pass's.
  const strategies = passes.flatMap(stepsOf);
  let history = after.history;
  for (let position = strategies.length - 1; position >= 0; position--) {
    const strategy = strategies[position] as CompressionStrategy;
    if (strategy.expand === undefined) continue;
    try {
      history = strategy.expand(history);
    } catch (error) {
      if (position === strategies.length - 1) throw new StrategyFailedError({ strategyName: strategy.name, method: 'expand', cause: error });
      // A later pass removed or changed what a reference points at: the model cannot follow it either.
    }
  }
  return history === after.history ? after : { ...after, history };
}
