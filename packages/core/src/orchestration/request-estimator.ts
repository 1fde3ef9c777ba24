import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { HistoryService } from '../history/history-service.js';
import type { CalibrationState, TokenCalibration } from '../tokens/token-calibration.js';

/** One model call's real input size, as the provider reported it (see `CompressionOrchestrator.recordUsage`). */
export interface UsageReport {
  /**
   * Input tokens the provider counted for the request, cached tokens included: Anthropic `input_tokens +
   * cache_creation_input_tokens + cache_read_input_tokens`; OpenAI Chat `prompt_tokens` (Responses
   * `input_tokens`); Gemini `promptTokenCount`; AI SDK `usage.inputTokens`.
   */
  readonly inputTokens: number;
  /**
   * Our estimate of that same request, when it is not the one the last `ensureCompressionBeforeSend()` /
   * `enforceContextWindow()` checked (e.g. several model calls after one check).
   * @default the request the last check measured
   */
  readonly estimatedTokens?: number;
}

/** The request's size now: raw, calibrated, and the parts decisions need. */
export interface RequestEstimate {
  /** History + system + tools + pending, in our tokens. */
  readonly estimatedTokens: number;
  /** The same, calibrated to the provider's count. */
  readonly calibratedTokens: number;
  /** The pending message alone, calibrated. */
  readonly pendingTokens: number;
  /** System and tools, calibrated. */
  readonly overheadTokens: number;
  /** `calibratedTokens ÷ estimatedTokens` (≥ the calibration factor when the provider's last count says more). */
  readonly effectiveFactor: number;
  readonly calibration: CalibrationState;
}

/**
 * Sizes the request in the provider's tokens (spec 002 §5.1 `tokenCount()`): our count × the calibration factor,
 * and — while the history has only grown since the provider last counted it — never less than that real count
 * plus what was added since, calibrated. The second bound covers what our count cannot see (a provider's own
 * framing, a system prompt kept outside the history) without inflating the factor.
 */
export interface RequestEstimator {
  /**
   * The request's size with `pendingTokens` more, from the history's last finished count.
   *
   * @throws `TokenCountError` when the history is uncounted (its last count failed): a decision on a partial
   *   count could send an over-window request (issue 14). Await `history.waitForTokenUpdates()` first; it recounts.
   */
  estimate(pendingTokens: number): RequestEstimate;
  /** Remembers the request a before-send check just cleared, for the next {@link RequestEstimator.recordUsage}. */
  noteChecked(pendingTokens: number): void;
  recordUsage(usage: UsageReport): CalibrationState;
  /** The history was rewritten (density, compaction, clear, new system or tools): the last real count is stale. */
  noteRewrite(): void;
}

interface Anchor {
  readonly estimatedTokens: number;
  readonly actualTokens: number;
  readonly rewrite: number;
}

/** Creates the {@link RequestEstimator} of an orchestrator. */
export function createRequestEstimator(history: HistoryService, calibration: TokenCalibration): RequestEstimator {
  let rewrite = 0;
  let anchor: Anchor | undefined;
  let checked: { estimatedTokens: number; rewrite: number } | undefined;

  const estimate = (pendingTokens: number): RequestEstimate => {
    const factor = calibration.getFactor();
    const estimatedTokens = history.getTotalTokens() + pendingTokens;
    let calibratedTokens = Math.ceil(estimatedTokens * factor);
    if (anchor !== undefined && anchor.rewrite === rewrite && estimatedTokens >= anchor.estimatedTokens) {
      calibratedTokens = Math.max(
        calibratedTokens,
        Math.ceil(anchor.actualTokens + (estimatedTokens - anchor.estimatedTokens) * factor),
      );
    }
    return {
      estimatedTokens,
      calibratedTokens,
      pendingTokens: Math.ceil(pendingTokens * factor),
      overheadTokens: Math.ceil(history.getOverheadTokens() * factor),
      effectiveFactor: estimatedTokens > 0 ? Math.max(factor, calibratedTokens / estimatedTokens) : factor,
      calibration: calibration.getState(),
    };
  };

  return {
    estimate,
    noteChecked(pendingTokens) {
      checked = { estimatedTokens: history.getTotalTokens() + pendingTokens, rewrite };
    },
    recordUsage(usage) {
      const input = usage as Partial<UsageReport> | null | undefined;
      if (input === null || typeof input !== 'object') {
        throw new InvalidSettingsError({
          issues: [{ path: 'usage', message: `Expected an object like { inputTokens: 12345 }, got ${String(input)}` }],
        });
      }
      for (const key of ['inputTokens', 'estimatedTokens'] as const) {
        const value = input[key];
        if (value === undefined && key === 'estimatedTokens') continue;
        if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) {
          throw new InvalidSettingsError({
            issues: [{ path: `usage.${key}`, message: `Expected a whole number of tokens ≥ 0, got ${JSON.stringify(value) ?? 'undefined'}` }],
          });
        }
      }
      const estimatedTokens = usage.estimatedTokens ?? checked?.estimatedTokens ?? history.getTotalTokens();
      // An empty request says nothing about the ratio.
      if (estimatedTokens < 1) return calibration.getState();
      const state = calibration.record({ estimatedTokens, actualTokens: usage.inputTokens });
      if (!calibration.options.enabled) return state;
      // The real count anchors later estimates only while it describes a prefix of the history as it is now.
      const sameHistory = usage.estimatedTokens !== undefined || checked === undefined || checked.rewrite === rewrite;
      anchor = sameHistory ? { estimatedTokens, actualTokens: usage.inputTokens, rewrite } : undefined;
      return state;
    },
    noteRewrite() {
      rewrite += 1;
    },
  };
}
