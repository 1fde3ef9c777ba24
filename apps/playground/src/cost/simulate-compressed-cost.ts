import { CtxError, type CompressionStrategy, type Conversation, type TokenCounter } from '@ctx/core';
import type { AnthropicUsage } from '@ctx/cost-anthropic';
import type { RecordedModelCall } from '../calibration/claude-code-model-calls.js';
import type { BilledModelCall } from './billed-model-calls.js';
import { createCostModelLookup, sumCostByModel, type CostSums } from './model-cost-sums.js';
import { replayCompressedRequests, type CompressedReplay, type ReplayedRequest } from './replay-compressed-requests.js';

/** One session to simulate: its conversation, the calls found in it, and their billed usage. */
export interface CostSession {
  /** The file, as named. */
  readonly label: string;
  /** The `whole-session` view. */
  readonly conversation: Conversation;
  /** Its model calls (`listRecordedModelCalls`). */
  readonly calls: readonly RecordedModelCall[];
  /** The billed call of each message id of this file (after counting each call once). */
  readonly billed: ReadonlyMap<string, BilledModelCall>;
}

/** What the sessions would have cost with one strategy (or with none: the baseline). */
export interface StrategyCost {
  /** The strategy or preset; `none` for the baseline. */
  readonly strategy: string;
  /**
   * `simulated`; `needs-model` for a strategy that summarizes with a model (not run: its cost depends on the
   * summarizer's); `failed` when the strategy threw or could not fit the window (see `detail`).
   */
  readonly outcome: 'simulated' | 'needs-model' | 'failed';
  /** Why it failed, one line per session that failed. */
  readonly detail?: string;
  /** Every billed call, the replayed ones as the compressed request would have been billed; absent unless simulated. */
  readonly cost?: CostSums;
  /** US dollars saved against the recorded cost (negative: it would have cost more). */
  readonly savedUsd?: number;
  /** Calls before which the strategy changed entries already sent, so the cache prefix broke early. */
  readonly rewrites: number;
  /**
   * The same strategy with the orchestrator planning cache-aware (priced at each session's main model): compactions
   * that would cost more in prompt-cache writes than they save over the next calls are declined. Present when the
   * simulation ran with `cacheAware` and the strategy was simulated.
   */
  readonly cacheAware?: {
    readonly cost: CostSums;
    readonly savedUsd: number;
    readonly rewrites: number;
    /** Passes declined because they did not pay. */
    readonly declined: number;
  };
}

/** Options of {@link simulateCompressedCost}. */
export interface SimulateCompressedCostOptions {
  readonly sessions: readonly CostSession[];
  /** Every billed call of the files named, each once: those not replayed keep their recorded usage. */
  readonly billedCalls: readonly BilledModelCall[];
  /** What the recorded calls cost (`sumCostByModel(billedCalls)`), for `savedUsd`. */
  readonly recorded: CostSums;
  readonly strategies: readonly (() => CompressionStrategy)[];
  readonly tokenCounter: TokenCounter;
  /** The model's context window, in its tokens. */
  readonly window: number;
  /** Also replay each strategy with cache-aware planning (`StrategyCost.cacheAware`). */
  readonly cacheAware?: boolean;
}

/**
 * What the simulation found: each strategy, and the baseline (the replay without a strategy, which by construction
 * bills what was recorded: a check of the replay).
 */
export interface SimulatedCosts {
  readonly baseline: StrategyCost;
  readonly strategies: readonly StrategyCost[];
  /** Calls replayed (found on a session's main conversation); the others are billed as recorded in every row. */
  readonly replayedCalls: number;
}

/** A call's recorded request size in the provider's tokens: base input, cache writes and cache reads. */
function recordedInput(usage: AnthropicUsage): number {
  return usage.inputTokens + (usage.cacheWriteTokens ?? 0) + (usage.cacheWrite1hTokens ?? 0) + (usage.cacheReadTokens ?? 0);
}

/**
 * The usage of a replayed call. Its request: the recorded one scaled by (our count of the compressed request ÷ of the
 * uncompressed one). Its cache reads: the recorded ones scaled by (our count of the compressed request's unchanged
 * prefix of the previous request ÷ the same for the uncompressed one), never more than the request. The rest is split
 * between base input and cache writes of each lifetime as the recording split it. Output as recorded. Without
 * compression the recorded usage comes back unchanged: what the file does not hold (system prompt and tool
 * definitions, cached like the history) and what the recording shows the cache did (entries expired after a pause)
 * are kept, and only what the strategy changed moves tokens between reads and writes.
 */
