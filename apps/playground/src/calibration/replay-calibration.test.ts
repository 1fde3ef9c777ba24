import { describe, expect, it } from 'vitest';
import type { RecordedModelCall } from './claude-code-model-calls.js';
import { calibrationModes, predictRequestSizes } from './replay-calibration.js';

function mode(name: string) {
  const found = calibrationModes.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no mode ${name}`);
  return found;
}

function call(estimatedTokens: number, actualTokens: number, epoch = 0): RecordedModelCall {
  return { messageId: `msg_${estimatedTokens}_${actualTokens}`, actualTokens, estimatedTokens, epoch, entryIndex: 0 };
}

describe('predictRequestSizes', () => {
  it('should predict each call from the usage of earlier calls only', () => {
    const calls = [call(1000, 2000), call(1100, 2300), call(1300, 2500)];
    const changedLater = [call(1000, 2000), call(1100, 9000), call(1300, 100)];
    for (const name of ['latest-ratio', 'moving-average']) {
      const predictions = predictRequestSizes(calls, mode(name));
      const withChangedLater = predictRequestSizes(changedLater, mode(name));
      expect(withChangedLater.slice(0, 2)).toEqual(predictions.slice(0, 2));
    }
  });

  it('should start at the initial factor and follow the latest ratio within the clamp', () => {
    const predictions = predictRequestSizes([call(1000, 2000), call(1100, 2300), call(100, 5000), call(200, 1000)], mode('latest-ratio'));
    // 1.5 before any usage; then 2000 ÷ 1000; then 2300 ÷ 1100; then 5000 ÷ 100 capped at 5.
    expect(predictions).toEqual([1500, 2200, Math.ceil((100 * 2300) / 1100), 1000]);
  });

  it('should keep the factor at 1 without calibration and at 1.5 with the initial factor alone', () => {
    const calls = [call(1000, 2000), call(1100, 2300)];
    expect(predictRequestSizes(calls, mode('none'))).toEqual([1000, 1100]);
    expect(predictRequestSizes(calls, mode('initial-1.5'))).toEqual([1500, 1650]);
  });

  it('should reset the factor to at least the initial one after a compaction', () => {
    const predictions = predictRequestSizes([call(1000, 1100), call(1000, 1100, 1)], mode('latest-ratio'));
    expect(predictions).toEqual([1500, 1500]);
  });
});
