import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { builtInPresets, createPresetStrategy } from '@ctx/presets';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompressionStrategy, CostModel, Tokenizer } from '@ctx/core';
import type { ContextReport } from './context-options.js';
import { createContextMiddleware, type ContextMiddlewareOptions } from './create-context-middleware.js';
import type { LanguageModelPromptMessage } from './language-model-prompt.js';
import { startFakeProviderServer } from './test-support/fake-provider-server.js';
import { fileContent, promptProblems, providerTokens } from './test-support/tool-loop.js';
import { UnsupportedPromptError } from './unsupported-prompt-error.js';

const contextWindow = 12_000;
let tokenizer: Tokenizer;
let strategy: CompressionStrategy;

beforeAll(async () => {
  tokenizer = await createGptTokenizer();
  strategy = createPresetStrategy(builtInPresets.speed, { factories: { truncation: createTruncationStrategy } });
});

function usage(inputTokens: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 20, text: 20, reasoning: 0 },
  };
}

/** A model that calls `read_file` on a new path every step until `steps`, then answers. */
function toolLoopModel(steps: number) {
  const prompts: (readonly LanguageModelPromptMessage[])[] = [];
  const respond = (options: LanguageModelV3CallOptions) => {
    prompts.push(options.prompt);
    const step = prompts.length;
    const inputTokens = providerTokens(options.prompt, tokenizer);
    return { step, inputTokens };
  };
  const model = new MockLanguageModelV3({
    doGenerate: (options): Promise<LanguageModelV3GenerateResult> => {
      const { step, inputTokens } = respond(options);
      const done = step >= steps;
      return Promise.resolve({
        content: done
          ? [{ type: 'text', text: 'All files read.' }]
          : [{ type: 'tool-call', toolCallId: `call-${step}`, toolName: 'read_file', input: JSON.stringify({ path: `src/file-${step}.ts` }) }],
        finishReason: { unified: done ? 'stop' : 'tool-calls', raw: undefined },
        usage: usage(inputTokens),
        warnings: [],
      });
    },
    doStream: (options) => {
      const { step, inputTokens } = respond(options);
      const done = step >= steps;
      const parts: LanguageModelV3StreamPart[] = done
        ? [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'All files ' },
            { type: 'text-delta', id: 't', delta: 'read.' },
            { type: 'text-end', id: 't' },
          ]
        : [{ type: 'tool-call', toolCallId: `call-${step}`, toolName: 'read_file', input: JSON.stringify({ path: `src/file-${step}.ts` }) }];
      parts.push({ type: 'finish', finishReason: { unified: done ? 'stop' : 'tool-calls', raw: undefined }, usage: usage(inputTokens) });
      return Promise.resolve({ stream: convertArrayToReadableStream(parts) });
    },
  });
  return { model, prompts };
}

const tools = {
  read_file: tool({
    description: 'Reads a file',
    inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
    execute: ({ path }) => Promise.resolve(fileContent(path)),
  }),
};

function middlewareWith(options: Partial<ContextMiddlewareOptions> = {}) {
  const reports: ContextReport[] = [];
  const middleware = createContextMiddleware({
    strategy,
    contextWindow,
    tokenizer,
    onReport: (report) => reports.push(report),
    ...options,
  });
  return { middleware, reports };
}

const messages: ModelMessage[] = [{ role: 'user', content: 'Read every file of the project, one at a time.' }];
const conversation = (conversationId: string) => ({ ctx: { conversationId } });

