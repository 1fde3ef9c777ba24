import { getEntryGenerator, type HistoryEntry } from '@ctx/core';
import type { RecordedPass } from './record-strategy-passes.js';
import type { EntryEvent } from './serve-api.js';

/** An entry of the history after the strategy, and the original entry it stands for (null for an added one). */
export interface AttributedSlot {
  readonly origin: number | null;
  readonly entry: HistoryEntry;
}

/** The fate of every original entry, from the passes a strategy recorded. */
export interface EntryAttribution {
  /** The history after the last recorded pass, each entry with the original entry it stands for. */
  readonly final: readonly AttributedSlot[];
  /** What the passes did, by original index; an index without events was kept as it was. */
  readonly events: ReadonlyMap<number, readonly EntryEvent[]>;
  /** The original indices still present (kept or replaced). */
  readonly present: ReadonlySet<number>;
}

/** The rules a pass reported using: its non-zero operation counts, e.g. `recencyPruned`. */
function rulesOf(pass: RecordedPass): string[] {
  const counts: Readonly<Record<string, number | undefined>> | undefined =
    pass.kind === 'density' ? pass.result.metadata : pass.result.type === 'applied' ? pass.result.metadata.counts : undefined;
  return Object.entries(counts ?? {})
    // Operation counts only: totals of tokens, characters and attempts, and what was kept, are not rules.
    .filter(([rule, count]) => typeof count === 'number' && count > 0 && !/tokens|characters|attempts|kept$|^recentKeep$/i.test(rule))
    .map(([rule]) => rule);
}

/**
 * The slots a pass was given: by position when the pass saw as many entries as the last one produced (the history
 * service may hand out copies), else by identity (an entry nobody produced counts as added).
 */
function align(current: readonly AttributedSlot[], input: readonly HistoryEntry[]): AttributedSlot[] {
  if (input.length === current.length) return input.map((entry, index) => ({ origin: (current[index] as AttributedSlot).origin, entry }));
  const byEntry = new Map(current.map((slot) => [slot.entry, slot.origin]));
  return input.map((entry) => ({ origin: byEntry.get(entry) ?? null, entry }));
}

/**
 * Follows each original entry through a strategy's recorded passes: a density pass names its removals and
 * replacements by index; a compression pass returns a new history, whose entries are matched to the ones it was given
 * by identity, then by entry id (a replacement), then by equal content; the rest were added, and the given entries
 * left unmatched were removed.
 *
 * @param original - The history before the strategy.
 * @param passes - The strategy's calls, in order (see `recordStrategyPasses`).
 */
export function attributeEntries(original: readonly HistoryEntry[], passes: readonly RecordedPass[]): EntryAttribution {
  let current: AttributedSlot[] = original.map((entry, index) => ({ origin: index, entry }));
  const events = new Map<number, EntryEvent[]>();
  const record = (origin: number | null, event: EntryEvent) => {
    if (origin === null) return;
    const list = events.get(origin);
    if (list === undefined) events.set(origin, [event]);
    else list.push(event);
  };

  for (const pass of passes) {
    const slots = align(current, pass.input);
    const event = (action: EntryEvent['action']): EntryEvent => ({ pass: pass.kind, strategy: pass.strategy, action, rules: rulesOf(pass) });
    if (pass.kind === 'density') {
      const removals = new Set(pass.result.removals);
      if (removals.size === 0 && pass.result.replacements.size === 0) continue;
      const next: AttributedSlot[] = [];
      slots.forEach((slot, index) => {
        if (removals.has(index)) {
          record(slot.origin, event('removed'));
          return;
        }
        const replacement = pass.result.replacements.get(index);
        if (replacement === undefined) {
          next.push(slot);
          return;
        }
        record(slot.origin, event('replaced'));
        next.push({ origin: slot.origin, entry: replacement });
      });
      current = next;
      continue;
    }
    if (pass.result.type !== 'applied') continue;
    const unused = new Set(slots);
    const byEntry = new Map(slots.map((slot) => [slot.entry, slot]));
    const byId = new Map(slots.flatMap((slot) => (slot.entry.metadata?.id === undefined ? [] : [[slot.entry.metadata.id, slot] as const])));
    let byContent: Map<string, AttributedSlot[]> | undefined;
    const sameContent = (entry: HistoryEntry) => {
      if (byContent === undefined) {
        byContent = new Map();
        for (const slot of slots) {
          const key = JSON.stringify(slot.entry);
          byContent.set(key, [...(byContent.get(key) ?? []), slot]);
        }
      }
      return byContent.get(JSON.stringify(entry))?.find((slot) => unused.has(slot));
    };
    const newHistory = pass.result.newHistory;
    const matched: (AttributedSlot | undefined)[] = newHistory.map((entry) => {
      const same = byEntry.get(entry);
      if (same !== undefined && unused.has(same)) {
        unused.delete(same);
        return same;
      }
      if (getEntryGenerator(entry) !== undefined) return undefined;
      const id = entry.metadata?.id;
      const replaced = id === undefined ? undefined : byId.get(id);
      if (replaced !== undefined && unused.has(replaced)) {
        unused.delete(replaced);
        record(replaced.origin, event('replaced'));
        return { origin: replaced.origin, entry };
      }
      const equal = sameContent(entry);
      if (equal === undefined) return undefined;
      unused.delete(equal);
      return { origin: equal.origin, entry };
    });
    // Entries edited in place (shortened, without ids): matched in order to the unused given entries of the same
    // speaker between the neighbours already matched.
    const position = new Map(slots.map((slot, index) => [slot, index]));
    const positionByOrigin = new Map(slots.flatMap((slot, index) => (slot.origin === null ? [] : [[slot.origin, index] as const])));
    let cursor = 0;
    current = newHistory.map((entry, index) => {
      const found = matched[index];
      if (found !== undefined) {
        const at = position.get(found) ?? (found.origin === null ? undefined : positionByOrigin.get(found.origin));
        if (at !== undefined) cursor = Math.max(cursor, at + 1);
        return found;
      }
      if (getEntryGenerator(entry) === undefined) {
        for (let at = cursor; at < slots.length; at++) {
          const candidate = slots[at] as AttributedSlot;
          if (!unused.has(candidate)) break;
          if (candidate.entry.speaker === entry.speaker) {
            unused.delete(candidate);
            cursor = at + 1;
            record(candidate.origin, event('replaced'));
            return { origin: candidate.origin, entry };
          }
        }
      }
      return { origin: null, entry };
    });
    for (const slot of unused) record(slot.origin, event('removed'));
  }

  const present = new Set(current.flatMap((slot) => (slot.origin === null ? [] : [slot.origin])));
  return { final: current, events, present };
}
