import { HistoryService, createCompressionOrchestrator, type Conversation, type TokenCounter } from '@ctx/core';
import { createTopDownTruncationStrategy } from '@ctx/strategy-top-down-truncation';
import { isCompactionSummary, type RecordedModelCall } from './claude-code-model-calls.js';

/** Large enough that nothing is ever over the window: the replay only asks for estimates. */
const unlimitedContext = 1_000_000_000;

/**
 * Predicts the request size of each call with a real orchestrator (default calibration), as an application would
 * see it: the session's entries are added to a `HistoryService` in order, `orchestrator.estimateRequest()` is read
 * before each call and `orchestrator.recordUsage({ inputTokens })` is fed the real count after it. Besides `factor ×
 * ours`, the orchestrator never predicts less than the last real count plus what was added since (calibrated), as
 * long as the history has only grown. A compaction summary clears the history first (Claude Code compacted, not the
 * orchestrator, so the calibration is not reset; the last real count no longer applies).
 *
 * @param conversation - The converted session the calls were listed from.
 * @param calls - Its calls (`listRecordedModelCalls`), in order.
 * @param counter - The counter the calls were counted with (shared cache).
 * @returns The predicted size of each call, in the provider's tokens.
 * @throws Error when the history service's count of a request differs from the call's estimate (the replay would
 *   then measure something else than the other modes).
 */
export async function predictWithOrchestrator(
  conversation: Conversation,
  calls: readonly RecordedModelCall[],
  counter: TokenCounter,
): Promise<number[]> {
  const history = new HistoryService({ tokenCounter: counter });
  const orchestrator = createCompressionOrchestrator({
    history,
    strategies: [createTopDownTruncationStrategy()],
    contextLimit: unlimitedContext,
  });
  const callsByEntry = new Map(calls.map((call) => [call.entryIndex, call]));
  const predictions: number[] = [];
  try {
    for (const [index, entry] of conversation.history.entries()) {
      if (isCompactionSummary(entry)) history.clear();
      const call = callsByEntry.get(index);
      if (call !== undefined) {
        await history.waitForTokenUpdates();
        const estimate = orchestrator.estimateRequest();
        if (estimate.estimatedTokens !== call.estimatedTokens) {
          throw new Error(
            `Expected the history service to count call ${call.messageId} as ${call.estimatedTokens} tokens, got ${estimate.estimatedTokens}`,
          );
        }
        predictions.push(estimate.calibratedTokens);
        orchestrator.recordUsage({ inputTokens: call.actualTokens });
      }
      // A recorded session is replayed as recorded: a response whose call was compacted away is kept (issue 14).
      history.add(entry, { allowOrphanResponses: true });
    }
  } finally {
    orchestrator.dispose();
  }
  return predictions;
}