export function simulateCallUsage(
  recorded: AnthropicUsage,
  uncompressed: { readonly tokens: number; readonly prefixTokens: number },
  compressed: { readonly tokens: number; readonly prefixTokens: number },
): AnthropicUsage {
  const recordedRequest = recordedInput(recorded);
  const total = uncompressed.tokens > 0 ? Math.round((recordedRequest * compressed.tokens) / uncompressed.tokens) : recordedRequest;
  const recordedRead = recorded.cacheReadTokens ?? 0;
  const prefixScale = uncompressed.prefixTokens > 0 ? compressed.prefixTokens / uncompressed.prefixTokens : 1;
  const read = Math.min(total, Math.round(recordedRead * prefixScale));
  const rest = total - read;
  const input = recorded.inputTokens;
  const write5m = recorded.cacheWriteTokens ?? 0;
  const write1h = recorded.cacheWrite1hTokens ?? 0;
  const recordedRest = input + write5m + write1h;
  if (recordedRest === 0) return { inputTokens: 0, outputTokens: recorded.outputTokens, cacheReadTokens: read, cacheWriteTokens: rest, cacheWrite1hTokens: 0 };
  const inputTokens = Math.round((rest * input) / recordedRest);
  const cacheWrite1hTokens = Math.round((rest * write1h) / recordedRest);
  return { inputTokens, outputTokens: recorded.outputTokens, cacheReadTokens: read, cacheWriteTokens: rest - inputTokens - cacheWrite1hTokens, cacheWrite1hTokens };
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/**
 * Replays each session with no strategy (the baseline) and with each deterministic strategy, and prices every call as
 * it would have been billed (see `replayCompressedRequests` for the replay, the README for the cache model).
 * LLM strategies are listed as `needs-model`; a strategy that throws a ctx error (including "cannot fit the window")
 * is `failed` with the message.
 *
 * @param options - Sessions, billed calls, strategies, counter and window.
 * @returns The baseline and one row per strategy, in the order given.
 * @throws Errors that are not ctx errors (bugs) as they are.
 */
export async function simulateCompressedCost(options: SimulateCompressedCostOptions): Promise<SimulatedCosts> {
  const lookup = createCostModelLookup();
  const baselines = new Map<CostSession, Map<string, ReplayedRequest>>();
  const baselineReplays = new Map<CostSession, CompressedReplay>();
  for (const session of options.sessions) {
    const replay = await replayCompressedRequests({ conversation: session.conversation, calls: session.calls, tokenCounter: options.tokenCounter, window: options.window });
    baselineReplays.set(session, replay);
    baselines.set(session, new Map(replay.requests.map((request) => [request.messageId, request])));
  }

  /** Prices every billed call, those of the replays with their simulated usage. */
  const price = (replays: ReadonlyMap<CostSession, CompressedReplay>): CostSums => {
    const replaced = new Map<BilledModelCall, AnthropicUsage>();
    for (const [session, replay] of replays) {
      const uncompressed = baselines.get(session);
      for (const request of replay.requests) {
        const billed = session.billed.get(request.messageId);
        if (billed === undefined) continue;
        replaced.set(billed, simulateCallUsage(billed.usage, uncompressed?.get(request.messageId) ?? request, request));
      }
    }
    return sumCostByModel(
      options.billedCalls.map((call) => ({ model: call.model, usage: replaced.get(call) ?? call.usage })),
      lookup,
    );
  };
  /** The model most of a session's billed calls went to: the one whose cache the planner weighs. */
  const mainModel = (session: CostSession) => {
    const calls = new Map<string, number>();
    for (const call of session.billed.values()) {
      if (call.model !== undefined) calls.set(call.model, (calls.get(call.model) ?? 0) + 1);
    }
    const [model] = [...calls].sort((left, right) => right[1] - left[1])[0] ?? [];
    return model === undefined ? undefined : lookup(model);
  };
  const row = (strategy: string, replays: ReadonlyMap<CostSession, CompressedReplay>): StrategyCost => {
    const cost = price(replays);
    return {
      strategy,
      outcome: 'simulated',
      cost,
      savedUsd: options.recorded.total.usd - cost.total.usd,
      rewrites: [...replays.values()].reduce((sum, replay) => sum + replay.rewrites, 0),
    };
  };

  const strategies: StrategyCost[] = [];
  for (const create of options.strategies) {
    const probe = create();
    if (probe.requiresLLM) {
      strategies.push({ strategy: probe.name, outcome: 'needs-model', rewrites: 0 });
      continue;
    }
    const replayAll = async (cacheAware: boolean) => {
      const replays = new Map<CostSession, CompressedReplay>();
      const failures: string[] = [];
      for (const session of options.sessions) {
        const uncompressed = baselines.get(session);
        const billed = session.billed;
        const costModel = cacheAware ? mainModel(session) : undefined;
        try {
          replays.set(
            session,
            await replayCompressedRequests({
              conversation: session.conversation,
              calls: session.calls,
              tokenCounter: options.tokenCounter,
              window: options.window,
              strategy: create(),
              ...(costModel === undefined ? {} : { costModel }),
              providerTokens: (call, tokens) => {
                const usage = billed.get(call.messageId)?.usage;
                const before = uncompressed?.get(call.messageId)?.tokens ?? 0;
                return usage === undefined || before === 0 ? tokens : Math.round((recordedInput(usage) * tokens) / before);
              },
            }),
          );
        } catch (error) {
          if (!CtxError.isInstance(error)) throw error;
          failures.push(`${session.label}: ${oneLine(error)}`);
        }
      }
      return { replays, failures };
    };
    const { replays, failures } = await replayAll(false);
    if (failures.length === 0 && options.cacheAware === true) {
      const aware = await replayAll(true);
      if (aware.failures.length === 0) {
        const plain = row(probe.name, replays);
        const cost = price(aware.replays);
        strategies.push({
          ...plain,
          cacheAware: {
            cost,
            savedUsd: options.recorded.total.usd - cost.total.usd,
            rewrites: [...aware.replays.values()].reduce((sum, replay) => sum + replay.rewrites, 0),
            declined: [...aware.replays.values()].reduce((sum, replay) => sum + replay.declined, 0),
          },
        });
        continue;
      }
    }
    strategies.push(
      failures.length > 0 ? { strategy: probe.name, outcome: 'failed', detail: failures.join('\n'), rewrites: 0 } : row(probe.name, replays),
    );
  }
  const replayedCalls = options.sessions.reduce(
    (sum, session) => sum + (baselineReplays.get(session)?.requests.filter((request) => session.billed.has(request.messageId)).length ?? 0),
    0,
  );
  return { baseline: row('none', baselineReplays), strategies, replayedCalls };
}
