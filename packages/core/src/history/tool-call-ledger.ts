import type { HistoryEntry } from './history-entry.js';

/**
 * A tool call / response problem in entries passed to `HistoryService.add` / `addAll`, carried by
 * {@link ToolPairingError}. The kinds are named as {@link ToolPairingProblem}'s.
 *
 * - `duplicate-call-id`: a `tool_call` whose id is already used by a tool call of the history (or of an earlier
 *   added entry, or earlier in the same entry).
 * - `orphan-response`: a `tool_response` whose `callId` is the id of no tool call in the history or earlier in the
 *   same add.
 * - `duplicate-response`: a `tool_response` for a call that already has one.
 */
export interface AddedToolPairingProblem {
  readonly kind: 'duplicate-call-id' | 'orphan-response' | 'duplicate-response';
  /** The index the entry would have had in the history (during a compression: after the queued entries). */
  readonly entryIndex: number;
  /** The index of the offending block in that entry. */
  readonly blockIndex: number;
  readonly callId: string;
  readonly toolName: string;
  /**
   * `duplicate-call-id`: the entry holding the earlier call with this id; `duplicate-response`: the entry holding
   * the earlier response. Undefined for `orphan-response`.
   */
  readonly earlierEntryIndex: number | undefined;
}

/** Options of {@link ToolCallLedger.check}. */
interface CheckOptions {
  readonly allowOrphanResponses: boolean;
}

/** What a check found, and what to record when the entries are committed. */
export interface LedgerCheck {
  readonly problems: readonly AddedToolPairingProblem[];
  readonly calls: ReadonlyMap<string, number>;
  readonly answers: ReadonlyMap<string, number>;
}

/**
 * The tool call ids of a history and which of them are answered, so each add is checked in O(added blocks)
 * instead of rescanning the whole history (an agent loop adds one entry at a time).
 *
 * Only ids and order matter here, not where a response sits relative to its call's assistant turn: that positional
 * rule is {@link findToolPairingProblems}'s, and a recorded history may legitimately break it.
 */
export class ToolCallLedger {
  /** Call id → index of the entry holding the (first) call with that id. */
  private readonly calls = new Map<string, number>();
  /** Call id → index of the entry holding the response that answered it. */
  private readonly answers = new Map<string, number>();

  /**
   * Indexes a history as given. A history taken as recorded (the constructor's `history`, `replaceHistory`) may
   * already hold duplicates or orphans: the first call with an id counts, and a response answers only a call before
   * it that has no response yet.
   */
  constructor(history: readonly HistoryEntry[]) {
    history.forEach((entry, entryIndex) => {
      for (const block of entry.blocks) {
        if (block.type === 'tool_call') {
          if (!this.calls.has(block.id)) this.calls.set(block.id, entryIndex);
        } else if (block.type === 'tool_response') {
          if (this.calls.has(block.callId) && !this.answers.has(block.callId)) this.answers.set(block.callId, entryIndex);
        }
      }
    });
  }

  /**
   * Checks entries about to be appended at `firstIndex`, in order, without changing the ledger. Every problem is
   * listed, not just the first, so one error names them all.
   */
  check(entries: readonly HistoryEntry[], firstIndex: number, options: CheckOptions): LedgerCheck {
    const problems: AddedToolPairingProblem[] = [];
    const calls = new Map<string, number>();
    const answers = new Map<string, number>();
    entries.forEach((entry, offset) => {
      const entryIndex = firstIndex + offset;
      entry.blocks.forEach((block, blockIndex) => {
        if (block.type === 'tool_call') {
          const earlier = this.calls.get(block.id) ?? calls.get(block.id);
          if (earlier === undefined) calls.set(block.id, entryIndex);
          else {
            problems.push({
              kind: 'duplicate-call-id',
              entryIndex,
              blockIndex,
              callId: block.id,
              toolName: block.name,
              earlierEntryIndex: earlier,
            });
          }
          return;
        }
        if (block.type !== 'tool_response') return;
        const { callId, toolName } = block;
        if (!this.calls.has(callId) && !calls.has(callId)) {
          if (!options.allowOrphanResponses) {
            problems.push({ kind: 'orphan-response', entryIndex, blockIndex, callId, toolName, earlierEntryIndex: undefined });
          }
          return;
        }
        const earlier = this.answers.get(callId) ?? answers.get(callId);
        if (earlier === undefined) answers.set(callId, entryIndex);
        else if (!options.allowOrphanResponses) {
          problems.push({ kind: 'duplicate-response', entryIndex, blockIndex, callId, toolName, earlierEntryIndex: earlier });
        }
      });
    });
    return { problems, calls, answers };
  }

  /** Records the calls and answers of a check that found no problem, once its entries are appended. */
  commit(check: LedgerCheck): void {
    for (const [callId, entryIndex] of check.calls) this.calls.set(callId, entryIndex);
    for (const [callId, entryIndex] of check.answers) this.answers.set(callId, entryIndex);
  }
}
