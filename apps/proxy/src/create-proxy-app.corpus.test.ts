// Requests built from a real Claude Code session go through the proxy to a fake upstream: they must arrive
// compressed, valid for the provider, and — between compactions — each one must start with everything the previous
// one sent, so the provider's prompt cache keeps working.
import { validateAnthropicRequest } from '@ctx/format-anthropic';
import { validateOpenAIRequest } from '@ctx/format-openai';
import { corpusExists } from '@ctx/test-corpus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RunningProxy } from './start-proxy.js';
import { anthropicRequestFor, callPoints, loadCorpusSession, openAIRequestFor } from './test-support/corpus-requests.js';
import { startFakeUpstream, type FakeUpstream } from './test-support/fake-upstream.js';

if (!corpusExists) console.warn('Skipping the proxy corpus tests: ../shared/corpus not found (set CTX_CORPUS)');

type Message = { role: string; content: unknown };

function messagesOf(body: Buffer): Message[] {
  return (JSON.parse(body.toString('utf8')) as { messages: Message[] }).messages;
}

function withoutBreakpoints(message: Message): string {
  return JSON.stringify(message, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
}

function startsWithMessages(whole: readonly Message[], prefix: readonly Message[]): boolean {
  return prefix.length <= whole.length && prefix.every((message, index) => withoutBreakpoints(message) === withoutBreakpoints(whole[index] as Message));
}

describe.skipIf(!corpusExists)('startProxy on a recorded Claude Code session', () => {
  let upstream: FakeUpstream;
  let proxy: RunningProxy;
  const logs: string[] = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    proxy = await startProxy({ upstream: upstream.url, port: 0, window: 60_000, preset: 'coding-agent', log: (line) => logs.push(line) });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('should send Anthropic requests compressed, valid, and sharing their prefix between compactions', async () => {
    const points = callPoints(loadCorpusSession(), 4, 30);
    expect(points.length).toBeGreaterThan(10);
    const sizes: { before: number; after: number }[] = [];
    for (const history of points) {
      const request = anthropicRequestFor(history);
      const response = await fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'test-key' },
        body: JSON.stringify(request),
      });
      expect(response.status).toBe(200);
      await response.text();
      const sent = upstream.received.at(-1);
      expect(sent?.url).toBe('/v1/messages');
      const body = JSON.parse(sent?.body.toString('utf8') ?? '{}') as Record<string, unknown>;
      if (validateAnthropicRequest(request).length === 0) expect(validateAnthropicRequest(body)).toEqual([]);
      expect(body.model).toBe('claude-sonnet-4-5');
      expect(body.max_tokens).toBe(4096);
      sizes.push({ before: JSON.stringify(request).length, after: sent?.body.length ?? 0 });
    }
    // The late requests, far over the 40k window, arrive much smaller than they came.
    const last = sizes.at(-1);
    expect(last?.after).toBeLessThan((last?.before ?? 0) * 0.7);

    const stats = proxy.stats();
    expect(stats.compressed).toBeGreaterThan(0);
    expect(stats.failedOpen).toBe(0);
    expect(stats.cachePrefix.compared).toBe(points.length - 1);
    expect(stats.cachePrefix.brokenOtherwise).toBe(0);
    expect(stats.cachePrefix.rateOutsideCompactions).toBe(1);
    // What the upstream received agrees with the proxy's own figure: each request starts with the previous one,
    // except where a compaction ran.
    const received = upstream.received.slice(-points.length).map((request) => messagesOf(request.body));
    let breaks = 0;
    for (let index = 1; index < received.length; index += 1) {
      if (!startsWithMessages(received[index] as Message[], received[index - 1] as Message[])) breaks += 1;
    }
    expect(breaks).toBe(stats.cachePrefix.brokenByCompaction);
    expect(breaks).toBeLessThan(received.length / 2);
    expect(logs.some((line) => /→ [\d,]+ tokens \(−\d+%\)/.test(line))).toBe(true);
  }, 120_000);

  it('should keep at most four cache breakpoints, the newest on the last message', () => {
    const recent = upstream.received.slice(-5).map((request) => JSON.parse(request.body.toString('utf8')) as { messages: Message[] });
    for (const body of recent) {
      const text = JSON.stringify(body);
      expect((text.match(/"cache_control"/g) ?? []).length).toBeGreaterThan(0);
      expect((text.match(/"cache_control"/g) ?? []).length).toBeLessThanOrEqual(4);
      expect(JSON.stringify(body.messages.at(-1))).toContain('cache_control');
    }
  });

  it('should send OpenAI Chat Completions requests compressed and valid', async () => {
    const points = callPoints(loadCorpusSession(), 10, 8);
    const history = points.at(-1) ?? [];
    const request = openAIRequestFor(history);
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer test-key' },
      body: JSON.stringify(request),
    });
    expect(response.status).toBe(200);
    const sent = upstream.received.at(-1);
    expect(sent?.url).toBe('/v1/chat/completions');
    const body = JSON.parse(sent?.body.toString('utf8') ?? '{}') as Record<string, unknown>;
    if (validateOpenAIRequest(request).length === 0) expect(validateOpenAIRequest(body)).toEqual([]);
    expect(body.model).toBe('gpt-4o');
    expect(sent?.body.length).toBeLessThan(JSON.stringify(request).length * 0.7);
  }, 60_000);
});
