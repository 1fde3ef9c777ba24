import type { HistoryEntry, TokenCounter, ToolCallBlock } from '@ctx/core';
import { findThinkingToolLoopStart, isValidatedEntry } from '@ctx/strategy-utils';
import { selectZones, type TruncationZones } from './select-zones.js';
import { emptyOperationCounts, type BlockOperationCounts, type ContentCategory } from './shorten-entry.js';
import { shortenEntryCached, type ShorteningCache } from './shortening-cache.js';
import type { TruncationSettings } from './truncation-settings.js';

/** Everything one truncation pass did, for the result's `metadata.counts` (spec 004 FR-TR-002 "token savings measured"). */
export interface TruncationCounts extends BlockOperationCounts {
  /** Entries replaced by a shortened copy. */
  entriesChanged: number;
  /**
   * Entries removed because nothing was left of them (an assistant entry holding only dropped thinking, or dropped
   * thinking and blank text).
   */
  entriesRemoved: number;
  tokensSaved: number;
  messageTextTokensSaved: number;
  toolParameterTokensSaved: number;
  toolResultTokensSaved: number;
  thinkingTokensSaved: number;
}

/** The outcome of {@link planTruncation}. */
export interface TruncationPlan {
  readonly history: readonly HistoryEntry[];
  /** For each entry of `history`, the index of the input entry it is (or shortens). */
  readonly origins: readonly number[];
  readonly zones: TruncationZones;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly counts: TruncationCounts;
  /** With `stopAtTarget`: the old-zone index where processing stopped because the target was met. */
  readonly stoppedAt?: number;
}

/** Options of {@link planTruncation}. */
export interface PlanTruncationOptions {
  readonly settings: TruncationSettings;
  readonly tokenCounter: TokenCounter;
  /** Tokens the history may take; only used with `stopAtTarget`. */
  readonly targetTokens: number;
  /**
   * The strategy's shortenings from earlier calls (made for these `settings`); used only when every entry of the
   * history is validated, so nothing cached can have changed.
   */
  readonly cache?: ShorteningCache;
}

const savingsKeys: Readonly<Record<ContentCategory, keyof TruncationCounts>> = {
  messageText: 'messageTextTokensSaved',
  toolParameters: 'toolParameterTokensSaved',
  toolResults: 'toolResultTokensSaved',
  thinking: 'thinkingTokensSaved',
};

const categories: readonly ContentCategory[] = ['messageText', 'toolParameters', 'toolResults', 'thinking'];

/**
 * Splits an entry's token savings over the content types that changed in it, by characters removed; the parts add
 * up to `saved` exactly. Most entries change in one content type only, which then gets all of it.
 */
function attributeSavings(counts: TruncationCounts, saved: number, removedChars: Readonly<Record<ContentCategory, number>>): void {
  const changed = categories.filter((category) => removedChars[category] > 0);
  const totalChars = changed.reduce((sum, category) => sum + removedChars[category], 0);
  let left = saved;
  changed.forEach((category, index) => {
    const share = index === changed.length - 1 ? left : Math.round((saved * removedChars[category]) / totalChars);
    counts[savingsKeys[category]] += share;
    left -= share;
  });
}

/**
 * Runs the mechanical truncation over a history: the first message and the `preserveRecentCount` newest messages are
 * kept as they are, every old-zone entry goes through {@link shortenEntry} — except the thinking of the assistant turn
 * still in its tool loop, which is always kept (`findThinkingToolLoopStart` from `@ctx/strategy-utils`). A changed entry is kept only when it is
 * smaller in tokens than the original, so the result never grows. Deterministic, never modifies its input, and linear:
 * unchanged entries are passed through as the same objects (their token counts come from the counter's cache) and
 * only changed entries are tokenized, once: they are returned validated and frozen (`parseHistoryEntry`), so the
 * orchestrator keeps these very objects and their cached counts.
 *
 * @param history - The history.
 * @param options - Settings, the token counter and the target.
 * @returns The new history, the zones, tokens before and after, and the per-operation counts.
 */
export function planTruncation(history: readonly HistoryEntry[], options: PlanTruncationOptions): TruncationPlan {
  const { settings, tokenCounter } = options;
  const zones = selectZones(history, settings.preserveRecentCount);
  const counts: TruncationCounts = {
    ...emptyOperationCounts(),
    entriesChanged: 0,
    entriesRemoved: 0,
    tokensSaved: 0,
    messageTextTokensSaved: 0,
    toolParameterTokensSaved: 0,
    toolResultTokensSaved: 0,
    thinkingTokensSaved: 0,
  };
  const tokensBefore = tokenCounter.countEntries(history);
  const callsById = new Map<string, ToolCallBlock>();
  const rememberCalls = (entry: HistoryEntry) => {
    if (entry.speaker !== 'ai') return;
    for (const block of entry.blocks) if (block.type === 'tool_call') callsById.set(block.id, block);
  };
  history.slice(0, zones.oldStart).forEach(rememberCalls);

  // The thinking of every step of the turn still in its tool loop stays, whatever the zones, when that turn opened
  // with thinking (Anthropic checks the opener; the thinking of the current turn goes back complete).
  const loopStart = findThinkingToolLoopStart(history);
  const cache = options.cache !== undefined && history.every(isValidatedEntry) ? options.cache : undefined;
  const output: HistoryEntry[] = history.slice(0, zones.oldStart);
  const origins: number[] = output.map((_, index) => index);
  let tokens = tokensBefore;
  let stoppedAt: number | undefined;
  for (let index = zones.oldStart; index < zones.oldEnd; index++) {
    const entry = history[index] as HistoryEntry;
    if (settings.stopAtTarget && tokens <= options.targetTokens) {
      stoppedAt = index;
      break;
    }
    rememberCalls(entry);
    const keepThinking = loopStart !== undefined && index >= loopStart;
    const { shortening, replacement } = shortenEntryCached(entry, { settings, callsById, keepThinking }, cache);
    counts.errorResultsKept += shortening.operations.errorResultsKept;
    if (shortening.entry === entry) {
      output.push(entry);
      origins.push(index);
      continue;
    }
    // The orchestrator validates a strategy's output and copies every entry it has not validated before, and the
    // token counter caches by entry object: a raw replacement would be tokenized here and again after that copy.
    // The replacement is validated (shortenEntryCached), so the counted object is the one the history keeps, and
    // with a cache the next call gets this very object back, its count already cached.
    const before = tokenCounter.countEntry(entry);
    const after = replacement === undefined ? 0 : tokenCounter.countEntry(replacement);
    if (after >= before) {
      output.push(entry);
      origins.push(index);
      continue;
    }
    for (const key of Object.keys(shortening.operations) as (keyof BlockOperationCounts)[]) {
      if (key !== 'errorResultsKept') counts[key] += shortening.operations[key];
    }
    if (replacement === undefined) counts.entriesRemoved++;
    else {
      counts.entriesChanged++;
      output.push(replacement);
      origins.push(index);
    }
    attributeSavings(counts, before - after, shortening.removedChars);
    tokens -= before - after;
  }
  const resumeAt = stoppedAt ?? zones.oldEnd;
  for (let index = resumeAt; index < history.length; index++) {
    output.push(history[index] as HistoryEntry);
    origins.push(index);
  }
  counts.tokensSaved = tokensBefore - tokens;
  return {
    history: output,
    origins,
    zones,
    tokensBefore,
    tokensAfter: tokens,
    counts,
    ...(stoppedAt === undefined ? {} : { stoppedAt }),
  };
}
