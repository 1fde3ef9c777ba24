import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { HistoryLockedError } from '../errors/history-locked-error.js';
import { StaleDensityResultError } from '../errors/stale-density-result-error.js';
import { TokenCountError } from '../errors/token-count-error.js';
import { ToolPairingError } from '../errors/tool-pairing-error.js';
import { applyDensityResultToHistory } from '../strategy/apply-density-result.js';
import type { DensityResult } from '../strategy/density-result.js';
import { createTokenCounter, type TokenCounter, type TokenCountingOptions } from '../tokens/token-counter.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { TextBlock } from './content-block.js';
import type { Conversation, ToolDefinition } from './conversation.js';
import type { HistoryEntry } from './history-entry.js';
import { parseHistory, parseHistoryEntry, parseSystemInstructions, parseToolDefinitions } from './parse-history.js';
import { createSnapshotLineage, vouchedSharedPrefix } from './snapshot-lineage.js';
import { ToolCallLedger } from './tool-call-ledger.js';

/** Options of {@link HistoryService.add} and {@link HistoryService.addAll}. */
export interface AddEntriesOptions {
  /**
   * Keep a `tool_response` that answers no tool call of the history: its call id is not in the history (nor
   * earlier in the same add), or its call already has a response. Meant for importers that replay a transcript
   * exactly as recorded (e.g. a session whose calls were compacted away); an agent loop leaves it off, so a
   * response added without its call fails at once instead of at the provider. Duplicate tool call ids are refused
   * either way.
   * @default false
   */
  readonly allowOrphanResponses?: boolean;
}

/** Options of {@link HistoryService.applyDensityResult}. */
export interface ApplyDensityResultOptions {
  /** Named in error messages. */
  readonly strategyName?: string;
  /**
   * The history the result was computed on: the array `getRawHistory()` returned and `optimize()` received. Each
   * of its entries must still be at its index; entries appended since are fine.
   */
  readonly basis?: readonly HistoryEntry[];
}

/** What changed in a {@link HistoryService}; delivered to {@link HistoryService.subscribe} listeners. */
export type HistoryEvent =
  | {
      /** Entries were appended by `add` / `addAll` (or flushed by `endCompression`). This is turn-loop content. */
      readonly type: 'entries-added';
      readonly entries: readonly HistoryEntry[];
      readonly firstIndex: number;
    }
  | { readonly type: 'cleared' }
  | { readonly type: 'density-applied'; readonly result: DensityResult }
  | { readonly type: 'history-replaced' }
  | { readonly type: 'context-changed' };

/**
 * Options of {@link HistoryService}: a tokenizer (the service makes its own counter and cache), or a shared
 * `tokenCounter` (several services counting the same entries share one cache).
 */
export type HistoryServiceOptions = (
  | {
      /** Counts tokens of every entry, the system instructions and the tool definitions. */
      readonly tokenizer: Tokenizer;
      /** How entries are turned into token estimates. */
      readonly tokenCounting?: TokenCountingOptions;
    }
  | {
      /** A counter (and its per-entry cache) to share with other services. */
      readonly tokenCounter: TokenCounter;
    }
) & {
  /** System instructions sent with every request (counted, never compressed). */
  readonly system?: readonly TextBlock[];
  /** Tool definitions sent with every request (counted, never compressed). */
  readonly tools?: readonly ToolDefinition[];
  /**
   * Initial entries, taken as recorded: validated, but tool call / response pairing is not checked, since a
   * recorded transcript may hold orphans ({@link findToolPairingProblems} lists them). Later adds are checked
   * against them.
   */
  readonly history?: readonly HistoryEntry[];
};

/**
 * Refuses a density result that is not an object before anything reads its fields, so `null` from a broken
 * strategy gives a typed error naming what was expected instead of a `TypeError` (issue 14).
 */
function assertDensityResultObject(result: unknown, strategyName: string | undefined): void {
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) return;
  const found = Array.isArray(result) ? `an array of ${result.length}` : result === null ? 'null' : typeof result;
  const who = strategyName === undefined ? 'DensityResult' : `DensityResult from strategy "${strategyName}"`;
  throw new CompressionStrategyError({
    strategyName,
    message: `Invalid ${who}: expected an object { removals, replacements, metadata }, found ${found}. Return { removals: [], replacements: new Map(), metadata: {} } when there is nothing to change; the history was not changed.`,
  });
}

