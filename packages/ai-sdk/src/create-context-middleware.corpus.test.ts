// A recorded Claude Code session replayed through the middleware as an AI SDK app would send it: before each model
// call the app passes the whole conversation so far (`generateText({ messages })`), the middleware compresses it
// with high-density and truncation as its fallback, and the mock model reports the input size it received.
import { findToolPairingProblems, type HistoryEntry } from '@ctx/core';
import { aiSdkCodec } from '@ctx/format-ai-sdk';
import { createHighDensityStrategy } from '@ctx/strategy-high-density';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { corpusExists, loadLongClaudeCodeSessions } from '@ctx/test-corpus';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { generateText, wrapLanguageModel, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { ContextReport } from './context-options.js';
import { createContextMiddleware } from './create-context-middleware.js';
import type { LanguageModelPromptMessage } from './language-model-prompt.js';
import { promptProblems, providerTokens } from './test-support/tool-loop.js';

if (!corpusExists) console.warn('Skipping the middleware corpus replay: ../shared/corpus not found (set CTX_CORPUS)');

const contextWindow = 60_000;
const maxCalls = 50;

describe.skipIf(!corpusExists)('createContextMiddleware on a long Claude Code session', () => {
  it('should send every request inside the window and pair-valid, keeping one state for the whole session', { timeout: 240_000 }, async () => {
    const [session] = loadLongClaudeCodeSessions();
    expect(session).toBeDefined();
    const { conversation } = session as NonNullable<typeof session>;
    // Recorded sessions hold a few orphan tool results; the replay starts from a pair-valid history like an app's.
    expect(findToolPairingProblems(conversation.history)).toEqual([]);
    const tokenizer = await createGptTokenizer();
    const prompts: (readonly LanguageModelPromptMessage[])[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: (options) => {
        prompts.push(options.prompt);
        const inputTokens = providerTokens(options.prompt, tokenizer);
        return Promise.resolve({
          content: [{ type: 'text', text: 'ok' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: { inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          warnings: [],
        });
      },
    });
    const reports: ContextReport[] = [];
    const wrapped = wrapLanguageModel({
      model,
      middleware: createContextMiddleware({
        strategy: [createHighDensityStrategy(), createTruncationStrategy()],
        contextWindow,
        tokenizer,
        onReport: (report) => reports.push(report),
      }),
    });

    const entries: HistoryEntry[] = [];
    const openCalls = new Set<string>();
    let originalTokens = 0;
    for (const entry of conversation.history) {
      entries.push(entry);
      for (const block of entry.blocks) {
        if (block.type === 'tool_call') openCalls.add(block.id);
        if (block.type === 'tool_response') openCalls.delete(block.callId);
      }
      // The model is called after a user message or the last result of its tool calls, not after its own reply.
      if (entry.speaker === 'ai' || openCalls.size > 0 || prompts.length >= maxCalls) continue;
      const { value } = aiSdkCodec.encode({ ...conversation, history: entries });
      originalTokens = tokenizer.countTokens(JSON.stringify(value.messages));
      await generateText({
        model: wrapped,
        ...(value.system === undefined ? {} : { system: value.system }),
        messages: value.messages as ModelMessage[],
        providerOptions: { ctx: { conversationId: session?.name ?? 'session' } },
      });
    }
    expect(prompts).toHaveLength(maxCalls);
    // The replay outgrew the window: what was sent had to be compressed.
    expect(originalTokens).toBeGreaterThan(contextWindow);
    for (const [index, prompt] of prompts.entries()) {
      expect(promptProblems(prompt), `request ${index + 1}`).toEqual([]);
      expect(providerTokens(prompt, tokenizer), `request ${index + 1}`).toBeLessThanOrEqual(contextWindow);
    }
    expect(reports.filter((report) => report.type === 'passed-through')).toEqual([]);
    expect(reports.filter((report) => report.type === 'compressed' && report.rebuilt)).toHaveLength(1);
  });
});
