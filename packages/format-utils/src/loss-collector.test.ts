import { describe, expect, it } from 'vitest';
import { LossCollector } from './loss-collector.js';

describe('LossCollector', () => {
  it('should give one warning per kind, counting repeats and naming the first place', () => {
    const losses = new LossCollector();
    losses.add('filename', { type: 'lossy', message: 'media filename was dropped', path: 'history[3].blocks[0]' });
    losses.add('signature', { type: 'lossy', message: 'thinking signature was dropped', path: 'history[4].blocks[0]' });
    losses.add('filename', { type: 'lossy', message: 'media filename was dropped', path: 'history[9].blocks[1]' });
    expect(losses.toWarnings()).toEqual([
      { type: 'lossy', message: 'media filename was dropped (2 times; first at history[3].blocks[0])', path: 'history[3].blocks[0]' },
      { type: 'lossy', message: 'thinking signature was dropped', path: 'history[4].blocks[0]' },
    ]);
  });

  it('should say "the conversation" when a repeated loss has no path', () => {
    const losses = new LossCollector();
    losses.add('metadata:openai', { type: 'lossy', message: 'openai metadata was dropped' });
    losses.add('metadata:openai', { type: 'lossy', message: 'openai metadata was dropped' });
    expect(losses.toWarnings()).toEqual([{ type: 'lossy', message: 'openai metadata was dropped (2 times; first at the conversation)' }]);
  });

  it('should give no warning when nothing was lost', () => {
    expect(new LossCollector().toWarnings()).toEqual([]);
  });
});
