import {
  createCompressionOrchestrator,
  createTokenCounter,
  HistoryService,
  InvalidFormatError,
  type CompressionOrchestrator,
  type CompressionStrategy,
  type HistoryEntry,
  type TokenCounter,
  type TurnReport,
} from '@ctx/core';
import {
  aiSdkCodec,
  createAiSdkPromptEncoder,
  decodeAiSdkPromptContinuing,
  type AiSdkPrompt,
  type ContinuingDecodeResult,
  type UniqueCallIds,
} from '@ctx/format-ai-sdk';
import type { ContextOptions } from './context-options.js';
import type { PromptSource } from './prompt-source.js';
import { isSameValue, snapshotValue, type Snapshot } from './message-snapshot.js';

/** The result of one {@link ConversationState.compress}. */
export interface CompressedPrompt {
  /** The system string and messages to send (tools are not in it: they go to the model as the app gave them). */
  readonly prompt: AiSdkPrompt;
  readonly report: TurnReport;
  readonly rebuilt: boolean;
  /** Our estimate of the request sent, for the usage report after the call. */
  readonly estimatedTokens: number;
}

/** The strategies for a new conversation state: created now when the option is a factory. */
function strategiesOf(options: ContextOptions): readonly CompressionStrategy[] {
  const strategies = typeof options.strategy === 'function' ? options.strategy() : options.strategy;
  return Array.isArray(strategies) ? (strategies as readonly CompressionStrategy[]) : [strategies as CompressionStrategy];
}

/**
 * One conversation's ctx state: the compressed history (a `HistoryService`, with whatever strategies left in it,
 * e.g. lossless references), its orchestrator (density dirty flag, no-progress guard, calibration, watermarks), and
 * a snapshot of the prompt messages it has seen, so the next prompt's new messages are decoded and appended rather
 * than the whole prompt decoded and compressed again.
 */
export class ConversationState {
  private history: HistoryService | undefined;
  private orchestrator: CompressionOrchestrator | undefined;
  /** The messages seen so far (snapshots), and how many history entries they decoded to. */
  private seen: Snapshot[] = [];
  private seenEntries = 0;
  private seenContext = snapshotValue(undefined);
  /**
   * The history's ids for the tool call ids seen so far: a provider that numbers calls per turn reuses them, and the
   * history holds a renamed copy of each reused one, as a decode of the whole prompt names it.
   */
  private callIds: UniqueCallIds | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Encodes the compressed history, keeping each entry's messages for the next call (entries rarely change). */
  private readonly encoder = createAiSdkPromptEncoder();
  /** Our estimate of the last request compressed here: what the next usage report is compared with. */
  lastEstimatedTokens: number | undefined;
  /**
   * Counts the tokens of every history this state builds: a rebuild (an earlier message changed, an app trimming its
   * own history, new messages that do not pair with what compression kept) finds the texts it counted before in the
   * counter's content cache instead of tokenizing the whole conversation again.
   */
  private readonly tokenCounter: TokenCounter;

  constructor(private readonly options: ContextOptions) {
    this.tokenCounter = createTokenCounter(options.tokenizer);
  }

