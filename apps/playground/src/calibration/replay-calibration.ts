import { createTokenCalibration, type TokenCalibrationOptions } from '@ctx/core';
import type { RecordedModelCall } from './claude-code-model-calls.js';

/** A way of turning our count into a predicted request size, replayed over a session's calls. */
export interface CalibrationMode {
  /** Short name for tables and JSON. */
  readonly name: string;
  /** What it is, for a reader. */
  readonly description: string;
  /** The core calibration's options (`false`: the factor stays 1). */
  readonly calibration: TokenCalibrationOptions | false;
  /** Whether the provider's usage is fed back after each call (`record()`), as `orchestrator.recordUsage` does. */
  readonly learns: boolean;
}

/** The modes the calibration report compares: none, the fixed initial factor, and the two learning methods. */
export const calibrationModes: readonly CalibrationMode[] = [
  { name: 'none', description: 'no calibration (factor 1)', calibration: false, learns: false },
  { name: 'initial-1.5', description: 'the initial factor 1.5 alone', calibration: { initialFactor: 1.5 }, learns: false },
  { name: 'latest-ratio', description: "`latest-ratio` (the default)", calibration: { method: 'latest-ratio' }, learns: true },
  { name: 'moving-average', description: '`moving-average`', calibration: { method: 'moving-average' }, learns: true },
];

/**
 * Predicts the request size of each call as the orchestrator would live: call n is predicted as `getFactor()` × our
 * estimate from the usage of calls before n only, then its real count is recorded. A compaction between two calls
 * resets the calibration (`resetAfterCompaction()`), as the orchestrator does after compacting.
 *
 * @param calls - One session's calls, in order.
 * @param mode - How the factor is found.
 * @returns The predicted size of each call, in the provider's tokens.
 */
export function predictRequestSizes(calls: readonly RecordedModelCall[], mode: CalibrationMode): number[] {
  const calibration = createTokenCalibration(mode.calibration);
  const predictions: number[] = [];
  let epoch: number | undefined;
  for (const call of calls) {
    if (epoch !== undefined && call.epoch !== epoch) calibration.resetAfterCompaction();
    epoch = call.epoch;
    predictions.push(Math.ceil(call.estimatedTokens * calibration.getFactor()));
    if (mode.learns) calibration.record({ estimatedTokens: call.estimatedTokens, actualTokens: call.actualTokens });
  }
  return predictions;
}
