import { createContextMiddleware, type ContextReport } from '@ctx/ai-sdk';
import { createCountingTokenizer, type CompressionStrategy, type HistoryEntry, type Tokenizer } from '@ctx/core';
import { aiSdkCodec, type AiSdkModelMessage, type AiSdkPrompt } from '@ctx/format-ai-sdk';
import { generateText, jsonSchema, tool, wrapLanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { BenchSession } from './bench-sessions.js';

/** What replaying one session through the AI SDK middleware cost. */
export interface MiddlewareReplay {
  /** Each model call's time inside the middleware (`transformParams`), minus the time spent inside the tokenizer. */
  readonly callOverheadMilliseconds: readonly number[];
  /** Set when a call failed or went out uncompressed: the replay stopped there. */
  readonly error?: string;
}

/** Options of {@link replayThroughMiddleware}. */
export interface MiddlewareReplayOptions {
  readonly session: BenchSession;
  /** Creates the strategy of the conversation's state (called once per replay). */
  readonly createStrategy: () => CompressionStrategy;
  /** The raw tokenizer; the replay wraps it to take the tokenizer's time out. */
  readonly tokenizer: Tokenizer;
  /** The model's context window, in tokens. */
  readonly contextWindow: number;
  /** Replay only the first this many calls (a warm-up); all by default. */
  readonly maxCalls?: number;
}

type LanguageModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/** A model that answers every call at once: the replay measures the middleware, not a model. */
const answeringModel = {
  specificationVersion: 'v3',
  provider: 'ctx-bench',
  modelId: 'answers-at-once',
  supportedUrls: {},
  doGenerate: () =>
    Promise.resolve({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      },
      warnings: [],
    }),
  doStream: () => Promise.reject(new Error('the bench model only generates')),
} as unknown as LanguageModel;

/**
 * Whether the session ends in a tool call: its last assistant turn (the run of `ai` entries it ends with) calls a tool
 * whose result was never recorded — a session cut off while its tools ran. No model call follows such an ending (the
 * app runs the tools first, and the AI SDK refuses a prompt whose tool calls have no results).
 */
function endsInToolCall(entries: readonly HistoryEntry[]): boolean {
  for (let index = entries.length - 1; index >= 0 && entries[index]?.speaker === 'ai'; index--) {
    if (entries[index]?.blocks.some((block) => block.type === 'tool_call') === true) return true;
  }
  return false;
}

/**
 * The messages an app would pass on each model call: the session encoded as AI SDK messages, and before each of the
 * model's own entries (and after the last entry, unless the session {@link endsInToolCall}) how many of them the call
 * sends. Each turn's new entries are encoded on their own and appended, which for a session from another format gives
 * the same messages as encoding every prefix (checked against the whole session's encoding).
 */
function callsOf(session: BenchSession): { readonly prompt: AiSdkPrompt; readonly messageCounts: readonly number[] } {
  const whole = aiSdkCodec.encode({ system: session.system, tools: session.tools, history: session.history }).value;
  const messages: AiSdkModelMessage[] = [];
  const messageCounts: number[] = [];
  let from = 0;
  const entries: readonly HistoryEntry[] = session.history;
  for (let index = 0; index < entries.length; index++) {
    const next = entries[index + 1];
    if (next !== undefined && next.speaker !== 'ai') continue;
    messages.push(...aiSdkCodec.encode({ history: entries.slice(from, index + 1) }).value.messages);
    if (next !== undefined || !endsInToolCall(entries)) messageCounts.push(messages.length);
    from = index + 1;
  }
  if (JSON.stringify(messages) !== JSON.stringify(whole.messages)) {
    throw new Error(`${session.label}: its turns do not encode to the whole session's messages; the middleware replay cannot take prefixes of them`);
  }
  return { prompt: whole, messageCounts };
}

function toolSetOf(prompt: AiSdkPrompt): ToolSet {
  return Object.fromEntries(
    Object.entries(prompt.tools ?? {}).map(([name, definition]) => [
      name,
      tool({ ...(definition.description === undefined ? {} : { description: definition.description }), inputSchema: jsonSchema(definition.inputSchema as never) }),
    ]),
  );
}

/**
 * Replays a session through `createContextMiddleware` as an AI SDK app lives it: before each model call the app calls
 * `generateText` with the whole conversation so far (the same message objects as before, plus the new ones), the AI
 * SDK turns them into the model's prompt, and the middleware compresses it for the conversation. Only the time inside
 * the middleware is taken, with the tokenizer's time taken out: what ctx adds to a call, not what the AI SDK does.
 *
 * @returns Each call's overhead; an error stops the replay and is returned, not thrown.
 */
export async function replayThroughMiddleware(options: MiddlewareReplayOptions): Promise<MiddlewareReplay> {
  const callOverheadMilliseconds: number[] = [];
  const failure = (thrown: unknown): MiddlewareReplay => ({
    callOverheadMilliseconds,
    error: thrown instanceof Error ? `${thrown.name}: ${thrown.message.split('\n')[0] ?? ''}` : String(thrown),
  });
  try {
    const { prompt, messageCounts } = callsOf(options.session);
    const counting = createCountingTokenizer(options.tokenizer);
    const reports: ContextReport[] = [];
    const middleware = createContextMiddleware({
      strategy: () => options.createStrategy(),
      contextWindow: options.contextWindow,
      tokenizer: counting.tokenizer,
      calibration: false,
      onReport: (report) => reports.push(report),
    });
    const timed: typeof middleware = {
      ...middleware,
      transformParams: async (call) => {
        const tokenizing = counting.stats().milliseconds;
        const started = performance.now();
        const params = await middleware.transformParams(call);
        callOverheadMilliseconds.push(Math.max(0, performance.now() - started - (counting.stats().milliseconds - tokenizing)));
        return params;
      },
    };
    const model = wrapLanguageModel({ model: answeringModel, middleware: timed });
    const tools = toolSetOf(prompt);
    for (const count of messageCounts.slice(0, options.maxCalls ?? messageCounts.length)) {
      await generateText({
        model,
        ...(prompt.system === undefined ? {} : { system: prompt.system }),
        messages: prompt.messages.slice(0, count) as ModelMessage[],
        tools,
        providerOptions: { ctx: { conversationId: 'bench' } },
      });
      const passedThrough = reports.find((report) => report.type === 'passed-through');
      if (passedThrough?.type === 'passed-through') return failure(passedThrough.error);
    }
    return { callOverheadMilliseconds };
  } catch (thrown) {
    return failure(thrown);
  }
}
