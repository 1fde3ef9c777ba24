import {
  ContextWindowExceededError,
  HistoryService,
  createCompressionOrchestrator,
  type CompressionOrchestrator,
  type Conversation,
  type CostModel,
  type HistoryEntry,
  type PassReport,
  type TokenCounter,
  type TurnReport,
} from '@ctx/core';
import { anthropicMessagesCodec, createAnthropicRequestDecoder, validateAnthropicRequest } from '@ctx/format-anthropic';
import { createOpenAIRequestDecoder, openAIChatCodec, validateOpenAIRequest } from '@ctx/format-openai';
import { isSameEntryContent, isSameJsonText } from '@ctx/strategy-utils';
import { restoreCacheBreakpoints, withoutMessageBreakpoints } from './cache-breakpoints.js';
import { createRequestBodyWriter, type RequestBodyWriter } from './request-body-writer.js';
import { ConversationStore } from './conversation-store.js';
import { lookUpModelWindow } from './model-windows.js';
import type { ProviderDialect } from './provider-error-response.js';
import type { ProxyPreset } from './resolve-proxy-preset.js';

type JsonRecord = Record<string, unknown>;

/**
 * Decodes one conversation's requests, keeping what it read: `messages` are the last request's, copied with their
 * strings shared with the entries decoded from them.
 */
interface ConversationDecoder {
  decode(request: unknown): { readonly conversation: Conversation };
  readonly messages: readonly unknown[];
}

/** The messages of a request or of an encoded one (none when it has no message list). */
function messagesOf(request: JsonRecord): readonly unknown[] {
  return Array.isArray(request.messages) ? (request.messages as readonly unknown[]) : [];
}

/** How the proxy reads, writes and checks one dialect's requests. */
interface DialectSupport {
  decode(request: unknown): { readonly conversation: Conversation };
  /** A decoder for one conversation's requests that reads only the messages it has not seen. */
  createDecoder?: () => ConversationDecoder;
  encode(conversation: Conversation): JsonRecord;
  /**
   * `loneSurrogates: false` skips that rule's walk over every string: the encoders' output holds no lone surrogate.
   * `isSchemaValidMessage` names messages not parsed against the request schema again.
   */
  validate(
    request: unknown,
    options?: {
      readonly loneSurrogates?: boolean;
      readonly isSchemaValidMessage?: (message: unknown, index: number) => boolean;
    },
  ): readonly { readonly rule: string; readonly path: string; readonly message: string }[];
}

const dialects: Readonly<Record<ProviderDialect, DialectSupport>> = {
  anthropic: {
    decode: (request) => anthropicMessagesCodec.decode(request),
    createDecoder: createAnthropicRequestDecoder,
    encode: (conversation) => anthropicMessagesCodec.encode(conversation).value,
    validate: validateAnthropicRequest,
  },
  openai: {
    decode: (request) => openAIChatCodec.decode(request),
    createDecoder: createOpenAIRequestDecoder,
    encode: (conversation) => openAIChatCodec.encode(conversation).value,
    validate: validateOpenAIRequest,
  },
};

/** The compression side of a conversation's state: the history as last sent, and what it was built from. */
interface CompressionState {
  readonly history: HistoryService;
  readonly orchestrator: CompressionOrchestrator;
  readonly window: number;
  /**
   * The client's entries the history was built from (breakpoints taken out), to recognize a request that continues
   * them: compared by content, which costs a walk with string comparisons where hashing cost serializing every entry.
   */
  entries: readonly HistoryEntry[];
  /** Tokens (ours) of those entries as the client sent them. */
  originalTokens: number;
  /** The system instructions and tools the history holds, to update them only when they change. */
  overhead: Overhead;
  /** True once any pass changed the history: from then on requests are sent from the history, not as they came. */
  rewritten: boolean;
}

