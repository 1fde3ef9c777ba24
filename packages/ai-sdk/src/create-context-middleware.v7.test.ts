// The middleware and prepareStep helper with AI SDK 7 (installed as `ai-v7`), which needs Node ≥ 22: skipped on Node
// 20, run by the Node 22 and 24 passes of `npm test` (or `npx -y node@22 node_modules/vitest/vitest.mjs run packages/ai-sdk`).
import type { CompressionStrategy, Tokenizer } from '@ctx/core';
import { builtInPresets, createPresetStrategy } from '@ctx/presets';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import type * as AiV7 from 'ai-v7';
import type { ModelMessage } from 'ai-v7';
import type * as AiV7Test from 'ai-v7/test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContextReport } from './context-options.js';
import { createContextMiddleware } from './create-context-middleware.js';
import { createContextPrepareStep } from './create-context-prepare-step.js';
import type { LanguageModelPromptMessage } from './language-model-prompt.js';
import { fileContent, promptProblems, providerTokens } from './test-support/tool-loop.js';

// This package's types leave Node out (it runs in browsers too); the version is read without them.
const nodeVersion = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node ?? '0';
const supported = Number(nodeVersion.split('.')[0]) >= 22;
if (!supported) console.warn(`Skipping the AI SDK 7 tests: AI SDK 7 needs Node ≥ 22, this is Node ${nodeVersion} (the Node 22/24 passes of npm test run them)`);

const contextWindow = 12_000;
const messages: ModelMessage[] = [{ role: 'user', content: 'Read every file of the project, one at a time.' }];

describe.skipIf(!supported)('createContextMiddleware with AI SDK 7', () => {
  let ai: typeof AiV7;
  let aiTest: typeof AiV7Test;
  let tokenizer: Tokenizer;
  let strategy: CompressionStrategy;

  beforeAll(async () => {
    ai = await import('ai-v7');
    aiTest = await import('ai-v7/test');
    tokenizer = await createGptTokenizer();
    strategy = createPresetStrategy(builtInPresets.speed, { factories: { truncation: createTruncationStrategy } });
  });

  const usage = (inputTokens: number) => ({
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 20, text: 20, reasoning: 0 },
  });

  function toolLoopModel(steps: number) {
    const prompts: (readonly LanguageModelPromptMessage[])[] = [];
    const model = new aiTest.MockLanguageModelV4({
      doGenerate: (options) => {
        prompts.push(options.prompt);
        const step = prompts.length;
        const done = step >= steps;
        return Promise.resolve({
          content: done
            ? [{ type: 'text' as const, text: 'All files read.' }]
            : [{ type: 'tool-call' as const, toolCallId: `call-${step}`, toolName: 'read_file', input: JSON.stringify({ path: `src/file-${step}.ts` }) }],
          finishReason: { unified: done ? ('stop' as const) : ('tool-calls' as const), raw: undefined },
          usage: usage(providerTokens(options.prompt, tokenizer)),
          warnings: [],
        });
      },
      doStream: (options) => {
        prompts.push(options.prompt);
        const step = prompts.length;
        const done = step >= steps;
        return Promise.resolve({
          stream: aiTest.convertArrayToReadableStream([
            ...(done
              ? [
                  { type: 'text-start' as const, id: 't' },
                  { type: 'text-delta' as const, id: 't', delta: 'All files ' },
                  { type: 'text-delta' as const, id: 't', delta: 'read.' },
                  { type: 'text-end' as const, id: 't' },
                ]
              : [{ type: 'tool-call' as const, toolCallId: `call-${step}`, toolName: 'read_file', input: JSON.stringify({ path: `src/file-${step}.ts` }) }]),
            {
              type: 'finish' as const,
              finishReason: { unified: done ? ('stop' as const) : ('tool-calls' as const), raw: undefined },
              usage: usage(providerTokens(options.prompt, tokenizer)),
            },
          ]),
        });
      },
    });
    return { model, prompts };
  }

  const tools = () => ({
    read_file: ai.tool({
      description: 'Reads a file',
      inputSchema: ai.jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
      execute: ({ path }) => Promise.resolve(fileContent(path)),
    }),
  });

  const expectInsideWindow = (prompts: readonly (readonly LanguageModelPromptMessage[])[]) => {
    expect(prompts).toHaveLength(40);
    for (const [index, prompt] of prompts.entries()) {
      expect(promptProblems(prompt), `request ${index + 1}`).toEqual([]);
      expect(providerTokens(prompt, tokenizer), `request ${index + 1}`).toBeLessThanOrEqual(contextWindow);
    }
  };

  it('should keep a 40-step tool loop inside a small window with every request valid (generateText)', async () => {
    const { model, prompts } = toolLoopModel(40);
    const reports: ContextReport[] = [];
    const middleware = createContextMiddleware({ strategy, contextWindow, tokenizer, onReport: (report) => reports.push(report) });
    const result = await ai.generateText({
      model: ai.wrapLanguageModel({ model, middleware }),
      tools: tools(),
      messages,
      stopWhen: ai.isStepCount(40),
      providerOptions: { ctx: { conversationId: 'v7' } },
    });
    expect(result.steps).toHaveLength(40);
    expectInsideWindow(prompts);
    expect(reports.filter((report) => report.type === 'passed-through')).toEqual([]);
    expect(reports.filter((report) => report.type === 'usage')).toHaveLength(40);
  });

  it('should keep a 40-step streamed tool loop inside the window', async () => {
    const { model, prompts } = toolLoopModel(40);
    const middleware = createContextMiddleware({ strategy, contextWindow, tokenizer });
    const result = ai.streamText({
      model: ai.wrapLanguageModel({ model, middleware }),
      tools: tools(),
      messages,
      stopWhen: ai.isStepCount(40),
      providerOptions: { ctx: { conversationId: 'v7-stream' } },
    });
    expect(await result.text).toBe('All files read.');
    expectInsideWindow(prompts);
  });

  it('should keep a 40-step loop inside the window through prepareStep', async () => {
    const { model, prompts } = toolLoopModel(40);
    const result = await ai.generateText({
      model,
      tools: tools(),
      messages,
      stopWhen: ai.isStepCount(40),
      prepareStep: createContextPrepareStep({ strategy, contextWindow, tokenizer }),
    });
    expect(result.steps).toHaveLength(40);
    expectInsideWindow(prompts);
  });
});
