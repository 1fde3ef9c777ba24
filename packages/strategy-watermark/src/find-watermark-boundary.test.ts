import { describe, expect, it } from 'vitest';
import { findTurnStart, findWatermarkBoundary } from './find-watermark-boundary.js';
import { ai, aiText, call, human, response, text, tool } from './test-support/entries.js';

describe('findWatermarkBoundary', () => {
  it('spec 003 §5: should keep the whole assistant message that holds the watermark', () => {
    const history = [human('go'), ai(text('doing it'), call('w')), tool(response('w'))];
    expect(findWatermarkBoundary(history, 'w')).toEqual({
      call: { callId: 'w', toolName: 'Read', entryIndex: 1, blockIndex: 1 },
      boundaryIndex: 1,
    });
  });

  it('should start at the first ai entry of a turn split over several entries (Claude Code records)', () => {
    // One assistant message stored as text, call a, call w; both calls answered after the turn.
    const history = [human('go'), aiText('two things'), ai(call('a')), ai(call('w')), tool(response('a')), tool(response('w'))];
    expect(findWatermarkBoundary(history, 'w')?.boundaryIndex).toBe(1);
  });

  it('spec 003 edge case 1: should return undefined for a watermark that is not in the history', () => {
    expect(findWatermarkBoundary([human('go'), aiText('ok')], 'gone')).toBeUndefined();
  });
});

describe('findTurnStart', () => {
  it('should walk back over consecutive ai entries only', () => {
    const history = [human('go'), ai(call('a')), tool(response('a')), aiText('x'), ai(call('b'))];
    expect(findTurnStart(history, 4)).toBe(3);
    expect(findTurnStart(history, 1)).toBe(1);
    expect(findTurnStart([aiText('x'), ai(call('b'))], 1)).toBe(0);
  });
});
