import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { demoTranscriptPath } from '../demo-transcript.js';
import { baselineWindow, createBaselineStrategy } from './baseline-replay.js';
import { findBenchSessions } from './bench-sessions.js';
import { replayThroughMiddleware } from './measure-middleware-replay.js';

describe('replayThroughMiddleware', () => {
  it('should time every model call of the session inside the middleware', async () => {
    const [session] = (await findBenchSessions([demoTranscriptPath], 1)).sessions;
    if (session === undefined) throw new Error('the demo transcript holds no conversation');
    const calls = session.history.filter((entry, index) => session.history[index + 1] === undefined || session.history[index + 1]?.speaker === 'ai').length;
    const replay = await replayThroughMiddleware({ session, createStrategy: createBaselineStrategy, tokenizer: await createGptTokenizer(), contextWindow: baselineWindow });
    expect(replay.error).toBeUndefined();
    expect(replay.callOverheadMilliseconds).toHaveLength(calls);
    for (const call of replay.callOverheadMilliseconds) expect(call).toBeGreaterThanOrEqual(0);
  });

  it('should stop at a call the middleware passed through uncompressed and say why, instead of timing such calls', async () => {
    const [session] = (await findBenchSessions([demoTranscriptPath], 1)).sessions;
    if (session === undefined) throw new Error('the demo transcript holds no conversation');
    // A window smaller than the system prompt and tools alone: no call can be made to fit.
    const replay = await replayThroughMiddleware({ session, createStrategy: createBaselineStrategy, tokenizer: await createGptTokenizer(), contextWindow: 50 });
    expect(replay.error).toMatch(/^ContextWindowExceededError: /);
    expect(replay.callOverheadMilliseconds).toHaveLength(1);
  });

  it('should make no model call after a session that ends in a tool call (cut off while its tools ran)', async () => {
    const [demo] = (await findBenchSessions([demoTranscriptPath], 1)).sessions;
    if (demo === undefined) throw new Error('the demo transcript holds no conversation');
    // human, then (ai with a tool call, its result) twice, then a third call whose result was never recorded.
    const history = demo.history.slice(0, 6);
    expect(history.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool', 'ai', 'tool', 'ai']);
    const replay = await replayThroughMiddleware({
      session: { ...demo, history },
      createStrategy: createBaselineStrategy,
      tokenizer: await createGptTokenizer(),
      contextWindow: baselineWindow,
    });
    expect(replay.error).toBeUndefined();
    // Before each of the three ai entries; none after the last.
    expect(replay.callOverheadMilliseconds).toHaveLength(3);
  });
});
