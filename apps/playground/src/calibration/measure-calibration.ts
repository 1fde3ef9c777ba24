import { createTokenCalibration, createTokenCounter, type TokenCounter, type Tokenizer } from '@ctx/core';
import { listRecordedModelCalls, type RecordedModelCall } from './claude-code-model-calls.js';
import type { LoadedClaudeCodeSession } from './load-claude-code-sessions.js';
import { calibrationModes, predictRequestSizes } from './replay-calibration.js';
import { predictWithOrchestrator } from './replay-orchestrator-estimates.js';
import { fitLine, mean, median, quantile } from './summary-statistics.js';

/** A prediction this far below the real count or more is an under-count: the kind that overflows a window. */
export const underCountTolerance = 0.05;

/** A way of predicting each call's request size: one of {@link calibrationModes}, or the orchestrator's estimate. */
interface RequestSizePredictor {
  readonly name: string;
  readonly description: string;
  predict(conversation: LoadedClaudeCodeSession['conversation'], calls: readonly RecordedModelCall[], counter: TokenCounter): Promise<number[]>;
}

/** The name of the row that replays a real orchestrator (`estimateRequest()` / `recordUsage()`). */
export const orchestratorPredictorName = 'orchestrator';

const predictors: readonly RequestSizePredictor[] = [
  ...calibrationModes.map((mode) => ({
    name: mode.name,
    description: mode.description,
    predict: (_conversation: unknown, calls: readonly RecordedModelCall[]) => Promise.resolve(predictRequestSizes(calls, mode)),
  })),
  {
    name: orchestratorPredictorName,
    description: '`orchestrator.estimateRequest()` (`latest-ratio`, never under the last real count + growth)',
    predict: predictWithOrchestrator,
  },
];

/** How far one way of predicting the request size is from the provider's counts. */
export interface CalibrationModeError {
  /** A {@link calibrationModes} name, or {@link orchestratorPredictorName}. */
  readonly mode: string;
  readonly description: string;
  /** Mean of `|predicted − real| ÷ real` over the calls, as a fraction. */
  readonly meanAbsolutePercentageError: number;
  /** Median of the same. */
  readonly medianAbsolutePercentageError: number;
  /** Calls predicted more than {@link underCountTolerance} below their real size. */
  readonly underCounts: number;
  /** `underCounts` ÷ calls. */
  readonly underCountShare: number;
  /**
   * Of `underCounts`, those on a call with no usage before it in its epoch (the first call of a conversation, or
   * the first after a compaction): only the initial factor can guess those.
   */
  readonly underCountsWithoutUsage: number;
  /**
   * Of `underCounts`, those right after a call whose `real ÷ ours` exceeded the default calibration's largest factor
   * (5): the factor could not follow the ratio.
   */
  readonly underCountsAfterCappedRatio: number;
}

/** The part of every request the session file does not record (Claude Code's system prompt and tool definitions). */
export interface HiddenOverheadEstimate {
  /** Sessions with enough calls for a fit (at least 5). */
  readonly sessions: number;
  /** Median over sessions of `b` in the per-session least-squares fit `real ≈ a × ours + b`, in provider tokens. */
  readonly medianIntercept: number;
  /** 10th and 90th percentile over sessions of `b`. */
  readonly interceptP10: number;
  readonly interceptP90: number;
  /** Median over sessions of `a`: the provider's tokens per one of ours on the recorded content alone. */
  readonly medianSlope: number;
  /** Median over sessions of the first call's real size, and of our estimate of it. */
  readonly firstCallMedianActual: number;
  readonly firstCallMedianEstimated: number;
  /** Median over sessions of the first call's `real ÷ ours`. */
  readonly firstCallMedianRatio: number;
}