describe('createContextMiddleware', () => {
  it('should keep a 40-step tool loop inside a small window with every request valid (generateText)', async () => {
    const { model, prompts } = toolLoopModel(40);
    const { middleware, reports } = middlewareWith();
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware }),
      tools,
      messages,
      stopWhen: stepCountIs(40),
      providerOptions: conversation('loop'),
    });
    expect(result.steps).toHaveLength(40);
    expect(prompts).toHaveLength(40);
    // Every compressed prompt, handed to @ai-sdk/anthropic and @ai-sdk/openai-compatible (talking to a fake API on
    // 127.0.0.1), makes a request the Anthropic and OpenAI validators accept.
    const providers = await startFakeProviderServer();
    try {
      for (const [index, prompt] of prompts.entries()) {
        expect(promptProblems(prompt), `request ${index + 1}`).toEqual([]);
        expect(await providers.requestValidity(prompt), `request ${index + 1}`).toEqual({ anthropic: [], openai: [] });
        expect(providerTokens(prompt, tokenizer), `request ${index + 1}`).toBeLessThanOrEqual(contextWindow);
      }
    } finally {
      await providers.close();
    }
    // Without ctx the last request would hold all 39 file reads: several windows' worth.
    const allReads = result.response.messages.filter((message) => message.role === 'tool').length;
    expect(allReads).toBe(39);
    expect(39 * tokenizer.countTokens(fileContent('src/file-1.ts'))).toBeGreaterThan(3 * contextWindow);
    const compressions = reports.filter((report) => report.type === 'compressed' && report.report.passes.some((pass) => pass.outcome === 'applied'));
    expect(compressions.length).toBeGreaterThan(0);
    expect(reports.filter((report) => report.type === 'passed-through')).toEqual([]);
    // The state is kept: only the first call builds it, later ones append.
    expect(reports.filter((report) => report.type === 'compressed' && report.rebuilt)).toHaveLength(1);
  });

  it("should decline rewrites of history already sent that do not pay, given the model's prices", async () => {
    // A continuous strategy that drops the oldest tool call and result on every call: each drop rewrites the cached
    // prompt after it.
    const dropOldestPair: CompressionStrategy = {
      specificationVersion: 'v1',
      name: 'drop-oldest-pair',
      requiresLLM: false,
      trigger: { mode: 'continuous', defaultThreshold: 0.85 },
      optimize: (history) => ({ removals: history.length >= 9 ? [1, 2] : [], replacements: new Map(), metadata: {} }),
      compress: () => Promise.resolve({ type: 'no-op', reason: 'already-under-target' }),
    };
    const sonnetPrices: CostModel = {
      specificationVersion: 'v1',
      name: 'sonnet-like',
      price: (usage) =>
        (usage.inputTokens * 3 + usage.outputTokens * 15 + (usage.cacheWriteTokens ?? 0) * 3.75 + (usage.cacheReadTokens ?? 0) * 0.3) / 1e6,
    };
    const declinedPasses = async (costModel?: CostModel) => {
      const { model } = toolLoopModel(12);
      const { middleware, reports } = middlewareWith({ strategy: dropOldestPair, contextWindow: 200_000, ...(costModel === undefined ? {} : { costModel }) });
      await generateText({ model: wrapLanguageModel({ model, middleware }), tools, messages, stopWhen: stepCountIs(12), providerOptions: conversation(`prices-${costModel?.name ?? 'none'}`) });
      const passes = reports.flatMap((report) => (report.type === 'compressed' ? report.report.passes : []));
      return { declined: passes.filter((pass) => pass.reason === 'does-not-pay').length, applied: passes.filter((pass) => pass.outcome === 'applied').length };
    };
    const plain = await declinedPasses();
    const priced = await declinedPasses(sonnetPrices);
    expect(plain.declined).toBe(0);
    expect(plain.applied).toBeGreaterThan(0);
    expect(priced.declined).toBeGreaterThan(0);
    expect(priced.applied).toBeLessThan(plain.applied);
  });

  it('should keep a 40-step streamed tool loop inside the window, with the stream passed through in order', async () => {
    const { model, prompts } = toolLoopModel(40);
    const { middleware, reports } = middlewareWith();
    const result = streamText({
      model: wrapLanguageModel({ model, middleware }),
      tools,
      messages,
      stopWhen: stepCountIs(40),
      providerOptions: conversation('stream'),
    });
    expect(await result.text).toBe('All files read.');
    expect(await result.steps).toHaveLength(40);
    expect(prompts).toHaveLength(40);
    for (const [index, prompt] of prompts.entries()) {
      expect(promptProblems(prompt), `request ${index + 1}`).toEqual([]);
      expect(providerTokens(prompt, tokenizer), `request ${index + 1}`).toBeLessThanOrEqual(contextWindow);
    }
    expect(reports.filter((report) => report.type === 'usage')).toHaveLength(40);
  });

  it('should calibrate from the usage each call reports', async () => {
    const { model, prompts } = toolLoopModel(3);
    const { middleware, reports } = middlewareWith();
    await generateText({ model: wrapLanguageModel({ model, middleware }), tools, messages, stopWhen: stepCountIs(3), providerOptions: conversation('calibration') });
    const usages = reports.filter((report) => report.type === 'usage');
    expect(usages.map((report) => report.inputTokens)).toEqual(prompts.map((prompt) => providerTokens(prompt, tokenizer)));
    // The factor moved off the initial 1.5 to what this provider's counts say, and later turns decide with it.
    expect(usages.at(-1)?.calibrationFactor).not.toBe(1.5);
    const lastTurn = reports.filter((report) => report.type === 'compressed').at(-1);
    expect(lastTurn?.type === 'compressed' && lastTurn.report.request.calibration.samples).toBe(2);
  });

  it('should keep conversations apart by providerOptions.ctx.conversationId', async () => {
    const { middleware, reports } = middlewareWith();
    const first = toolLoopModel(2);
    const second = toolLoopModel(2);
    await generateText({ model: wrapLanguageModel({ model: first.model, middleware }), tools, messages, stopWhen: stepCountIs(2), providerOptions: conversation('a') });
    await generateText({
      model: wrapLanguageModel({ model: second.model, middleware }),
      tools,
      messages: [{ role: 'user', content: 'A different task.' }],
      stopWhen: stepCountIs(2),
      providerOptions: conversation('b'),
    });
    const turns = reports.filter((report) => report.type === 'compressed');
    expect(turns.map((report) => [report.conversationId, report.rebuilt])).toEqual([
      ['a', true],
      ['a', false],
      ['b', true],
      ['b', false],
    ]);
    // Each conversation's second request holds its own first message, never the other's.
    expect(JSON.stringify(second.prompts[1])).toContain('A different task.');
    expect(JSON.stringify(second.prompts[1])).not.toContain('Read every file');
  });

  it('should evict the least recently used conversation beyond maxConversations and rebuild it from its next prompt', async () => {
    const { middleware, reports } = middlewareWith({ maxConversations: 2 });
    const call = async (id: string, history: ModelMessage[]) => {
      const { model } = toolLoopModel(1);
      await generateText({ model: wrapLanguageModel({ model, middleware }), messages: history, providerOptions: conversation(id) });
    };
    const talk = (id: string): ModelMessage[] => [{ role: 'user', content: `Hello from ${id}` }];
    const more = (id: string): ModelMessage[] => [...talk(id), { role: 'assistant', content: 'All files read.' }, { role: 'user', content: 'Thanks' }];
    await call('a', talk('a'));
    await call('b', talk('b'));
    await call('a', more('a')); // a is kept: appended, and now the most recent
    await call('c', talk('c')); // evicts b
    await call('b', more('b')); // b rebuilt
    await call('a', [...more('a'), { role: 'assistant', content: 'You are welcome.' }, { role: 'user', content: 'Bye' }]);
    const rebuilt = reports.flatMap((report) => (report.type === 'compressed' ? [`${report.conversationId}:${report.rebuilt}`] : []));
    expect(rebuilt).toEqual(['a:true', 'b:true', 'a:false', 'c:true', 'b:true', 'a:true']);
  });

  it('should rebuild the state when an earlier message of the conversation changed', async () => {
    const { middleware, reports } = middlewareWith();
    const { model, prompts } = toolLoopModel(10);
    const wrapped = wrapLanguageModel({ model, middleware });
    await generateText({ model: wrapped, messages: [{ role: 'user', content: 'First version' }], providerOptions: conversation('edit') });
    await generateText({ model: wrapped, messages: [{ role: 'user', content: 'Edited version' }], providerOptions: conversation('edit') });
    expect(reports.flatMap((report) => (report.type === 'compressed' ? [report.rebuilt] : []))).toEqual([true, true]);
    expect(JSON.stringify(prompts[1])).toContain('Edited version');
  });

  it('should create the strategies once per conversation when given a factory', async () => {
    const created: string[] = [];
    const { middleware } = middlewareWith({
      strategy: () => {
        created.push('strategy');
        return createTruncationStrategy();
      },
    });
    const { model } = toolLoopModel(2);
    const wrapped = wrapLanguageModel({ model, middleware });
    await generateText({ model: wrapped, tools, messages, stopWhen: stepCountIs(2), providerOptions: conversation('factory-a') });
    await generateText({ model: wrapped, messages: [{ role: 'user', content: 'Other' }], providerOptions: conversation('factory-b') });
    // Two conversations, three calls: one strategy instance per conversation, never shared.
    expect(created).toHaveLength(2);
  });

  it('should run stateless without a conversation id', async () => {
    const { middleware, reports } = middlewareWith();
    const { model } = toolLoopModel(1);
    await generateText({ model: wrapLanguageModel({ model, middleware }), messages });
    await generateText({ model: wrapLanguageModel({ model, middleware }), messages });
    expect(reports.flatMap((report) => (report.type === 'compressed' ? [[report.conversationId, report.rebuilt]] : []))).toEqual([
      [undefined, true],
      [undefined, true],
    ]);
  });

  it('should send the prompt unchanged and report the error when compression fails', async () => {
    const failing: CompressionStrategy = {
      ...strategy,
      name: 'failing',
      compress: () => Promise.reject(new Error('strategy exploded')),
    };
    const { middleware, reports } = middlewareWith({ strategy: failing, contextWindow: 2_000 });
    const { model, prompts } = toolLoopModel(3);
    const result = await generateText({ model: wrapLanguageModel({ model, middleware }), tools, messages, stopWhen: stepCountIs(3), providerOptions: conversation('failing') });
    expect(result.text).toBe('All files read.');
    const failures = reports.filter((report) => report.type === 'passed-through');
    expect(failures.length).toBeGreaterThan(0);
    expect(String((failures[0] as { error: unknown }).error)).toMatch(/strategy exploded|fit/);
    // The prompt the model got is the AI SDK's own, untouched.
    expect(prompts[2]?.filter((message) => message.role === 'tool')).toHaveLength(2);
  });

  it("should fail the call with onError: 'throw' when compression fails", async () => {
    const failing: CompressionStrategy = { ...strategy, name: 'failing', compress: () => Promise.reject(new Error('strategy exploded')) };
    const { middleware } = middlewareWith({ strategy: failing, contextWindow: 2_000, onError: 'throw' });
    const { model } = toolLoopModel(3);
    await expect(
      generateText({ model: wrapLanguageModel({ model, middleware }), tools, messages, stopWhen: stepCountIs(3), providerOptions: conversation('throwing') }),
    ).rejects.toThrow(/strategy exploded|fit/);
  });

  it('should pass through a prompt with a part it cannot carry, reporting UnsupportedPromptError', async () => {
    const { middleware, reports } = middlewareWith();
    const params = {
      // A file given by the provider's own reference (AI SDK 7) has no canonical form.
      prompt: [{ role: 'user', content: [{ type: 'file', mediaType: 'application/pdf', data: { type: 'reference', reference: { openai: 'file-123' } } }] }],
    } satisfies Parameters<typeof middleware.transformParams>[0]['params'];
    const out = await middleware.transformParams({ type: 'generate', params, model: { specificationVersion: 'v4' } });
    expect(out).toBe(params);
    const failure = reports.find((report) => report.type === 'passed-through');
    expect(UnsupportedPromptError.isInstance(failure?.type === 'passed-through' ? failure.error : undefined)).toBe(true);
  });

  it('should name a new message it cannot carry by its place in the whole prompt, and go on from what it kept', async () => {
    const { middleware, reports } = middlewareWith();
    const call = (prompt: LanguageModelPromptMessage[]) =>
      middleware.transformParams({ type: 'generate', params: { prompt, providerOptions: conversation('unsupported-later') }, model: { specificationVersion: 'v4' } });
    const past: LanguageModelPromptMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Summarize the report.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Which report?' }] },
    ];
    await call(past);
    const unsupported = { role: 'user', content: [{ type: 'text', text: 'This one.' }, { type: 'file', mediaType: 'application/pdf', data: { type: 'reference', reference: { openai: 'file-123' } } }] };
    await call([...past, unsupported]);
    const failure = reports.at(-1);
    const error = failure?.type === 'passed-through' ? failure.error : undefined;
    expect(UnsupportedPromptError.isInstance(error) ? error.path : error).toBe('prompt[2].content[1].data');
    await call([...past, { role: 'user', content: [{ type: 'text', text: 'The annual one.' }] }]);
    expect(reports.at(-1)).toMatchObject({ type: 'compressed', rebuilt: false, messagesAfter: 3 });
  });

  it('should round-trip system messages, files and reasoning unchanged when nothing is due', async () => {
    const { middleware, reports } = middlewareWith();
    const prompt: LanguageModelPromptMessage[] = [
      { role: 'system', content: 'You are terse.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image?' },
          { type: 'file', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
          { type: 'file', data: new URL('https://example.com/a.pdf'), mediaType: 'application/pdf', filename: 'a.pdf' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Look closely.', providerOptions: { anthropic: { signature: 'sig' } } },
          { type: 'text', text: 'A cat.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Sure?' }], providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
    ];
    const params = { prompt };
    const out = await middleware.transformParams({ type: 'stream', params, model: { specificationVersion: 'v3' } });
    expect(reports.map((report) => report.type)).toEqual(['compressed']);
    expect(out).not.toBe(params);
    expect(out.prompt).toEqual(prompt);
  });

  it('should hand the model the same frozen messages for the unchanged past on the next call, as a fresh conversion writes them', async () => {
    const { middleware } = middlewareWith();
    const model = { specificationVersion: 'v3' } as const;
    const past: LanguageModelPromptMessage[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'export const a = 1;' } }] },
    ];
    const next: LanguageModelPromptMessage[] = [...past, { role: 'assistant', content: [{ type: 'text', text: 'It exports a.' }] }, { role: 'user', content: [{ type: 'text', text: 'Thanks.' }] }];
    const first = await middleware.transformParams({ type: 'generate', params: { prompt: past, providerOptions: conversation('frozen') }, model });
    const second = await middleware.transformParams({ type: 'generate', params: { prompt: next, providerOptions: conversation('frozen') }, model });
    expect(second.prompt).toEqual(next);
    // The same objects as last time for the unchanged messages, frozen so that no one can change them in between.
    for (const index of [1, 2, 3]) expect(second.prompt[index]).toBe(first.prompt[index]);
    expect(Object.isFrozen(second.prompt[2])).toBe(true);
    expect(Object.isFrozen(second.prompt[2]?.content)).toBe(true);
    expect(Object.isFrozen((second.prompt[2]?.content as unknown[])[0])).toBe(true);
    // A conversation seen for the first time converts every message anew, to the same prompt.
    const fresh = await middlewareWith().middleware.transformParams({ type: 'generate', params: { prompt: next, providerOptions: conversation('fresh') }, model });
    expect(fresh.prompt).toEqual(second.prompt);
    expect(fresh.prompt[2]).not.toBe(second.prompt[2]);
  });

  it("should round-trip AI SDK 7's custom and reasoning-file parts when nothing is due", async () => {
    const { middleware, reports } = middlewareWith();
    const prompt: LanguageModelPromptMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Draw the architecture' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'A box per package.' },
          { type: 'reasoning-file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' },
          { type: 'custom', kind: 'openai.compaction', providerOptions: { openai: { encryptedContent: 'gAAA' } } },
          { type: 'text', text: 'Here it is.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ];
    const params = { prompt };
    const out = await middleware.transformParams({ type: 'generate', params, model: { specificationVersion: 'v4' } });
    expect(reports.map((report) => report.type)).toEqual(['compressed']);
    expect(out.prompt).toEqual(prompt);
  });

  it('should round-trip AI SDK 7 tagged file data and tool approval responses when nothing is due', async () => {
    const { middleware, reports } = middlewareWith();
    const prompt: LanguageModelPromptMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' },
          { type: 'file', data: { type: 'url', url: new URL('https://example.com/a.pdf') }, mediaType: 'application/pdf' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'web-1', toolName: 'web_search', input: { query: 'ctx' }, providerExecuted: true }],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId: 'approval-1', approved: true, providerOptions: { openai: { itemId: 'x' } } },
          { type: 'tool-result', toolCallId: 'web-1', toolName: 'web_search', output: { type: 'json', value: { hits: 3 } } },
        ],
      },
    ];
    const out = await middleware.transformParams({ type: 'generate', params: { prompt }, model: { specificationVersion: 'v4' } });
    expect(reports.map((report) => report.type)).toEqual(['compressed']);
    expect(out.prompt).toEqual(prompt);
  });

  it('should refuse invalid options at creation', () => {
    expect(() => createContextMiddleware({ strategy, contextWindow: 0, tokenizer })).toThrow(/contextWindow/);
    expect(() => createContextMiddleware({ strategy: [], contextWindow: 1000, tokenizer })).toThrow(/strategy/);
    expect(() => createContextMiddleware({ strategy, contextWindow: 1000, tokenizer, maxConversations: -1 })).toThrow(/maxConversations/);
  });
});