/** Everything kept per conversation. */
interface ConversationState {
  compression: CompressionState | undefined;
  /**
   * The messages last sent, without their breakpoints, for the cache-prefix stability figure. Kept as sent (the
   * request as parsed, or as encoded from the history, whose strings the history holds anyway): nothing changes them
   * once sent.
   */
  sentMessages: readonly unknown[] | undefined;
  /** Decodes the conversation's requests, reading only the messages the last request did not hold. */
  decoders: Partial<Record<ProviderDialect, ConversationDecoder>>;
  /** Writes the conversation's compressed bodies, serializing each message once while it stays the same. */
  bodyWriter: RequestBodyWriter | undefined;
  /** Whether `sentMessages` are those of the writer's last body (the last request was sent compressed). */
  sentWritten: boolean;
  /**
   * Whether the last body the writer wrote passed the request schema (a body with a schema problem the client's own
   * request had is sent too): only then does a message the same as one of it skip the schema.
   */
  bodyPassedSchema: boolean;
  /** Serializes the requests of one conversation. */
  queue: Promise<unknown>;
}

/** What the proxy does with one conversation request. */
export interface CompressedRequest {
  /** The body to send (UTF-8 JSON), or undefined to send the request exactly as it came. */
  readonly body: Uint8Array | undefined;
  /**
   * `compressed`: sent from the compressed history. `unchanged`: the conversation never needed compressing, sent
   * as it came. `failed-open`: something failed inside the proxy, sent as it came (`reason` says what).
   */
  readonly outcome: 'compressed' | 'unchanged' | 'failed-open';
  /** Why the request was sent as it came, for `failed-open`; a note such as "still over the window" otherwise. */
  readonly reason: string | undefined;
  /** What ran on this request, for the log (e.g. `coding-agent compression`), or what did not and why. */
  readonly ran: string;
  /** Tokens (ours) of the request as it came and as it is sent. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The context window the request was compressed for. */
  readonly window: number;
  /** Whether the messages sent begin with all those the conversation's previous request sent. */
  readonly prefix: 'kept' | 'broken-by-compaction' | 'broken' | 'first';
  /** Feeds the provider's reported input size back to the conversation's calibration. */
  readonly recordInputTokens: (inputTokens: number) => void;
  /** Passes the cache-aware planning declined on this request because they would not pay for their cache writes. */
  readonly declined?: number;
}

/** Options of {@link RequestCompressor}. */
export interface RequestCompressorOptions {
  readonly preset: ProxyPreset;
  /** Prices of a request's `model`, for cache-aware planning; without it (or for an unknown model) none. */
  readonly costModelFor?: (model: unknown) => CostModel | undefined;
  /** The context window; by default looked up from each request's `model`. */
  readonly window: number | undefined;
  /** Compress every request from scratch, keeping no history between requests. */
  readonly stateless: boolean;
  /** Shared by every conversation: one token cache for the whole proxy. */
  readonly tokenCounter: TokenCounter;
  /** Conversations kept at most. */
  readonly maxConversations: number;
}

/** Options of {@link RequestCompressor.compress}. */
export interface CompressOptions {
  /**
   * Use and update the conversation's state (false for one-off requests such as `count_tokens`, compressed from
   * scratch without touching the state).
   * @default true
   */
  readonly track?: boolean;
}

/** A conversation's system instructions and tools. */
type Overhead = readonly [Conversation['system'], Conversation['tools']];

/** The entry without the `cache_control` breakpoints clients move from request to request. */
function withoutEntryBreakpoints(entry: HistoryEntry): HistoryEntry {
  if (!entry.blocks.some((block) => block.providerMetadata?.anthropic?.cache_control !== undefined)) return entry;
  return {
    ...entry,
    blocks: entry.blocks.map((block) => {
      const anthropic = block.providerMetadata?.anthropic;
      if (anthropic === undefined || anthropic.cache_control === undefined) return block;
      const { cache_control: _dropped, ...rest } = anthropic;
      const { anthropic: _anthropic, ...otherProviders } = block.providerMetadata ?? {};
      const providerMetadata = Object.keys(rest).length === 0 ? otherProviders : { ...otherProviders, anthropic: rest };
      const { providerMetadata: _metadata, ...blockRest } = block;
      return (Object.keys(providerMetadata).length === 0 ? blockRest : { ...blockRest, providerMetadata });
    }),
  };
}

