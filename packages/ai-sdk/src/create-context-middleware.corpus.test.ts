// A recorded Claude Code session replayed through the middleware as an AI SDK app would send it: before each model
// call the app passes the whole conversation so far (`generateText({ messages })`), the middleware compresses it
// with high-density and truncation as its fallback, and the mock model reports the input size it received. Each
// prompt it received is then sent through @ai-sdk/anthropic and @ai-sdk/openai-compatible to a fake API on loopback.
import { findToolPairingProblems, type Conversation, type HistoryEntry, type Tokenizer } from '@ctx/core';
import { aiSdkCodec } from '@ctx/format-ai-sdk';
import { findNewValidityProblems } from '@ctx/retention';
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
import { startFakeProviderServer } from './test-support/fake-provider-server.js';
import { promptProblems, providerTokens } from './test-support/tool-loop.js';

if (!corpusExists) console.warn('Skipping the middleware corpus replay: ../shared/corpus not found (set CTX_CORPUS)');

const contextWindow = 60_000;
const maxCalls = 50;

/** A mock model that records each prompt it receives and reports `inputTokens(prompt)` as the call's input size. */
function recordingModel(prompts: (readonly LanguageModelPromptMessage[])[], inputTokens: (prompt: readonly LanguageModelPromptMessage[]) => number) {
  return new MockLanguageModelV3({
    doGenerate: (options) => {
      prompts.push(options.prompt);
      const input = inputTokens(options.prompt);
      return Promise.resolve({
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: { inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        warnings: [],
      });
    },
  });
}

/** What a replay of the session through the middleware recorded. */
interface Replay {
  /** The prompts the model received (compressed by the middleware). */
  readonly prompts: (readonly LanguageModelPromptMessage[])[];
  /** The prompts the app itself sent, when asked for: the same calls to a model without the middleware. */
  readonly originals: (readonly LanguageModelPromptMessage[])[];
  readonly reports: ContextReport[];
  /** The tokens of the app's last prompt. */
  readonly originalTokens: number;
}

/**
 * Replays the session through the middleware as an app would call the model: after a user message or the last result
 * of the model's tool calls, with the whole conversation so far (`messagesOf` may rewrite the app's messages), up to
 * `maxCalls` calls.
 */
async function replay(
  conversation: Conversation,
  tokenizer: Tokenizer,
  options: { readonly withOriginals: boolean; readonly messagesOf?: (messages: ModelMessage[]) => ModelMessage[] },
): Promise<Replay> {
  const prompts: (readonly LanguageModelPromptMessage[])[] = [];
  const originals: (readonly LanguageModelPromptMessage[])[] = [];
  const reports: ContextReport[] = [];
  const wrapped = wrapLanguageModel({
    model: recordingModel(prompts, (prompt) => providerTokens(prompt, tokenizer)),
    middleware: createContextMiddleware({
      strategy: [createHighDensityStrategy(), createTruncationStrategy()],
      contextWindow,
      tokenizer,
      onReport: (report) => reports.push(report),
    }),
  });
  const unwrapped = recordingModel(originals, () => 1);
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
    const messages = options.messagesOf?.(value.messages as ModelMessage[]) ?? (value.messages as ModelMessage[]);
    originalTokens = tokenizer.countTokens(JSON.stringify(messages));
    const call = {
      ...(value.system === undefined ? {} : { system: value.system }),
      messages,
      providerOptions: { ctx: { conversationId: 'session' } },
    };
    await generateText({ model: wrapped, ...call });
    if (options.withOriginals) await generateText({ model: unwrapped, ...call });
  }
  return { prompts, originals, reports, originalTokens };
}

