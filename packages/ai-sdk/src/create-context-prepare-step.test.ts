import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import type { CompressionStrategy, Tokenizer } from '@ctx/core';
import { builtInPresets, createPresetStrategy } from '@ctx/presets';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContextReport } from './context-options.js';
import { createContextPrepareStep } from './create-context-prepare-step.js';
import type { LanguageModelPromptMessage } from './language-model-prompt.js';
import { fileContent, promptProblems, providerTokens } from './test-support/tool-loop.js';

const contextWindow = 12_000;
let tokenizer: Tokenizer;
let strategy: CompressionStrategy;

beforeAll(async () => {
  tokenizer = await createGptTokenizer();
  strategy = createPresetStrategy(builtInPresets.speed, { factories: { truncation: createTruncationStrategy } });
});

function toolLoopModel(steps: number) {
  const prompts: (readonly LanguageModelPromptMessage[])[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
      prompts.push(options.prompt);
      const step = prompts.length;
      const done = step >= steps;
      const inputTokens = providerTokens(options.prompt, tokenizer);
      return Promise.resolve({
        content: done
          ? [{ type: 'text', text: 'All files read.' }]
          : [{ type: 'tool-call', toolCallId: `call-${step}`, toolName: 'read_file', input: JSON.stringify({ path: `src/file-${step}.ts` }) }],
        finishReason: { unified: done ? 'stop' : 'tool-calls', raw: undefined },
        usage: {
          inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 20, text: 20, reasoning: 0 },
        },
        warnings: [],
      });
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
const messages: ModelMessage[] = [{ role: 'user', content: 'Read every file of the project, one at a time.' }];

describe('createContextPrepareStep', () => {
  it('should keep a 40-step tool loop inside a small window with every request valid', async () => {
    const { model, prompts } = toolLoopModel(40);
    const reports: ContextReport[] = [];
    const result = await generateText({
      model,
      tools,
      messages,
      stopWhen: stepCountIs(40),
      prepareStep: createContextPrepareStep({ strategy, contextWindow, tokenizer, onReport: (report) => reports.push(report) }),
    });
    expect(result.steps).toHaveLength(40);
    expect(prompts).toHaveLength(40);
    for (const [index, prompt] of prompts.entries()) {
      expect(promptProblems(prompt), `request ${index + 1}`).toEqual([]);
      expect(providerTokens(prompt, tokenizer), `request ${index + 1}`).toBeLessThanOrEqual(contextWindow);
    }
    expect(reports.filter((report) => report.type === 'passed-through')).toEqual([]);
    // Every step after the first feeds the previous step's usage to the calibration; the state is built once.
    expect(reports.filter((report) => report.type === 'usage')).toHaveLength(39);
    expect(reports.filter((report) => report.type === 'compressed' && report.rebuilt)).toHaveLength(1);
    // What the AI SDK keeps as the response is the full, uncompressed conversation: ctx only shaped each request.
    expect(result.response.messages.filter((message) => message.role === 'tool')).toHaveLength(39);
  });

  it('should leave the messages alone and report the error when compression fails', async () => {
    const failing: CompressionStrategy = { ...strategy, name: 'failing', compress: () => Promise.reject(new Error('strategy exploded')) };
    const reports: ContextReport[] = [];
    const prepareStep = createContextPrepareStep({ strategy: failing, contextWindow: 2_000, tokenizer, onReport: (report) => reports.push(report) });
    const { model, prompts } = toolLoopModel(3);
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(3), prepareStep });
    expect(result.text).toBe('All files read.');
    expect(reports.some((report) => report.type === 'passed-through')).toBe(true);
    expect(prompts[2]?.filter((message) => message.role === 'tool')).toHaveLength(2);
  });

  it('should return the messages unchanged when nothing is due', async () => {
    const prepareStep = createContextPrepareStep({ strategy, contextWindow, tokenizer });
    const input: ModelMessage[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'read_file', input: { path: 'x' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'read_file', output: { type: 'text', value: 'x' } }] },
    ];
    const result = await prepareStep({ messages: input, steps: [] });
    expect(result.messages).toEqual(input);
  });
});