/**
 * Whether `whole` begins with messages that serialize as those of `prefix` do; `known(index)` says a message is the
 * same as the one in its place without comparing.
 */
function startsWithMessages(whole: readonly unknown[], prefix: readonly unknown[], known: (index: number) => boolean): boolean {
  if (prefix.length > whole.length) return false;
  for (let index = 0; index < prefix.length; index += 1) {
    if (!known(index) && !isSameJsonText(whole[index], prefix[index])) return false;
  }
  return true;
}

function startsWithEntries(whole: readonly HistoryEntry[], prefix: readonly HistoryEntry[]): boolean {
  if (prefix.length > whole.length) return false;
  for (let index = 0; index < prefix.length; index += 1) {
    if (!isSameEntryContent(whole[index] as HistoryEntry, prefix[index] as HistoryEntry)) return false;
  }
  return true;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function describeRun(report: TurnReport, state: CompressionState, presetName: string, note: string | undefined): string {
  const applied = report.passes.filter((pass: PassReport) => pass.outcome === 'applied');
  const parts: string[] = [];
  if (applied.length > 0) {
    parts.push(applied.map((pass) => (pass.pass === 'emergency' ? 'emergency cut' : `${pass.strategy} ${pass.pass}`)).join(', '));
  } else if (state.rewritten) {
    parts.push(`${presetName}: earlier compaction kept`);
  } else {
    parts.push(`${presetName}: under threshold`);
  }
  const declined = report.passes.filter((pass: PassReport) => pass.reason === 'does-not-pay');
  if (declined.length > 0) {
    parts.push(`declined ${declined.map((pass) => `${pass.strategy} ${pass.pass}`).join(', ')}: would not pay for its cache writes`);
  }
  if (note !== undefined) parts.push(note);
  return parts.join('; ');
}

/**
 * Compresses conversation requests with a preset, keeping per conversation the history it last sent so that a
 * conversation's consecutive requests share their prefix (the provider's prompt cache keeps working) and change
 * only when a compaction runs. Never throws: any failure gives `outcome: 'failed-open'` and the request is sent as it
 * came.
 */
export class RequestCompressor {
  private readonly store: ConversationStore<ConversationState>;

  constructor(private readonly options: RequestCompressorOptions) {
    this.store = new ConversationStore(options.maxConversations);
  }

  /** Conversations held, and forgotten because memory was full. */
  get conversations(): { readonly size: number; readonly evicted: number } {
    return { size: this.store.size, evicted: this.store.evicted };
  }

  /**
   * Compresses one request of conversation `key`. Requests of one conversation are handled one at a time.
   *
   * @param dialect - The API the request speaks.
   * @param request - The parsed request body.
   * @param key - The conversation key (see `conversationKey`).
   */
  async compress(dialect: ProviderDialect, request: JsonRecord, key: string, options: CompressOptions = {}): Promise<CompressedRequest> {
    const track = options.track ?? true;
    if (!track) return this.compressOnce(dialect, request, { compression: undefined, sentMessages: undefined, decoders: {}, bodyWriter: undefined, sentWritten: false, bodyPassedSchema: false, queue: Promise.resolve() }, false);
    let state = this.store.get(key);
    if (state === undefined) {
      state = { compression: undefined, sentMessages: undefined, decoders: {}, bodyWriter: undefined, sentWritten: false, bodyPassedSchema: false, queue: Promise.resolve() };
      this.store.set(key, state);
    }
    const current = state;
    const run = current.queue.then(() => this.compressOnce(dialect, request, current, true));
    current.queue = run.catch(() => undefined);
    return run;
  }

  private async compressOnce(dialect: ProviderDialect, request: JsonRecord, state: ConversationState, track: boolean): Promise<CompressedRequest> {
    const window = this.options.window ?? lookUpModelWindow(request.model);
    const failOpen = (reason: string, tokens = 0): CompressedRequest => {
      state.compression = undefined;
      return {
        body: undefined,
        outcome: 'failed-open',
        reason,
        ran: 'nothing (forwarded unchanged)',
        tokensBefore: tokens,
        tokensAfter: tokens,
        window,
        prefix: track ? this.notePrefix(state, messagesOf(request), false, undefined) : 'first',
        recordInputTokens: () => undefined,
      };
    };
    const support = dialects[dialect];
    let conversation: Conversation;
    // The client's messages as the proxy keeps them: the decoder's copies, whose strings the history shares, rather
    // than this request's own (parsed anew each time, they would be a second copy of the conversation's text).
    let received = messagesOf(request);
    try {
      if (track && !this.options.stateless && support.createDecoder !== undefined) {
        const decoder = (state.decoders[dialect] ??= support.createDecoder());
        conversation = decoder.decode(request).conversation;
        received = decoder.messages;
      } else {
        conversation = support.decode(request).conversation;
      }
    } catch (error) {
      return failOpen(`not a request the ${dialect} codec reads: ${firstLine(error)}`);
    }
    try {
      return await this.compressDecoded(dialect, request, received, conversation, state, window, track);
    } catch (error) {
      return failOpen(`compression failed: ${firstLine(error)}`);
    }
  }

  private createCompression(
    conversation: Conversation,
    entries: readonly HistoryEntry[],
    window: number,
    overhead: Overhead,
    model: unknown,
  ): CompressionState {
    const history = new HistoryService({
      tokenCounter: this.options.tokenCounter,
      history: entries,
      system: conversation.system ?? [],
      tools: conversation.tools ?? [],
    });
    const costModel = this.options.costModelFor?.(model);
    const orchestrator = createCompressionOrchestrator({
      history,
      strategies: [this.options.preset.createStrategy()],
      contextLimit: window,
      ...(costModel === undefined ? {} : { costModel }),
    });
    return {
      history,
      orchestrator,
      window,
      entries,
      originalTokens: this.options.tokenCounter.countEntries(entries),
      overhead,
      rewritten: false,
    };
  }

  private async compressDecoded(
    dialect: ProviderDialect,
    request: JsonRecord,
    received: readonly unknown[],
    conversation: Conversation,
    state: ConversationState,
    window: number,
    track: boolean,
  ): Promise<CompressedRequest> {
    const counter = this.options.tokenCounter;
    const entries = conversation.history.map(withoutEntryBreakpoints);
    const overhead: Overhead = [conversation.system ?? [], conversation.tools ?? []];
    let compression = track && !this.options.stateless ? state.compression : undefined;
    if (compression !== undefined && (compression.window !== window || !startsWithEntries(entries, compression.entries))) {
      compression.orchestrator.dispose();
      compression = undefined;
    }
    if (compression !== undefined) {
      const added = entries.slice(compression.entries.length);
      try {
        if (!isSameJsonText(compression.overhead, overhead)) {
          compression.history.setSystem(conversation.system ?? []);
          compression.history.setTools(conversation.tools ?? []);
          compression.overhead = overhead;
        }
        if (added.length > 0) compression.history.addAll(added);
        compression.entries = entries;
        compression.originalTokens += counter.countEntries(added);
      } catch {
        // A continuation the history refuses (e.g. a tool result whose call was compacted away): start again.
        compression.orchestrator.dispose();
        compression = undefined;
      }
    }
    compression ??= this.createCompression(conversation, entries, window, overhead, request.model);
    if (track && !this.options.stateless) state.compression = compression;

    let report: TurnReport;
    let note: string | undefined;
    try {
      report = await compression.orchestrator.ensureCompressionBeforeSend();
    } catch (error) {
      if (!ContextWindowExceededError.isInstance(error) || error.report === undefined) throw error;
      report = error.report;
      note = 'still over the window after every strategy: sent as small as it got';
    }
    const applied = report.passes.some((pass) => pass.outcome === 'applied');
    const declined = report.passes.filter((pass) => pass.reason === 'does-not-pay').length;
    if (applied) compression.rewritten = true;
    const tokensBefore = compression.originalTokens + counter.countOverhead(conversation.system, conversation.tools);
    const ran = describeRun(report, compression, this.options.preset.name, note);
    const current = compression;
    const recordInputTokens = (inputTokens: number): void => {
      if (state.compression !== current) return;
      try {
        current.orchestrator.recordUsage({ inputTokens });
      } catch {
        // A figure the calibration refuses only costs precision.
      }
    };

    if (!compression.rewritten) {
      return {
        body: undefined,
        outcome: 'unchanged',
        reason: note,
        ran,
        tokensBefore,
        tokensAfter: tokensBefore,
        window,
        prefix: track ? this.notePrefix(state, received, applied, undefined) : 'first',
        recordInputTokens,
        declined,
      };
    }
    let encoded = dialects[dialect].encode({ ...conversation, history: compression.history.getCurated() });
    if (dialect === 'anthropic') {
      const restored = restoreCacheBreakpoints(
        request as { system?: unknown; tools?: unknown; messages: JsonRecord[] },
        encoded.messages as JsonRecord[],
      );
      encoded = { ...encoded, messages: restored.messages };
    }
    const support = dialects[dialect];
    // A conversation's writer keeps the bytes it wrote, so the next body serializes only what changed.
    const writer = track && !this.options.stateless ? (state.bodyWriter ??= createRequestBodyWriter()) : createRequestBodyWriter();
    // The encoders repair every lone surrogate half (with a warning), so the compressed request holds none: its check,
    // a walk over every string of the request, is left out (the client's own request below is checked in full). A
    // message the same as one of the last body, which passed the schema, is not parsed against it again: the schema
    // reads each message on its own (parsing every message of every request was a third of the proxy's own work).
    const problems = support.validate(encoded, {
      loneSurrogates: false,
      ...(state.bodyPassedSchema ? { isSchemaValidMessage: (message: unknown, index: number) => writer.isWritten(message, index) } : {}),
    });
    // Only problems the client's own request does not have count; the client's request is checked only when there
    // are any (a whole second validation per request otherwise).
    const known = problems.length === 0 ? new Set<string>() : new Set(support.validate(request).map((problem) => problem.rule));
    const introduced = problems.filter((problem) => !known.has(problem.rule));
    if (introduced.length > 0) {
      const first = introduced[0];
      throw new Error(`the compressed request would break the ${dialect} API's rules (${first?.rule} at ${first?.path}: ${first?.message})`);
    }
    const body = writer.write(encoded);
    state.bodyPassedSchema = writer === state.bodyWriter && !problems.some((problem) => problem.rule === 'schema');
    // Right after the write, so the conversation's last body and the messages last sent are always the same request.
    const prefix = track ? this.notePrefix(state, messagesOf(encoded), applied, writer === state.bodyWriter ? writer : undefined) : 'first';
    return {
      body,
      outcome: 'compressed',
      reason: note,
      ran,
      tokensBefore,
      tokensAfter: compression.history.getTotalTokens(),
      window,
      prefix,
      recordInputTokens,
      declined,
    };
  }

  /**
   * Compares the messages about to be sent with the conversation's previous request, and remembers them. `writer`
   * wrote `sent` (a compressed body): a message it sent again as the same bytes as last time is the same as the one
   * sent then, without comparing, when that body was the last request sent.
   */
  private notePrefix(
    state: ConversationState,
    sent: readonly unknown[],
    compacted: boolean,
    writer: RequestBodyWriter | undefined,
  ): CompressedRequest['prefix'] {
    const messages = sent.map((message) => withoutMessageBreakpoints(message as JsonRecord));
    const previous = state.sentMessages;
    const keptFromWriter = state.sentWritten ? writer : undefined;
    state.sentMessages = messages;
    state.sentWritten = writer !== undefined;
    if (previous === undefined) return 'first';
    if (startsWithMessages(messages, previous, (index) => keptFromWriter?.wasKept(index) === true)) return 'kept';
    return compacted ? 'broken-by-compaction' : 'broken';
  }
}
