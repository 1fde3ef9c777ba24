// Requests built from a real Claude Code session go through the proxy to a fake upstream: they must arrive
// compressed, valid for the provider, and — between compactions — each one must start with everything the previous
// one sent, so the provider's prompt cache keeps working.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateAnthropicRequest } from '@ctx/format-anthropic';
import { validateOpenAIRequest } from '@ctx/format-openai';
import { builtInPresets, presetToJson } from '@ctx/presets';
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

type ChatMessage = { role: string; tool_calls?: { id: string; function: { name: string } }[]; tool_call_id?: string };

/**
 * The request with its tool call ids numbered per turn, as Kimi writes them (`functions.<name>:<index>`, the same
 * ids again in every turn), each tool message answering its call by the new id.
 */
function numberedPerTurn(request: Record<string, unknown>): Record<string, unknown> {
  let renamed = new Map<string, string>();
  const messages = (request.messages as ChatMessage[]).map((message) => {
    if (message.role === 'assistant' && message.tool_calls !== undefined) {
      renamed = new Map(message.tool_calls.map((call, index) => [call.id, `functions.${call.function.name}:${index}`]));
      return { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, id: renamed.get(call.id) ?? call.id })) };
    }
    if (message.role === 'tool' && message.tool_call_id !== undefined) return { ...message, tool_call_id: renamed.get(message.tool_call_id) ?? message.tool_call_id };
    return message;
  });
  return { ...request, messages };
}

/** The messages of a body with every tool call id blanked, to compare two bodies that differ only in their ids. */
function withoutCallIds(body: Buffer): string {
  return JSON.stringify(messagesOf(body), (key, value: unknown) => (key === 'id' || key === 'tool_call_id' ? '' : value));
}