/** One conversation's figures, for the per-session table. */
export interface SessionCalibration {
  readonly name: string;
  readonly kind: LoadedClaudeCodeSession['kind'];
  readonly calls: number;
  /** Compactions the measured calls span. */
  readonly compactions: number;
  readonly models: readonly string[];
  /** Median of `real ÷ ours` over the session's calls. */
  readonly medianRatio: number;
  readonly firstCallRatio: number;
  /** The session's fit `real ≈ slope × ours + intercept` (undefined under 5 calls). */
  readonly fit?: { readonly slope: number; readonly intercept: number };
  /** Mean absolute percentage error per mode name. */
  readonly meanAbsolutePercentageError: Readonly<Record<string, number>>;
}

/** What {@link measureCalibration} found for one tokenizer. */
export interface TokenizerCalibration {
  /** The tokenizer's name, e.g. `gpt-tokenizer:o200k_base`. */
  readonly tokenizer: string;
  readonly sessions: number;
  readonly calls: number;
  /** `ai` entries that were not a measurable call (see `RecordedModelCalls.skipped`). */
  readonly skippedEntries: number;
  /** `real ÷ ours` over every call. */
  readonly ratio: { readonly median: number; readonly p10: number; readonly p90: number };
  /** One row per {@link calibrationModes} entry, in that order, then the orchestrator's estimate. */
  readonly modes: readonly CalibrationModeError[];
  readonly hiddenOverhead: HiddenOverheadEstimate;
  readonly perSession: readonly SessionCalibration[];
}

/** Fewer calls than this make a session's line fit meaningless. */
const minimumCallsForFit = 5;

function absolutePercentageErrors(calls: readonly RecordedModelCall[], predictions: readonly number[]): number[] {
  return calls.map((call, index) => Math.abs((predictions[index] as number) - call.actualTokens) / call.actualTokens);
}

/**
 * Measures how far our token estimate of each recorded model call is from the provider's count, and how far the
 * predicted request size is under each {@link calibrationModes} entry (no calibration, the initial factor alone,
 * `latest-ratio`, `moving-average`) and with a real orchestrator's `estimateRequest()`, replayed as it runs live:
 * each call predicted from the usage of the calls before it in the same conversation.
 *
 * @param sessions - Converted Claude Code conversations (see `loadClaudeCodeSessions`).
 * @param tokenizer - Our tokenizer; entries are counted as `HistoryService` counts them (`createTokenCounter`).
 * @returns The ratio, the error of each mode, the hidden overhead estimate and per-session figures.
 * @example
 * ```ts
 * const sessions = await loadClaudeCodeSessions('../shared/corpus/claude-code');
 * const result = await measureCalibration(sessions, await createGptTokenizer());
 * result.modes.find((mode) => mode.mode === 'latest-ratio')?.meanAbsolutePercentageError;
 * ```
 */
