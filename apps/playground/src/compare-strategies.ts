import {
  HistoryService,
  createCompressionOrchestrator,
  createTokenCounter,
  findNewToolPairingProblems,
  type CompressionStrategy,
  type Conversation,
  type StrategyWarning,
  type Tokenizer,
  type TurnReport,
} from '@ctx/core';

/** Options of {@link compareStrategies}. */
export interface CompareOptions {
  readonly conversation: Conversation;
  /** Factories, so every run starts from a fresh strategy. */
  readonly strategies: readonly (() => CompressionStrategy)[];
  readonly tokenizer: Tokenizer;
  /** The context window to compress for; by default the transcript's own size (as if it had just filled it). */
  readonly window?: number;
  /** Threshold override, a fraction in (0, 1]; by default each strategy's own. */
  readonly threshold?: number;
  /**
   * Runs per strategy; the reported time is the median.
   * @default 3
   */
  readonly runs?: number;
}

/** What one strategy did to the transcript. */
export interface StrategyComparison {
  readonly strategy: string;
  readonly outcome: 'applied' | 'no-op' | 'failed';
  /** The no-op reason or the failure message. */
  readonly detail: string | undefined;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Share of tokens removed, 0..1. */
  readonly reduction: number;
  readonly entriesBefore: number;
  readonly entriesAfter: number;
  /** No tool call / response pairing problem the transcript did not already have. */
  readonly pairValid: boolean;
  /** Median time of the strategy's passes (optimize + compress), in milliseconds. */
  readonly milliseconds: number;
  readonly warnings: readonly StrategyWarning[];
  /** The full report of the last run. */
  readonly report: TurnReport | undefined;
}

/** The transcript's figures and every strategy's result. */
export interface Comparison {
  readonly entries: number;
  /** Tokens of the whole request: history, system instructions and tool definitions. */
  readonly tokens: number;
  /** The part of `tokens` taken by system instructions and tool definitions. */
  readonly overheadTokens: number;
  readonly window: number;
  readonly results: readonly StrategyComparison[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Runs each strategy on the transcript the way an agent would (density optimization if the strategy has it, then
 * compression when over the threshold) and measures the outcome. A strategy that throws is reported as `failed`;
 * the others still run.
 */
export async function compareStrategies(options: CompareOptions): Promise<Comparison> {
  const { conversation } = options;
  // One counter for every run: each entry is tokenized once however many strategies and runs there are.
  const tokenCounter = createTokenCounter(options.tokenizer);
  const overheadTokens = tokenCounter.countOverhead(conversation.system, conversation.tools);
  const tokens = tokenCounter.countEntries(conversation.history) + overheadTokens;
  const window = options.window ?? Math.max(1, tokens);
  const runs = Math.max(1, options.runs ?? 3);

  const results: StrategyComparison[] = [];
  for (const createStrategy of options.strategies) {
    const durations: number[] = [];
    // The last run's report is shown: earlier runs include JIT warm-up.
    let last: { report: TurnReport; history: HistoryService } | undefined;
    let name = 'unknown';
    try {
      for (let run = 0; run < runs; run++) {
        const strategy = createStrategy();
        name = strategy.name;
        const history = new HistoryService({
          tokenCounter,
          system: conversation.system,
          tools: conversation.tools,
          history: conversation.history,
        });
        await history.waitForTokenUpdates();
        const orchestrator = createCompressionOrchestrator({
          history,
          strategies: [strategy],
          contextLimit: window,
          settings: options.threshold === undefined ? {} : { 'compression.threshold': options.threshold },
        });
        const report = await orchestrator.ensureCompressionBeforeSend();
        durations.push(report.passes.reduce((sum, pass) => sum + pass.durationMs, 0));
        last = { report, history };
      }
    } catch (error) {
      results.push({
        strategy: name,
        outcome: 'failed',
        detail: error instanceof Error ? error.message.split('\n')[0] : String(error),
        tokensBefore: tokens,
        tokensAfter: tokens,
        reduction: 0,
        entriesBefore: conversation.history.length,
        entriesAfter: conversation.history.length,
        pairValid: true,
        milliseconds: 0,
        warnings: [],
        report: undefined,
      });
      continue;
    }
    if (last === undefined) continue;
    const { report, history } = last;
    const applied = report.passes.some((pass) => pass.outcome === 'applied');
    const lastNoOp = [...report.passes].reverse().find((pass) => pass.outcome === 'no-op');
    results.push({
      strategy: name,
      outcome: applied ? 'applied' : 'no-op',
      detail: applied ? undefined : (lastNoOp?.reason ?? 'under-threshold'),
      tokensBefore: report.tokensBefore,
      tokensAfter: report.tokensAfter,
      reduction: report.tokensBefore === 0 ? 0 : 1 - report.tokensAfter / report.tokensBefore,
      entriesBefore: conversation.history.length,
      entriesAfter: history.length,
      pairValid: findNewToolPairingProblems(conversation.history, history.getRawHistory()).length === 0,
      milliseconds: median(durations),
      warnings: report.passes.flatMap((pass) => pass.warnings),
      report,
    });
  }
  return { entries: conversation.history.length, tokens, overheadTokens, window, results };
}