function isEmptyAiEntry(entry: HistoryEntry): boolean {
  return entry.speaker === 'ai' && entry.blocks.every((block) => block.type === 'text' && block.text.trim() === '');
}

/**
 * Owns one conversation's history: the entries, the system instructions and tool definitions beside them, and
 * their token count (spec 000 `HistoryService`).
 *
 * - Every entry is validated on the way in and stored as a frozen private copy, so nothing outside can change it.
 * - Every change is atomic: invalid input throws before anything changes.
 * - Token counts are kept per entry (an unchanged entry is never recounted) and updated on a serialized tokenizer
 *   lock; call {@link HistoryService.waitForTokenUpdates} before reading {@link HistoryService.getTotalTokens} when
 *   an exact figure matters. Counting errors surface there (spec 000 ERR-020/021).
 * - A failed count is never read as a number (issue 14): until a count succeeds the history is uncounted,
 *   `waitForTokenUpdates` recounts and throws {@link TokenCountError} while the tokenizer still fails, and the
 *   token getters throw that error instead of returning a total that leaves entries out. No entry is dropped.
 * - While a compression runs (`startCompression` … `endCompression`), added entries are queued and appended after
 *   the rebuilt history, so nothing that arrives during a slow (LLM) compression is lost.
 *
 * @example
 * ```ts
 * const history = new HistoryService({ tokenizer: await createGptTokenizer() });
 * history.add({ speaker: 'human', blocks: [{ type: 'text', text: 'Fix the failing test' }] });
 * await history.waitForTokenUpdates();
 * history.getTotalTokens();
 * ```
 */
export class HistoryService {
  /** The counter used for every token figure of this history; strategies get the same one (shared cache). */
  readonly tokenCounter: TokenCounter;

  private history: HistoryEntry[] = [];
  private snapshot: readonly HistoryEntry[] | undefined;
  /** Each snapshot handed out, and how much of it the one before held (see `vouchedSharedPrefix`). */
  private readonly lineage = createSnapshotLineage();
  /** The last snapshot made; undefined before the first. */
  private lastSnapshot: readonly HistoryEntry[] | undefined;
  /** Leading entries of `history` that are the last snapshot's own (the same objects, in place). */
  private unchangedSinceSnapshot = 0;
  /**
   * True when the history was rewritten (not just appended to) since `getRawHistory()` or `getAll()` last handed
   * its entries out: a density result computed on what they returned would point at the wrong entries.
   */
  private rewrittenSinceSnapshot = false;
  private system: readonly TextBlock[];
  private tools: readonly ToolDefinition[];
  private historyTokens = 0;
  private overheadTokens = 0;
  private tokenizerLock: Promise<void> = Promise.resolve();
  /**
   * Why the last finished count failed; undefined once a count succeeds. While set, the history is uncounted: the
   * stored totals are stale (0 before the first count) and must not be read as the history's size.
   */
  private countFailure: TokenCountError | undefined;
  private recountScheduled = false;
  /**
   * What the last successful count covered: the entries array it summed (rewrites assign a new array, appends push
   * onto the same one) and how many of its entries, and the system / tools it counted. A count after appends only
   * adds the new entries (also after failed counts, which never update this); any rewrite recounts everything.
   */
  private counted: {
    readonly history: readonly HistoryEntry[];
    readonly entries: number;
    readonly historyTokens: number;
    readonly system: readonly TextBlock[];
    readonly tools: readonly ToolDefinition[];
  } = { history: [], entries: 0, historyTokens: 0, system: [], tools: [] };
  /** The curated entries of `curatedOf[0 … curatedLength)`, extended on appends (see `getCurated`). */
  private curated: HistoryEntry[] = [];
  private curatedOf: readonly HistoryEntry[] | undefined;
  private curatedLength = 0;
  private compressing = false;
  private pendingAdds: HistoryEntry[] = [];
  /** Tool call ids of the history and the queued adds; rebuilt lazily after the history is rewritten. */
  private toolCalls: ToolCallLedger | undefined;
  private readonly listeners = new Set<(event: HistoryEvent) => void>();