export async function measureCalibration(
  sessions: readonly LoadedClaudeCodeSession[],
  tokenizer: Tokenizer,
): Promise<TokenizerCalibration> {
  const counter = createTokenCounter(tokenizer);
  const allCalls: RecordedModelCall[] = [];
  const errorsByMode = new Map<string, number[]>(predictors.map((predictor) => [predictor.name, []]));
  const underCountsByMode = new Map<string, number>(predictors.map((predictor) => [predictor.name, 0]));
  const blindUnderCountsByMode = new Map<string, number>(predictors.map((predictor) => [predictor.name, 0]));
  const cappedUnderCountsByMode = new Map<string, number>(predictors.map((predictor) => [predictor.name, 0]));
  const largestFactor = createTokenCalibration().options.maxFactor;
  const perSession: SessionCalibration[] = [];
  const firstCalls: RecordedModelCall[] = [];
  let skippedEntries = 0;

  for (const session of sessions) {
    const { calls, skipped } = listRecordedModelCalls(session.conversation, counter);
    skippedEntries += skipped;
    if (calls.length === 0) continue;
    allCalls.push(...calls);
    const sessionErrors: Record<string, number> = {};
    for (const predictor of predictors) {
      const predictions = await predictor.predict(session.conversation, calls, counter);
      const errors = absolutePercentageErrors(calls, predictions);
      errorsByMode.get(predictor.name)?.push(...errors);
      const underCounted = calls.flatMap((call, index) =>
        (predictions[index] as number) < call.actualTokens * (1 - underCountTolerance) ? [index] : [],
      );
      const blind = underCounted.filter((index) => index === 0 || calls[index - 1]?.epoch !== calls[index]?.epoch);
      const capped = underCounted.filter((index) => {
        const previous = calls[index - 1];
        return previous !== undefined && previous.epoch === calls[index]?.epoch && previous.actualTokens / previous.estimatedTokens > largestFactor;
      });
      cappedUnderCountsByMode.set(predictor.name, (cappedUnderCountsByMode.get(predictor.name) ?? 0) + capped.length);
      underCountsByMode.set(predictor.name, (underCountsByMode.get(predictor.name) ?? 0) + underCounted.length);
      blindUnderCountsByMode.set(predictor.name, (blindUnderCountsByMode.get(predictor.name) ?? 0) + blind.length);
      sessionErrors[predictor.name] = mean(errors);
    }
    const first = calls[0] as RecordedModelCall;
    const last = calls[calls.length - 1] as RecordedModelCall;
    firstCalls.push(first);
    const fit = calls.length >= minimumCallsForFit ? fitLine(calls.map((call) => ({ x: call.estimatedTokens, y: call.actualTokens }))) : undefined;
    perSession.push({
      name: session.name,
      kind: session.kind,
      calls: calls.length,
      compactions: last.epoch - first.epoch,
      models: [...new Set(calls.flatMap((call) => (call.model === undefined ? [] : [call.model])))],
      medianRatio: median(calls.map((call) => call.actualTokens / call.estimatedTokens)),
      firstCallRatio: first.actualTokens / first.estimatedTokens,
      ...(fit === undefined ? {} : { fit }),
      meanAbsolutePercentageError: sessionErrors,
    });
  }

  const ratios = allCalls.map((call) => call.actualTokens / call.estimatedTokens);
  const fitted = perSession.flatMap((session) => (session.fit === undefined ? [] : [session.fit]));
  return {
    tokenizer: tokenizer.name,
    sessions: perSession.length,
    calls: allCalls.length,
    skippedEntries,
    ratio: { median: median(ratios), p10: quantile(ratios, 0.1), p90: quantile(ratios, 0.9) },
    modes: predictors.map((predictor) => {
      const errors = errorsByMode.get(predictor.name) ?? [];
      const underCounts = underCountsByMode.get(predictor.name) ?? 0;
      return {
        mode: predictor.name,
        description: predictor.description,
        meanAbsolutePercentageError: mean(errors),
        medianAbsolutePercentageError: median(errors),
        underCounts,
        underCountShare: allCalls.length === 0 ? 0 : underCounts / allCalls.length,
        underCountsWithoutUsage: blindUnderCountsByMode.get(predictor.name) ?? 0,
        underCountsAfterCappedRatio: cappedUnderCountsByMode.get(predictor.name) ?? 0,
      };
    }),
    hiddenOverhead: {
      sessions: fitted.length,
      medianIntercept: median(fitted.map((fit) => fit.intercept)),
      interceptP10: quantile(fitted.map((fit) => fit.intercept), 0.1),
      interceptP90: quantile(fitted.map((fit) => fit.intercept), 0.9),
      medianSlope: median(fitted.map((fit) => fit.slope)),
      firstCallMedianActual: median(firstCalls.map((call) => call.actualTokens)),
      firstCallMedianEstimated: median(firstCalls.map((call) => call.estimatedTokens)),
      firstCallMedianRatio: median(firstCalls.map((call) => call.actualTokens / call.estimatedTokens)),
    },
    perSession,
  };
}