describe.skipIf(!corpusExists)('startProxy on a recorded session whose tool call ids are numbered per turn', () => {
  it('should compress it exactly as the session with unique ids, and send every id back as the client gave it', async () => {
    const upstream = await startFakeUpstream();
    const proxy = await startProxy({ upstream: upstream.url, port: 0, window: 60_000, preset: 'coding-agent', log: () => undefined });
    const post = (conversation: string, request: Record<string, unknown>) =>
      fetch(`${proxy.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer test-key', 'x-ctx-conversation': conversation },
        body: JSON.stringify(request),
      }).then((response) => response.text().then(() => response.status));
    try {
      for (const history of callPoints(loadCorpusSession(), 6, 16)) {
        const unique = openAIRequestFor(history);
        const numbered = numberedPerTurn(unique);
        expect(await post('unique', unique)).toBe(200);
        const uniqueBody = upstream.received.at(-1)?.body ?? Buffer.from('{"messages":[]}');
        expect(await post('numbered', numbered)).toBe(200);
        const numberedBody = upstream.received.at(-1)?.body ?? Buffer.from('{"messages":[]}');
        // The same messages, compacted at the same requests, and only the ids the client gave go upstream.
        expect(withoutCallIds(numberedBody)).toBe(withoutCallIds(uniqueBody));
        const sent = messagesOf(numberedBody) as ChatMessage[];
        let open = new Set<string>();
        for (const message of sent) {
          if (message.tool_calls !== undefined) open = new Set(message.tool_calls.map((call) => call.id));
          if (message.tool_call_id !== undefined) expect(open.has(message.tool_call_id)).toBe(true);
        }
        expect(sent.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id)).every((id) => /^functions\.\w+:\d+$/.test(id))).toBe(true);
      }
      const stats = proxy.stats();
      expect(stats.compressed).toBeGreaterThan(0);
      expect(stats.failedOpen).toBe(0);
      expect(stats.cachePrefix.brokenOtherwise).toBe(0);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  }, 120_000);
});

describe.skipIf(!corpusExists)('startProxy modes on a recorded Claude Code session', () => {
  const post = (proxy: RunningProxy, path: string, request: Record<string, unknown>) =>
    fetch(`${proxy.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'test-key', 'x-ctx-conversation': 'modes' },
      body: JSON.stringify(request),
    }).then((response) => response.text().then(() => response.status));

  it('should compress each request on its own with --stateless, as a new conversation would be', async () => {
    const upstream = await startFakeUpstream();
    const stateless = await startProxy({ upstream: upstream.url, port: 0, window: 60_000, preset: 'coding-agent', stateless: true, log: () => undefined });
    const fresh = await startProxy({ upstream: upstream.url, port: 0, window: 60_000, preset: 'coding-agent', log: () => undefined });
    try {
      const points = callPoints(loadCorpusSession(), 10, 8);
      for (const history of points) expect(await post(stateless, '/v1/messages', anthropicRequestFor(history))).toBe(200);
      const last = upstream.received.at(-1)?.body.toString('utf8') ?? '';
      expect(stateless.stats().compressed).toBeGreaterThan(0);
      expect(validateAnthropicRequest(JSON.parse(last) as Record<string, unknown>)).toEqual([]);
      // The last request, alone through a proxy that has seen nothing of the conversation, arrives the same.
      expect(await post(fresh, '/v1/messages', anthropicRequestFor(points.at(-1) ?? []))).toBe(200);
      expect(upstream.received.at(-1)?.body.toString('utf8')).toBe(last);
    } finally {
      await stateless.close();
      await fresh.close();
      await upstream.close();
    }
  }, 120_000);

  it("should decline rewrites of messages already sent that do not pay for the prompt-cache writes, at the model's prices", async () => {
    // coding-agent compacting on every request instead of at the threshold: each rewrite of messages already sent
    // makes the provider write its cached prompt again.
    const preset = JSON.parse(presetToJson(builtInPresets['coding-agent'])) as { name: string; strategies: { settings?: { trigger?: string } }[] };
    preset.name = 'coding-agent-every-turn';
    for (const step of preset.strategies) if (step.settings?.trigger !== undefined) step.settings.trigger = 'continuous';
    const directory = mkdtempSync(join(tmpdir(), 'ctx-proxy-preset-'));
    const presetFile = join(directory, 'coding-agent-every-turn.json');
    writeFileSync(presetFile, JSON.stringify(preset));
    const run = async (cacheAware: boolean) => {
      const upstream = await startFakeUpstream();
      const proxy = await startProxy({ upstream: upstream.url, port: 0, window: 200_000, preset: presetFile, cacheAware, log: () => undefined });
      try {
        let rewrites = 0;
        let previous: Message[] = [];
        for (const history of callPoints(loadCorpusSession(), 3, 24)) {
          expect(await post(proxy, '/v1/messages', anthropicRequestFor(history))).toBe(200);
          const sent = messagesOf(upstream.received.at(-1)?.body ?? Buffer.from('{"messages":[]}'));
          if (!startsWithMessages(sent, previous)) rewrites += 1;
          previous = sent;
        }
        return { declined: proxy.stats().declinedCompactions, rewrites };
      } finally {
        await proxy.close();
        await upstream.close();
      }
    };
    const plain = await run(false);
    const aware = await run(true);
    rmSync(directory, { recursive: true, force: true });
    expect(plain.declined).toBe(0);
    expect(aware.declined).toBeGreaterThan(0);
    // Fewer requests that do not start with what the previous one sent: the provider's cache is read, not rewritten.
    expect(aware.rewrites).toBeLessThan(plain.rewrites);
  }, 180_000);

  it('should compress count_tokens requests like messages, without changing the conversation they belong to', async () => {
    const upstream = await startFakeUpstream();
    const proxy = await startProxy({ upstream: upstream.url, port: 0, window: 60_000, preset: 'coding-agent', log: () => undefined });
    try {
      const points = callPoints(loadCorpusSession(), 10, 8);
      const history = points.at(-1) ?? [];
      expect(await post(proxy, '/v1/messages/count_tokens', anthropicRequestFor(history))).toBe(200);
      expect(proxy.stats().conversations).toBe(0);
      const counted = upstream.received.at(-1);
      expect(counted?.url).toBe('/v1/messages/count_tokens');
      expect(counted?.body.length).toBeLessThan(JSON.stringify(anthropicRequestFor(history)).length * 0.7);
      expect(await post(proxy, '/v1/messages', anthropicRequestFor(history))).toBe(200);
      expect(proxy.stats().conversations).toBe(1);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  }, 120_000);
});
