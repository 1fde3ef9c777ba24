import {
  createTokenCounter,
  type CompressionStrategy,
  type Conversation,
  type Summarizer,
  type TokenCounter,
  type Tokenizer,
  type TurnReport,
} from '@ctx/core';
import { measureCompression, type CompressionMeasurement } from './measure-compression.js';
import { runPipeline } from './run-pipeline.js';

/** Options of {@link compareStrategies}. */
export interface CompareOptions {
  readonly conversation: Conversation;
  /** Each strategy runs on its own; factories, so every run starts fresh. */
  readonly strategies: readonly (() => CompressionStrategy)[];
  /** A tokenizer, or a counter shared across calls so entries are tokenized once. */
  readonly tokenizer: Tokenizer | TokenCounter;
  /** The context window to compress for; by default the transcript's own size (as if it had just filled it). */
  readonly window?: number;
  /** Threshold override, a fraction in (0, 1]; by default each strategy's own. */
  readonly threshold?: number;
  /** Compression target for the whole request, in tokens (default: threshold × window × 0.6). */
  readonly budget?: number;
  /**
   * Runs per strategy; the reported time is the median. Strategies that call a model run once: every run would be
   * a paid request.
   * @default 3
   */
  readonly runs?: number;
  /** Handed to LLM strategies; without it they report a `missing-summarizer` no-op. */
  readonly summarizer?: Summarizer;
}

/**
 * What one strategy did to the transcript. For `failed`, the measurement is of the untouched input (nothing was
 * produced to measure): show the outcome and `detail`, not those figures.
 */
export interface StrategyComparison extends CompressionMeasurement {
  readonly strategy: string;
  /** The strategy (or a step of the preset) summarizes with a model. */
  readonly requiresLLM: boolean;
  /** `applied` when a pass changed the history, `no-op` when none did, `failed` when the strategy threw. */
  readonly outcome: 'applied' | 'no-op' | 'failed';
  /** Why nothing changed, for `no-op`: the reason code (`already-under-target`, …, or `under-threshold`). */
  readonly reason?: string;
  /**
   * For `no-op`, the reason code and the strategy's sentence about it (`too-few-compressible — no call of …`); for
   * `failed`, the whole error message (every line). Undefined when the strategy applied.
   */
  readonly detail: string | undefined;
  /** Median time of the strategy's passes (optimize + compress + apply), in milliseconds. */
  readonly milliseconds: number;
  /** The report of the last run (earlier runs include JIT warm-up); undefined when the strategy failed. */
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
 * The whole failure message: the error's own, and the lines of its cause that it left out (a wrapper's message
 * often quotes only the first line of the strategy's error).
 */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  if (cause === undefined || error.message.includes(cause)) return error.message;
  const [first = '', ...rest] = cause.split('\n');
  return error.message.includes(first) ? [error.message, ...rest].join('\n') : `${error.message}\n${cause}`;
}

/**
 * Runs each strategy on the transcript the way an agent would (density optimization if the strategy has it, then
 * compression when over the threshold) and measures the outcome: tokens, retention, provider validity, time. A
 * strategy that throws is reported as `failed`; the others still run.
 */
export async function compareStrategies(options: CompareOptions): Promise<Comparison> {
  const { conversation } = options;
  const tokenCounter = 'countEntry' in options.tokenizer ? options.tokenizer : createTokenCounter(options.tokenizer);
  const overheadTokens = tokenCounter.countOverhead(conversation.system, conversation.tools);
  const tokens = tokenCounter.countEntries(conversation.history) + overheadTokens;
  const window = options.window ?? Math.max(1, tokens);
  const runs = Math.max(1, options.runs ?? 3);

  const results: StrategyComparison[] = [];
  for (const createStrategy of options.strategies) {
    const probe = createStrategy();
    const name = probe.name;
    const durations: number[] = [];
    let last: Awaited<ReturnType<typeof runPipeline>> | undefined;
    try {
      for (let run = 0; run < (probe.requiresLLM ? 1 : runs); run++) {
        last = await runPipeline({
          conversation,
          strategies: [createStrategy],
          tokenCounter,
          window,
          ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
          ...(options.budget === undefined ? {} : { budget: options.budget }),
          ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
        });
        durations.push(last.milliseconds);
      }
    } catch (error) {
      results.push({
        ...measureCompression(conversation, conversation, tokenCounter),
        strategy: name,
        requiresLLM: probe.requiresLLM,
        outcome: 'failed',
        detail: describeFailure(error),
        milliseconds: 0,
        report: undefined,
      });
      continue;
    }
    if (last === undefined) continue;
    const report = last.reports[0];
    const passes = report?.passes ?? [];
    const applied = passes.some((pass) => pass.outcome === 'applied');
    const lastNoOp = [...passes].reverse().find((pass) => pass.outcome === 'no-op');
    const reason = lastNoOp?.reason ?? 'under-threshold';
    results.push({
      ...measureCompression(conversation, last.after, tokenCounter, last.readable),
      strategy: name,
      requiresLLM: probe.requiresLLM,
      outcome: applied ? 'applied' : 'no-op',
      ...(applied ? {} : { reason }),
      detail: applied ? undefined : lastNoOp?.message === undefined ? reason : `${reason} — ${lastNoOp.message}`,
      milliseconds: median(durations),
      report,
    });
  }
  return { entries: conversation.history.length, tokens, overheadTokens, window, results };
}
