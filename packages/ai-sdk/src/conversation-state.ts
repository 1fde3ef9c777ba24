import {
  createCompressionOrchestrator,
  HistoryService,
  type CompressionOrchestrator,
  type CompressionStrategy,
  type Conversation,
  type TurnReport,
} from '@ctx/core';
import { aiSdkCodec, type AiSdkPrompt } from '@ctx/format-ai-sdk';
import type { ContextOptions } from './context-options.js';
import { fingerprint } from './fingerprint.js';

/** The result of one {@link ConversationState.compress}. */
export interface CompressedPrompt {
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
 * the fingerprints of the original entries it has seen, so the next prompt's new entries are appended rather than
 * the whole prompt compressed again.
 */
export class ConversationState {
  private history: HistoryService | undefined;
  private orchestrator: CompressionOrchestrator | undefined;
  private seen: string[] = [];
  private overheadKey = '';
  private queue: Promise<unknown> = Promise.resolve();
  /** Our estimate of the last request compressed here: what the next usage report is compared with. */
  lastEstimatedTokens: number | undefined;

  constructor(private readonly options: ContextOptions) {}

  /**
   * Brings the state up to date with a prompt (the whole conversation as the AI SDK sends it every time), runs the
   * orchestrator and returns the prompt to send. Calls are serialized per conversation.
   */
  compress(prompt: AiSdkPrompt, signal?: AbortSignal): Promise<CompressedPrompt> {
    const run = this.queue.then(() => this.compressNow(prompt, signal));
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
  }

  private async compressNow(prompt: AiSdkPrompt, signal: AbortSignal | undefined): Promise<CompressedPrompt> {
    const { conversation } = aiSdkCodec.decode(prompt);
    const keys = conversation.history.map(fingerprint);
    const rebuilt = !this.append(conversation, keys);
    if (rebuilt) this.rebuild(conversation);
    this.seen = keys;
    const orchestrator = this.orchestrator as CompressionOrchestrator;
    const history = this.history as HistoryService;
    const report = await orchestrator.ensureCompressionBeforeSend(signal === undefined ? {} : { signal });
    const { value } = aiSdkCodec.encode({ ...history.toConversation(), system: conversation.system ?? [], tools: conversation.tools ?? [] });
    this.lastEstimatedTokens = report.request.estimatedTokens;
    return { prompt: value, report, rebuilt, estimatedTokens: report.request.estimatedTokens };
  }

  /** Appends what is new since the last prompt; false when the past changed (or nothing is kept) and a rebuild is due. */
  private append(conversation: Conversation, keys: readonly string[]): boolean {
    const history = this.history;
    if (history === undefined || keys.length < this.seen.length) return false;
    for (let index = 0; index < this.seen.length; index += 1) if (keys[index] !== this.seen[index]) return false;
    const overheadKey = fingerprint({ system: conversation.system ?? [], tools: conversation.tools ?? [] });
    if (overheadKey !== this.overheadKey) {
      history.setSystem(conversation.system ?? []);
      history.setTools(conversation.tools ?? []);
      this.overheadKey = overheadKey;
    }
    try {
      history.addAll(conversation.history.slice(this.seen.length));
      return true;
    } catch {
      // The new entries do not pair with what compression kept (e.g. a result for a call it removed): start over
      // from the full prompt rather than send an invalid one.
      return false;
    }
  }

  private rebuild(conversation: Conversation): void {
    this.orchestrator?.dispose();
    const history = new HistoryService({
      tokenizer: this.options.tokenizer,
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
    this.overheadKey = fingerprint({ system: conversation.system ?? [], tools: conversation.tools ?? [] });
  }
}
