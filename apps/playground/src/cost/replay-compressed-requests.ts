import {
  HistoryService,
  createCompressionOrchestrator,
  type CompressionOrchestrator,
  type CompressionStrategy,
  type Conversation,
  type CostModel,
  type HistoryEntry,
  type TokenCounter,
} from '@ctx/core';
import { isCompactionSummary, type RecordedModelCall } from '../calibration/claude-code-model-calls.js';
import { guardStrategyCalls } from '../guard-strategy-calls.js';

/** The request one recorded call would have sent, in our tokens. */
export interface ReplayedRequest {
  /** The call's message id. */
  readonly messageId: string;
  /** Our count of the request: system instructions, tool definitions and the history as it stood. */
  readonly tokens: number;
  /**
   * Our count of the part of the request that is an unchanged prefix of the previous request (what a provider's
   * prompt cache would have read); 0 for the first call and right after Claude Code compacted.
   */
  readonly prefixTokens: number;
}

/** Every call of a session replayed, and what the strategy did along the way. */
export interface CompressedReplay {
  readonly requests: readonly ReplayedRequest[];
  /** Calls before which the strategy changed entries the previous request had sent (the cache prefix broke early). */
  readonly rewrites: number;
  /** Passes the orchestrator's cache-aware planning declined because they did not pay (with `costModel` only). */
  readonly declined: number;
}

/** Options of {@link replayCompressedRequests}. */
export interface ReplayCompressedRequestsOptions {
  /** The session (`whole-session` view), its compaction summaries marked as `@ctx/format-claude-code` marks them. */
  readonly conversation: Conversation;
  /** The calls to stop at (`listRecordedModelCalls`), in order. */
  readonly calls: readonly RecordedModelCall[];
  /** Shared across replays so each entry is tokenized once. */
  readonly tokenCounter: TokenCounter;
  /** The model's context window, in the provider's tokens. */
  readonly window: number;
  /** The strategy to replay with; without one the history is sent as recorded (the baseline). */
  readonly strategy?: CompressionStrategy;
  /**
   * What the provider would have counted for a call's request of `tokens` (ours): fed to the orchestrator after the
   * call, as an application feeds it the response's usage, so it calibrates against the real tokenizer.
   */
  readonly providerTokens?: (call: RecordedModelCall, tokens: number) => number;
  /**
   * Prices the conversation's model: the orchestrator then plans cache-aware and declines compactions that cost more
   * in prompt-cache rewrites than they save (see `createCompressionOrchestrator`'s `cachePlanning`).
   */
  readonly costModel?: CostModel;
}

/** What is sent of an entry: the fingerprint two requests are compared by. */
function createFingerprint(): (entry: HistoryEntry) => string {
  const fingerprints = new WeakMap<HistoryEntry, string>();
  return (entry) => {
    let fingerprint = fingerprints.get(entry);
    if (fingerprint === undefined) {
      fingerprint = JSON.stringify([entry.speaker, entry.blocks]);
      fingerprints.set(entry, fingerprint);
    }
    return fingerprint;
  };
}

/**
 * Replays a recorded session turn by turn through a `HistoryService` and, with a strategy, a compression
 * orchestrator on the given window: entries are added in order; before each recorded call the orchestrator runs
 * `ensureCompressionBeforeSend()` and the request the history would then send is measured. Claude Code's own
 * compactions stay as they happened (the history restarts from the summary), so a strategy is measured on top of
 * what the agent did.
 *
 * @param options - The session, its calls, the counter, the window and the strategy.
 * @returns Each call's request in our tokens with its cached prefix, and how often the strategy rewrote sent entries.
 * @throws The orchestrator's errors (`ContextWindowExceededError` when nothing fits) and `StrategyFailedError` when
 *   the strategy throws.
 */
export async function replayCompressedRequests(options: ReplayCompressedRequestsOptions): Promise<CompressedReplay> {
  const { conversation, tokenCounter } = options;
  let declined = 0;
  const history = new HistoryService({ tokenCounter, system: conversation.system, tools: conversation.tools });
  const orchestrator: CompressionOrchestrator | undefined =
    options.strategy === undefined
      ? undefined
      : createCompressionOrchestrator({
          history,
          strategies: [guardStrategyCalls(options.strategy)],
          contextLimit: options.window,
          ...(options.costModel === undefined ? { cachePlanning: false } : { costModel: options.costModel }),
          onReport: (report) => {
            declined += report.passes.filter((pass) => pass.reason === 'does-not-pay').length;
          },
        });
  const callsByEntry = new Map(options.calls.map((call) => [call.entryIndex, call]));
  const fingerprint = createFingerprint();
  const requests: ReplayedRequest[] = [];
  let previous: readonly HistoryEntry[] = [];
  let rewrites = 0;
  try {
    for (const [index, entry] of conversation.history.entries()) {
      if (isCompactionSummary(entry)) {
        history.clear();
        previous = [];
      }
      const call = callsByEntry.get(index);
      if (call !== undefined) {
        await history.waitForTokenUpdates();
        if (orchestrator !== undefined) await orchestrator.ensureCompressionBeforeSend();
        await history.waitForTokenUpdates();
        const request = history.getCurated();
        const overhead = history.getOverheadTokens();
        let same = 0;
        while (
          same < request.length &&
          same < previous.length &&
          (request[same] === previous[same] || fingerprint(request[same] as HistoryEntry) === fingerprint(previous[same] as HistoryEntry))
        ) {
          same += 1;
        }
        if (same < previous.length) rewrites += 1;
        let tokens = overhead;
        let prefixTokens = previous.length === 0 ? 0 : overhead;
        for (const [position, sent] of request.entries()) {
          const count = tokenCounter.countEntry(sent);
          tokens += count;
          if (position < same) prefixTokens += count;
        }
        requests.push({ messageId: call.messageId, tokens, prefixTokens });
        if (orchestrator !== undefined && options.providerTokens !== undefined) {
          orchestrator.recordUsage({ inputTokens: options.providerTokens(call, tokens) });
        }
        previous = request;
      }
      // A recorded session is replayed as recorded: a response whose call was compacted away is kept (issue 14).
      history.add(entry, { allowOrphanResponses: true });
    }
  } finally {
    orchestrator?.dispose();
  }
  return { requests, rewrites, declined };
}