  constructor(options: HistoryServiceOptions) {
    this.tokenCounter =
      'tokenCounter' in options ? options.tokenCounter : createTokenCounter(options.tokenizer, options.tokenCounting);
    this.system = parseSystemInstructions(options.system ?? []);
    this.tools = parseToolDefinitions(options.tools ?? []);
    if (options.history !== undefined) this.history = [...parseHistory(options.history)];
    this.scheduleRecount();
  }

  /** Number of entries (not counting entries queued during a compression). */
  get length(): number {
    return this.history.length;
  }

  /**
   * Appends one entry (spec 000 `add`). The entry is validated and copied; the caller's object is not touched.
   * During a compression the entry is queued and appended when the compression ends.
   *
   * Tool call / response pairing is checked against the history (and the entries queued during a compression):
   * a `tool_call` id must not be used by another tool call, and a `tool_response` must answer a tool call already
   * added that has no response yet (issue 14). Where the response sits relative to its call's turn is not checked
   * here; {@link findToolPairingProblems} reports that.
   *
   * @param options - `allowOrphanResponses` keeps a response recorded without its call (importers).
   * @throws {@link InvalidHistoryError} naming the path that failed; the history is unchanged.
   * @throws {@link ToolPairingError} naming the call id, the entry index and the fix when the entry repeats a tool
   *   call id, or holds a response whose call is not in the history or already answered (unless
   *   `allowOrphanResponses`); the history is unchanged and no listener is called.
   */
  add(entry: HistoryEntry, options?: AddEntriesOptions): void {
    this.append([parseHistoryEntry(entry)], options);
  }

  /**
   * Appends several entries at once. All are validated before any is added: the whole batch is added, or nothing.
   * Pairing is checked as for {@link HistoryService.add}, in order: a response may answer a call earlier in the
   * same batch, and a call id may not appear twice in it.
   *
   * @param options - `allowOrphanResponses` keeps responses recorded without their call (importers).
   * @throws {@link InvalidHistoryError} naming the path that failed (e.g. `history[3].blocks[0]`); nothing is added.
   * @throws {@link ToolPairingError} listing every repeated tool call id and every response whose call is not in
   *   the history (or earlier in the batch) or already answered (unless `allowOrphanResponses`); nothing is added
   *   and no listener is called.
   */
  addAll(entries: readonly HistoryEntry[], options?: AddEntriesOptions): void {
    this.append([...parseHistory(entries)], options);
  }

  /**
   * Removes every entry (spec 000 `clear`). System instructions and tool definitions stay.
   *
   * @throws {@link HistoryLockedError} during a compression.
   */
  clear(): void {
    if (this.compressing) throw new HistoryLockedError({ operation: 'clear the history' });
    this.history = [];
    this.unchangedSinceSnapshot = 0;
    this.toolCalls = undefined;
    this.snapshot = undefined;
    this.rewrittenSinceSnapshot = true;
    this.emit({ type: 'cleared' });
    this.scheduleRecount();
  }

  /** A mutable copy of the entries (spec 000 `getAll`); the entries themselves are frozen. */
  getAll(): HistoryEntry[] {
    this.rewrittenSinceSnapshot = false;
    return [...this.history];
  }

  /**
   * The entries to send to a model or hand to `compress()`: every entry except `ai` entries with no content (no
   * blocks, or only blank text) (spec 000 `getCurated`).
   */
  getCurated(): HistoryEntry[] {
    // Appends push onto the same array, so only the new entries need checking; a rewrite starts over.
    if (this.curatedOf !== this.history) {
      this.curatedOf = this.history;
      this.curated = [];
      this.curatedLength = 0;
    }
    const entries = this.history;
    for (let index = this.curatedLength; index < entries.length; index++) {
      const entry = entries[index] as HistoryEntry;
      if (!isEmptyAiEntry(entry)) this.curated.push(entry);
    }
    this.curatedLength = entries.length;
    return this.curated.slice();
  }