describe.skipIf(!corpusExists)('createContextMiddleware on a long Claude Code session', () => {
  it('should send every request inside the window and pair-valid, keeping one state for the whole session', { timeout: 240_000 }, async () => {
    const [session] = loadLongClaudeCodeSessions();
    expect(session).toBeDefined();
    const { conversation } = session as NonNullable<typeof session>;
    // Recorded sessions hold a few orphan tool results; the replay starts from a pair-valid history like an app's.
    expect(findToolPairingProblems(conversation.history)).toEqual([]);
    const tokenizer = await createGptTokenizer();
    const { prompts, originals, reports, originalTokens } = await replay(conversation, tokenizer, { withOriginals: true });
    expect(prompts).toHaveLength(maxCalls);
    // The replay outgrew the window: what was sent had to be compressed.
    expect(originalTokens).toBeGreaterThan(contextWindow);
    // Handed to the real provider packages as an app's call would (they talk to a fake API on 127.0.0.1), each
    // compressed prompt makes a valid Anthropic request, and an OpenAI one with no problem the app's own prompt did not
    // already have (@ai-sdk/openai-compatible sends reasoning as `reasoning_content`, which OpenAI's own API does not
    // take).
    expect(originals).toHaveLength(prompts.length);
    const providers = await startFakeProviderServer();
    try {
      for (const [index, prompt] of prompts.entries()) {
        expect(promptProblems(prompt), `request ${index + 1}`).toEqual([]);
        const before = await providers.requestValidity(originals[index] as readonly LanguageModelPromptMessage[]);
        const after = await providers.requestValidity(prompt);
        expect(after.anthropic, `request ${index + 1}`).toEqual([]);
        expect(findNewValidityProblems(before, after), `request ${index + 1}`).toEqual({ anthropic: [], openai: [] });
        expect(providerTokens(prompt, tokenizer), `request ${index + 1}`).toBeLessThanOrEqual(contextWindow);
      }
    } finally {
      await providers.close();
    }
    expect(reports.filter((report) => report.type === 'passed-through')).toEqual([]);
    expect(reports.filter((report) => report.type === 'compressed' && report.rebuilt)).toHaveLength(1);
  });

  it('should compress the session the same when its tool call ids are numbered per turn, and send those ids back', { timeout: 240_000 }, async () => {
    const [session] = loadLongClaudeCodeSessions();
    const { conversation } = session as NonNullable<typeof session>;
    const tokenizer = await createGptTokenizer();
    const unique = await replay(conversation, tokenizer, { withOriginals: false });
    const numbered = await replay(conversation, tokenizer, { withOriginals: false, messagesOf: numberedPerTurn });

    expect(numbered.prompts).toHaveLength(maxCalls);
    // One state for the whole session (built at the first call), never rebuilt because an id came again.
    expect(numbered.reports.filter((report) => report.type === 'compressed' && report.rebuilt)).toHaveLength(1);
    numbered.prompts.forEach((prompt, index) => {
      expect(withoutCallIds(prompt), `request ${index + 1}`).toBe(withoutCallIds(unique.prompts[index] ?? []));
      expect(callIdsOf(prompt).every((id) => /^functions\.\w+:\d+$/.test(id)), `request ${index + 1}`).toBe(true);
      expect(promptProblems(prompt), `request ${index + 1}`).toEqual([]);
    });
  });
});

/**
 * The messages with their tool call ids numbered per provider turn (consecutive assistant messages are one), as Kimi
 * writes them: `functions.<tool>:<index>`, the same ids again in every turn; each result answers its call's new id.
 */
function numberedPerTurn(messages: readonly ModelMessage[]): ModelMessage[] {
  let renamed = new Map<string, string>();
  let previousRole: string | undefined;
  const rename = <Part>(part: Part & { type: string; toolCallId?: string }): Part =>
    part.toolCallId === undefined ? part : { ...part, toolCallId: renamed.get(part.toolCallId) ?? part.toolCallId };
  return messages.map((message) => {
    if (message.role === 'assistant' && previousRole !== 'assistant') renamed = new Map();
    previousRole = message.role;
    if (message.role === 'assistant' && typeof message.content !== 'string') {
      for (const part of message.content) {
        if (part.type === 'tool-call') renamed.set(part.toolCallId, `functions.${part.toolName}:${renamed.size}`);
      }
      return { ...message, content: message.content.map((part) => rename(part)) };
    }
    if (message.role === 'tool') return { ...message, content: message.content.map((part) => rename(part)) };
    return message;
  });
}

/** The tool call ids a prompt's assistant messages hold. */
function callIdsOf(prompt: readonly LanguageModelPromptMessage[]): string[] {
  return prompt.flatMap((message) =>
    message.role === 'assistant' && Array.isArray(message.content)
      ? (message.content as { type: string; toolCallId?: string }[]).flatMap((part) => (part.type === 'tool-call' && part.toolCallId !== undefined ? [part.toolCallId] : []))
      : [],
  );
}

/** A prompt with every tool call id blanked, to compare two prompts that differ only in their ids. */
function withoutCallIds(prompt: readonly LanguageModelPromptMessage[]): string {
  return JSON.stringify(prompt, (key, value: unknown) => (key === 'toolCallId' ? '' : value));
}
