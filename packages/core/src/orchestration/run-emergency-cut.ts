import { cutOversizedToolResults, describeToolResultCuts } from '../emergency/cut-oversized-tool-results.js';
import type { HistoryService } from '../history/history-service.js';
import type { StrategyWarning } from '../strategy/compression-result.js';
import type { PassReport } from './turn-report.js';

/** Name of the emergency pass in reports. */
export const EMERGENCY_CUT_NAME = 'cut-oversized-tool-results';

/**
 * The emergency path's last resort, after every strategy: cuts the largest tool results to their beginning and end
 * until the history fits `maxHistoryTokens` (our tokens), and commits the result atomically.
 *
 * @param options.transcriptPath - Named in the warning as where the full output still is.
 * @returns The pass report: `applied` with a `lossy` warning naming every cut, or `no-op` when there was nothing to
 *   cut.
 */
export async function runEmergencyCut(
  history: HistoryService,
  options: { readonly maxHistoryTokens: number; readonly transcriptPath?: string | undefined },
): Promise<PassReport> {
  const started = globalThis.performance.now();
  const tokensBefore = history.getTotalTokens();
  const entriesBefore = history.length;
  const base = { pass: 'emergency', strategy: EMERGENCY_CUT_NAME, tokensBefore, entriesBefore } as const;
  const outcome = cutOversizedToolResults(history.getRawHistory(), {
    tokenCounter: history.tokenCounter,
    maxHistoryTokens: Math.max(0, options.maxHistoryTokens),
  });
  if (outcome.cuts.length === 0) {
    return {
      ...base,
      outcome: 'no-op',
      reason: 'too-few-compressible',
      message: 'no tool result is large enough to cut',
      tokensAfter: tokensBefore,
      entriesAfter: entriesBefore,
      durationMs: globalThis.performance.now() - started,
      warnings: [],
    };
  }
  history.startCompression();
  try {
    await history.replaceHistory(outcome.history);
  } finally {
    history.endCompression();
  }
  const where =
    options.transcriptPath === undefined ? "the agent's own transcript still has it" : `the full output is in ${options.transcriptPath}`;
  const saved = outcome.cuts.reduce((sum, cut) => sum + cut.tokensBefore - cut.tokensAfter, 0);
  const warnings: StrategyWarning[] = [{ type: 'lossy', message: describeToolResultCuts(outcome.cuts, where) }];
  return {
    ...base,
    outcome: 'applied',
    tokensAfter: history.getTotalTokens(),
    entriesAfter: history.length,
    durationMs: globalThis.performance.now() - started,
    warnings,
    compressionMetadata: {
      originalMessageCount: entriesBefore,
      compressedMessageCount: history.length,
      strategyUsed: EMERGENCY_CUT_NAME,
      llmCallMade: false,
      counts: { toolResultsCut: outcome.cuts.length, tokensCut: saved },
    },
  };
}