  /**
   * A read-only view of the raw entries, indices as `optimize()` must use them (spec 000 `getRawHistory`).
   * The array is a frozen snapshot: later changes to the history do not show up in it.
   */
  getRawHistory(): readonly HistoryEntry[] {
    if (this.snapshot === undefined) {
      const snapshot = Object.freeze([...this.history]);
      this.lineage.record(snapshot, this.lastSnapshot === undefined ? 0 : Math.min(this.unchangedSinceSnapshot, this.lastSnapshot.length));
      this.snapshot = snapshot;
      this.lastSnapshot = snapshot;
      this.unchangedSinceSnapshot = snapshot.length;
    }
    this.rewrittenSinceSnapshot = false;
    return this.snapshot;
  }

  /** System instructions sent with every request. */
  getSystem(): readonly TextBlock[] {
    return this.system;
  }

  /** Tool definitions sent with every request. */
  getTools(): readonly ToolDefinition[] {
    return this.tools;
  }

  /**
   * Replaces the system instructions (they count toward the budget; strategies never change them).
   *
   * @throws {@link InvalidHistoryError} when a block is not a text block.
   */
  setSystem(system: readonly TextBlock[]): void {
    this.system = parseSystemInstructions(system);
    this.emit({ type: 'context-changed' });
    this.scheduleRecount();
  }

  /**
   * Replaces the tool definitions (they count toward the budget; strategies never change them).
   *
   * @throws {@link InvalidHistoryError} naming the invalid definition.
   */
  setTools(tools: readonly ToolDefinition[]): void {
    this.tools = parseToolDefinitions(tools);
    this.emit({ type: 'context-changed' });
    this.scheduleRecount();
  }

  /** The whole conversation as a `ctx.conversation.v1` value: system, tools and entries. */
  toConversation(): Conversation {
    return { format: 'ctx.conversation.v1', system: this.system, tools: this.tools, history: this.getRawHistory() };
  }

  /**
   * Tokens of the history plus system instructions and tool definitions, as of the last finished count. Changes
   * not yet counted are not included: await {@link HistoryService.waitForTokenUpdates} first when deciding on it.
   *
   * @throws {@link TokenCountError} when the last finished count failed: the history is uncounted, and a total
   *   that leaves entries out (0 before the first count) would understate it. `waitForTokenUpdates` recounts.
   */
  getTotalTokens(): number {
    this.assertCounted();
    return this.historyTokens + this.overheadTokens;
  }

  /**
   * Tokens of the history entries alone, as of the last finished count.
   *
   * @throws {@link TokenCountError} when the last finished count failed (see {@link HistoryService.getTotalTokens}).
   */
  getHistoryTokens(): number {
    this.assertCounted();
    return this.historyTokens;
  }

  /**
   * Tokens of the system instructions and tool definitions, as of the last finished count.
   *
   * @throws {@link TokenCountError} when the last finished count failed (see {@link HistoryService.getTotalTokens}).
   */
  getOverheadTokens(): number {
    this.assertCounted();
    return this.overheadTokens;
  }

  /**
   * Validates a density result and applies it atomically (spec 000 §2d): replacements first, then removals, then
   * a token recount. A rejected result leaves the history exactly as it was.
   *
   * A result's indices point into the history it was computed on. Pass that snapshot (what `getRawHistory()`
   * returned) as `basis`, and a result computed on an older history is refused instead of removing the wrong
   * entries; entries appended since do not make it stale (indices of a prefix do not move). Without `basis`, a
   * result is refused when the history was rewritten (density, compression, clear) after the last
   * `getRawHistory()` or `getAll()` call: whatever it was computed on is gone.
   *
   * @param options - The strategy named in error messages (or that name alone), and the `basis` snapshot.
   * @throws {@link CompressionStrategyError} when `result` is not an object (`null`, `undefined`, a primitive, an
   *   array), checked before anything else (issue 14); for a malformed result, conflicting, duplicate or
   *   out-of-range indices (ERR-010..013), an invalid replacement, or a result that would break tool call / response
   *   pairing.
   * @throws {@link StaleDensityResultError} when the history changed under the result.
   * @throws {@link HistoryLockedError} during a compression (ERR-030).
   */
  async applyDensityResult(result: DensityResult, options?: string | ApplyDensityResultOptions): Promise<void> {
    const { strategyName, basis } = typeof options === 'string' ? { strategyName: options, basis: undefined } : (options ?? {});
    assertDensityResultObject(result, strategyName);
    if (this.compressing) throw new HistoryLockedError({ operation: 'apply a density result' });
    this.assertCurrent(basis, strategyName);
    this.rewrite(applyDensityResultToHistory(this.history, result, strategyName));
    this.toolCalls = undefined;
    this.snapshot = undefined;
    this.rewrittenSinceSnapshot = true;
    this.emit({ type: 'density-applied', result });
    await this.recalculateTotalTokens();
  }

