import { parseHistoryEntry, type HistoryEntry, type ToolCallBlock } from '@ctx/core';
import { shortenEntry, type EntryShortening, type EntryShorteningContext } from './shorten-entry.js';

/** One entry's shortening, and what it depended on besides the entry and the settings. */
interface CachedShortening {
  readonly keepThinking: boolean;
  /** The call each of the entry's tool responses was judged by (`preserveErrors`), in block order. */
  readonly calls: readonly (ToolCallBlock | undefined)[];
  readonly shortening: EntryShortening;
  /** The shortened entry, validated and frozen; undefined when nothing is left of it or it is unchanged. */
  readonly replacement: HistoryEntry | undefined;
}

/**
 * Shortenings of validated (immutable) entries by one strategy, so the next `compress()` — the same history plus a
 * few new entries, in an agent loop — reuses the shortened, validated entry objects instead of building, validating
 * and counting them again. Keyed by entry identity (a `WeakMap`: entries that leave the history are collected); one
 * cache serves one settings object.
 */
export type ShorteningCache = WeakMap<HistoryEntry, CachedShortening>;

/** A shortening with its replacement validated: what {@link shortenEntryCached} returns. */
export interface ValidatedShortening {
  readonly shortening: EntryShortening;
  /** `shortening.entry` validated and frozen (`parseHistoryEntry`), or undefined when it is undefined or `entry` itself. */
  readonly replacement: HistoryEntry | undefined;
}

function responseCalls(entry: HistoryEntry, context: EntryShorteningContext): (ToolCallBlock | undefined)[] {
  const calls: (ToolCallBlock | undefined)[] = [];
  for (const block of entry.blocks) if (block.type === 'tool_response') calls.push(context.callsById.get(block.callId));
  return calls;
}

function sameCalls(first: readonly (ToolCallBlock | undefined)[], second: readonly (ToolCallBlock | undefined)[]): boolean {
  return first.length === second.length && first.every((call, index) => call === second[index]);
}

/**
 * {@link shortenEntry} with its changed entry validated (so the orchestrator keeps that very object and the token
 * counter's cached count), reusing an earlier result for the same entry when `cache` is given: the entry and the
 * calls its responses are judged by must be the same (immutable) objects, and the thinking rule the same. Pass a
 * cache only when `entry` and every entry `callsById` came from are validated (`isValidatedEntry`).
 *
 * @param entry - An old-zone entry.
 * @param context - Settings (those the cache was made for) and the tool calls seen so far.
 * @param cache - The strategy's cache, or undefined to compute afresh.
 * @returns The shortening and its validated replacement.
 */
export function shortenEntryCached(entry: HistoryEntry, context: EntryShorteningContext, cache: ShorteningCache | undefined): ValidatedShortening {
  const keepThinking = context.keepThinking === true;
  const calls = cache === undefined ? [] : responseCalls(entry, context);
  const cached = cache?.get(entry);
  if (cached !== undefined && cached.keepThinking === keepThinking && sameCalls(cached.calls, calls)) return cached;
  const shortening = shortenEntry(entry, context);
  const replacement = shortening.entry === undefined || shortening.entry === entry ? undefined : parseHistoryEntry(shortening.entry);
  const result: CachedShortening = { keepThinking, calls, shortening, replacement };
  cache?.set(entry, result);
  return result;
}