  /**
   * Brings the state up to date with a prompt (the whole conversation as the AI SDK sends it every time), runs the
   * orchestrator and returns the prompt to send. Calls are serialized per conversation.
   */
  compress(source: PromptSource, signal?: AbortSignal): Promise<CompressedPrompt> {
    const run = this.queue.then(() => this.compressNow(source, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Feeds a call's reported input tokens back; returns the calibration factor now in effect. */
  recordUsage(inputTokens: number, estimatedTokens: number): number | undefined {
    if (this.orchestrator === undefined) return undefined;
    return this.orchestrator.recordUsage({ inputTokens, estimatedTokens }).factor;
  }

  /** Stops the orchestrator listening to its history (the state is being dropped). */
  dispose(): void {
    this.orchestrator?.dispose();
    this.orchestrator = undefined;
    this.history = undefined;
    this.seen = [];
    this.seenEntries = 0;
    this.callIds = undefined;
  }

  private async compressNow(source: PromptSource, signal: AbortSignal | undefined): Promise<CompressedPrompt> {
    const rebuilt = !this.append(source);
    if (rebuilt) this.rebuild(source);
    const orchestrator = this.orchestrator as CompressionOrchestrator;
    const history = this.history as HistoryService;
    const report = await orchestrator.ensureCompressionBeforeSend(signal === undefined ? {} : { signal });
    // Tools go to the model as the app gave them (the middleware replaces only the prompt): only the system
    // instructions and the messages are encoded.
    const { value } = this.encoder.encode({ system: history.getSystem(), history: history.getRawHistory() });
    this.lastEstimatedTokens = report.request.estimatedTokens;
    return { prompt: value, report, rebuilt, estimatedTokens: report.request.estimatedTokens };
  }

  /**
   * Appends the messages that are new since the last prompt; false when the past changed (or nothing is kept) and a
   * rebuild is due. Only the new messages are converted, validated and decoded: every message but a system message
   * decodes the same after the call ids of the messages before it as within the whole prompt (a system message after
   * the first entry becomes a human entry, so a prompt that adds one is decoded whole, as is one whose system string
   * or tools changed).
   *
   * @throws `InvalidFormatError` when a new message is invalid, with its path in the whole prompt (the state is
   * unchanged).
   */
  private append(source: PromptSource): boolean {
    const { history, callIds } = this;
    const { messages } = source;
    if (history === undefined || callIds === undefined || !Array.isArray(messages) || messages.length < this.seen.length) return false;
    for (let index = 0; index < this.seen.length; index += 1) {
      if (!isSameValue(messages[index], this.seen[index] as Snapshot)) return false;
    }
    const from = this.seen.length;
    const added = messages.slice(from);
    let entries: readonly HistoryEntry[];
    let nextCallIds = callIds;
    if (!isSameValue(source.context, this.seenContext) || added.some((message) => (message as { readonly role?: unknown } | null)?.role === 'system')) {
      const { conversation, callIds: after } = decodeAiSdkPromptContinuing(source.toPrompt(0));
      entries = conversation.history.slice(this.seenEntries);
      nextCallIds = after;
      const system = conversation.system ?? [];
      const tools = conversation.tools ?? [];
      if (!isSameValue(system, snapshotValue(history.getSystem()))) history.setSystem(system);
      if (!isSameValue(tools, snapshotValue(history.getTools()))) history.setTools(tools);
    } else if (added.length === 0) {
      entries = [];
    } else {
      const decoded = decodeFrom(source, from, callIds);
      entries = decoded.conversation.history;
      nextCallIds = decoded.callIds;
    }
    try {
      history.addAll(entries);
    } catch {
      // The new entries do not pair with what compression kept (e.g. a result for a call it removed): start over
      // from the full prompt rather than send an invalid one.
      return false;
    }
    this.remember(source, added, this.seenEntries + entries.length);
    this.callIds = nextCallIds;
    return true;
  }

  private rebuild(source: PromptSource): void {
    const { conversation, callIds } = decodeAiSdkPromptContinuing(source.toPrompt(0));
    this.orchestrator?.dispose();
    this.orchestrator = undefined;
    this.history = undefined;
    this.seen = [];
    const history = new HistoryService({
      tokenCounter: this.tokenCounter,
      system: conversation.system ?? [],
      tools: conversation.tools ?? [],
      history: conversation.history,
    });
    const strategies = strategiesOf(this.options);
    const fallbacks = strategies.slice(1).map((strategy) => strategy.name);
    const settings = {
      ...(fallbacks.length === 0 ? {} : { 'compression.fallbackStrategies': fallbacks }),
      ...(strategies[0] === undefined ? {} : { 'compression.strategy': strategies[0].name }),
      ...this.options.settings,
    };
    this.orchestrator = createCompressionOrchestrator({
      history,
      strategies,
      contextLimit: this.options.contextWindow,
      settings,
      ...(this.options.targetTokens === undefined ? {} : { targetTokens: this.options.targetTokens }),
      ...(this.options.calibration === undefined ? {} : { calibration: this.options.calibration }),
      ...(this.options.summarizer === undefined ? {} : { summarizer: this.options.summarizer }),
      ...(this.options.costModel === undefined ? {} : { costModel: this.options.costModel }),
      ...(this.options.cachePlanning === undefined ? {} : { cachePlanning: this.options.cachePlanning }),
    });
    this.history = history;
    this.callIds = callIds;
    this.remember(source, source.messages, conversation.history.length);
  }

  /** Records what the state now holds: the messages seen (`added` after those seen before) and the overhead. */
  private remember(source: PromptSource, added: readonly unknown[], entries: number): void {
    for (const message of added) this.seen.push(snapshotValue(message));
    this.seenEntries = entries;
    this.seenContext = snapshotValue(source.context);
  }
}

/**
 * The source's messages from `from` on, decoded after the messages before them (whose call ids `callIds` holds). An
 * invalid message is reported as a decode of the whole prompt reports it: with its index in the whole prompt, not in
 * the new messages.
 */
function decodeFrom(source: PromptSource, from: number, callIds: UniqueCallIds): ContinuingDecodeResult {
  try {
    return decodeAiSdkPromptContinuing(source.toPrompt(from), callIds);
  } catch (error) {
    if (!(error instanceof InvalidFormatError)) throw error;
    aiSdkCodec.decode(source.toPrompt(0));
    throw error;
  }
}