  /**
   * Replaces all entries at once: the compression rebuild. Validated first, so an invalid history changes
   * nothing. Does not count as new turn content (no `entries-added` event). Tool pairing is not checked here, as
   * for the constructor's `history`: a rebuild keeps the pairing problems its input had, and the orchestrator
   * already refuses one that adds new problems. Later adds are checked against the new entries.
   *
   * @throws {@link InvalidHistoryError} naming the path that failed.
   */
  async replaceHistory(entries: readonly HistoryEntry[]): Promise<void> {
    this.rewrite([...parseHistory(entries)]);
    this.toolCalls = undefined;
    this.snapshot = undefined;
    this.rewrittenSinceSnapshot = true;
    this.emit({ type: 'history-replaced' });
    await this.recalculateTotalTokens();
  }

  /**
   * Recounts the tokens of every entry under the tokenizer lock (spec 000 `recalculateTotalTokens`); cached
   * entries cost a lookup, only new entries are tokenized.
   *
   * @throws {@link TokenCountError} when the tokenizer fails (ERR-020); the history is then uncounted (see
   *   {@link HistoryService.waitForTokenUpdates}).
   */
  async recalculateTotalTokens(): Promise<void> {
    this.scheduleRecount();
    await this.waitForTokenUpdates();
  }

  /**
   * Resolves once every queued token update has finished and the history is fully counted, so the token getters
   * return its exact size.
   *
   * When a count failed (now or in an earlier update), the history is uncounted: this recounts it once (entries
   * already counted cost a cache lookup) and throws when that fails too. It keeps throwing on every call until the
   * tokenizer recovers; the next call after that recounts and resolves. Nothing is dropped meanwhile.
   *
   * @throws {@link TokenCountError} when the recount fails (ERR-021): `entryIndex` names the entry that could not be
   *   counted (undefined for system instructions / tool definitions), `cause` is the tokenizer's error.
   */
  async waitForTokenUpdates(): Promise<void> {
    await this.tokenizerLock;
    if (this.countFailure === undefined) return;
    this.scheduleRecount();
    await this.tokenizerLock;
    if (this.countFailure !== undefined) throw this.countFailure;
  }

  /** Marks a compression as running: adds are queued, density results and `clear` are refused. */
  startCompression(): void {
    if (this.compressing) throw new HistoryLockedError({ operation: 'start a second compression' });
    this.compressing = true;
  }

  /** Ends a compression and appends the entries queued while it ran (checked when they were added). */
  endCompression(): void {
    this.compressing = false;
    const queued = this.pendingAdds;
    this.pendingAdds = [];
    if (queued.length > 0) this.appendChecked(queued);
  }

  /** True between `startCompression()` and `endCompression()`. */
  isCompressing(): boolean {
    return this.compressing;
  }

  /**
   * Calls `listener` after every change. Returns a function that unsubscribes.
   * The orchestrator uses `entries-added` events to know when density optimization is due (spec 000 §2a).
   */
  subscribe(listener: (event: HistoryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Puts a rewritten history in place, keeping count of how much of the last snapshot it still starts with. */
  private rewrite(entries: HistoryEntry[]): void {
    const before = this.history;
    const end = Math.min(this.unchangedSinceSnapshot, entries.length);
    let unchanged = 0;
    while (unchanged < end && entries[unchanged] === before[unchanged]) unchanged++;
    this.history = entries;
    this.unchangedSinceSnapshot = unchanged;
  }

  /** Throws when `basis` (or, without one, the last raw snapshot handed out) is not a prefix of the history. */
  private assertCurrent(basis: readonly HistoryEntry[] | undefined, strategyName: string | undefined): void {
    if (basis === undefined) {
      if (this.rewrittenSinceSnapshot) throw new StaleDensityResultError({ strategyName, reason: 'rewritten' });
      return;
    }
    // A snapshot of this history: what changed since is known without reading it (frozen arrays are slow to read).
    const vouched = this.lastSnapshot === undefined ? undefined : vouchedSharedPrefix(basis, this.lastSnapshot);
    if (vouched !== undefined && Math.min(vouched, this.unchangedSinceSnapshot) >= basis.length) return;
    const entries = this.history;
    let index = 0;
    if (basis.length <= entries.length) while (index < basis.length && basis[index] === entries[index]) index++;
    if (index < basis.length) {
      throw new StaleDensityResultError({
        strategyName,
        reason: 'basis-changed',
        firstChangedIndex: index,
        basisLength: basis.length,
        historyLength: entries.length,
      });
    }
  }

  /**
   * Checks pairing first (so a rejected add changes nothing and notifies no one), then appends or queues. Queued
   * entries were checked when added; `endCompression` appends them without a second check, since the rebuilt
   * history may legitimately have summarized their calls away.
   */
  private append(entries: HistoryEntry[], options?: AddEntriesOptions): void {
    if (entries.length === 0) return;
    this.toolCalls ??= new ToolCallLedger([...this.history, ...this.pendingAdds]);
    const firstIndex = this.history.length + this.pendingAdds.length;
    const check = this.toolCalls.check(entries, firstIndex, {
      allowOrphanResponses: options?.allowOrphanResponses === true,
    });
    if (check.problems.length > 0) throw new ToolPairingError({ problems: check.problems, firstIndex });
    this.toolCalls.commit(check);
    if (this.compressing) this.pendingAdds.push(...entries);
    else this.appendChecked(entries);
  }

  /** Appends entries whose pairing was already checked, and tells the listeners. */
  private appendChecked(entries: HistoryEntry[]): void {
    const firstIndex = this.history.length;
    this.history.push(...entries);
    this.snapshot = undefined;
    this.emit({ type: 'entries-added', entries, firstIndex });
    this.scheduleRecount();
  }

  private emit(event: HistoryEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Throws the failure of the last finished count: a stale total must not pass for the history's size. */
  private assertCounted(): void {
    if (this.countFailure !== undefined) throw this.countFailure;
  }

  /**
   * Queues one recount; several changes before it runs share it. The lock never rejects: a failed count is kept
   * in `countFailure` (the history stays uncounted), and later updates still run.
   */
  private scheduleRecount(): void {
    if (this.recountScheduled) return;
    this.recountScheduled = true;
    this.tokenizerLock = this.tokenizerLock.then(() => {
      this.recountScheduled = false;
      this.recount();
    });
  }

  /**
   * Counts what changed since the last successful count: after appends only the new entries, after a rewrite
   * everything (cached entries cost a lookup); the overhead only when the system instructions or tool
   * definitions changed. On failure keeps the old totals and records why, so the getters refuse to return them.
   */
  private recount(): void {
    const entries = this.history;
    const last = this.counted;
    const appendedOnly = last.history === entries && last.entries <= entries.length;
    let historyTokens = appendedOnly ? last.historyTokens : 0;
    for (let index = appendedOnly ? last.entries : 0; index < entries.length; index++) {
      try {
        historyTokens += this.tokenCounter.countEntry(entries[index] as HistoryEntry);
      } catch (error) {
        this.countFailure = new TokenCountError({ entryIndex: index, cause: error });
        return;
      }
    }
    let overheadTokens = this.overheadTokens;
    if (!appendedOnly || last.system !== this.system || last.tools !== this.tools) {
      try {
        overheadTokens = this.tokenCounter.countOverhead(this.system, this.tools);
      } catch (error) {
        this.countFailure = new TokenCountError({ cause: error });
        return;
      }
    }
    this.counted = { history: entries, entries: entries.length, historyTokens, system: this.system, tools: this.tools };
    // Defensive clamp (spec 000 ERR-022): a total is never negative or NaN.
    this.historyTokens = Number.isFinite(historyTokens) && historyTokens > 0 ? historyTokens : 0;
    this.overheadTokens = Number.isFinite(overheadTokens) && overheadTokens > 0 ? overheadTokens : 0;
    this.countFailure = undefined;
  }

}
