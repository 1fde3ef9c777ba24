import { isSameJson, type HistoryEntry, type ToolCallBlock } from '@ctx/core';
import { classifyRememberedToolCall, countSharedPrefix, isValidatedEntry } from '@ctx/strategy-utils';
import { describeSourceCall } from './describe-source-call.js';
import type { LosslessSettings } from './lossless-settings.js';
import {
  addCounts,
  createReferencePlanner,
  findSignedTurnEntries,
  isSignedEntry,
  type EntryPlan,
  type LosslessCounts,
  type MutableCounts,
  type ReferencePlan,
  type ReferencePlanner,
} from './plan-references.js';

/**
 * {@link planReferences}, incremental: plans kept by input, so that a history that extends one planned before
 * costs only its new entries. Every answer equals `planReferences(history, …)`'s.
 */
export interface ReferencePlanCache {
  /**
   * The references of `history`, as `planReferences(history, { settings, workspaceRoot })` plans them. The
   * answer's `referencedSources` is the kept planner's own set: read it before the next call.
   *
   * @param history - The history; not modified.
   * @param workspaceRoot - Directory relative paths in tool calls resolve against.
   */
  plan(history: readonly HistoryEntry[], workspaceRoot: string): ReferencePlan;
}

/** Options of {@link createReferencePlanCache}. */
export interface ReferencePlanCacheOptions {
  /**
   * Plans kept per first entry (per conversation, in practice); the least recently used goes first.
   *
   * @default 2
   */
  readonly maximumPlansPerHistory?: number;
}

/** How a history extends a kept plan (see `matchState`). */
interface Match {
  readonly changes: ReadonlyMap<number, boolean>;
  readonly replanFrom: number | undefined;
}

/** One planned entry: what the planner saw, what it gave, and the form the latest input held. */
interface PlannedEntry {
  /** The entry the planner planned. */
  readonly original: HistoryEntry;
  readonly plan: EntryPlan;
  /**
   * Whether the replacement, given in its place, leaves the planner's state as planning the original does (see
   * `plansAlike`).
   */
  readonly replaceable: boolean;
  /** The form the latest input held: `original`, or the replacement applied (maybe a validated copy of it). */
  seen: HistoryEntry;
  /** Whether `seen` is the replacement: a full plan then sees a rewritten entry and plans nothing for it. */
  applied: boolean;
  /** The latest object seen as the replacement applied (inputs may switch between both forms). */
  appliedForm: HistoryEntry | undefined;
}

/** The planner's state after a history, and how that history's entries were planned. */
interface PlanState {
  readonly workspaceRoot: string;
  readonly planner: ReferencePlanner;
  readonly entries: PlannedEntry[];
  /** Counts of the planned entries whose replacement is not applied. */
  readonly counts: MutableCounts;
  /** The replacements not applied, by entry index: the answer's, kept as entries come, so a turn does not walk them all. */
  readonly pending: Map<number, HistoryEntry>;
  /** Whether {@link PlanState.pending} is in index order (an entry seen unapplied again is added at its end). */
  pendingOrdered: boolean;
  /** Whether the trailing assistant turn holds signed thinking so far (when the last entry is `ai`). */
  trailingTurnSigned: boolean;
  /** The answer for the input exactly as last seen, until an entry is added or its form changes. */
  answer: ReferencePlan | undefined;
  /**
   * The history this state last answered for (after which every planned entry's `seen` is the object at its index
   * there): when it and the next input are frozen, their shared first entries are not compared again.
   */
  lastInput: readonly HistoryEntry[] | undefined;
}

const zero: LosslessCounts = {
  fileReadsDeduplicated: 0,
  toolResultsConsolidated: 0,
  lineRangesReferenced: 0,
  obsoleteStatesRemoved: 0,
  charactersSaved: 0,
};

/**
 * Freezes what planning built, stopping at parts already frozen (the entry's own, when the history is frozen as
 * `HistoryService` holds it): a replacement is handed out again on later calls, so nobody may change it in between.
 */
function freezeNewParts<Value>(value: Value): Value {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) freezeNewParts(item);
  return value;
}

/** What planning later entries reads of a tool call: its kind, and how markers name it (its name included). */
function callView(call: ToolCallBlock, workspaceRoot: string, unchanging: boolean): string {
  const semantics = classifyRememberedToolCall(call, { workspaceRoot }, unchanging);
  return JSON.stringify([semantics.kind, describeSourceCall(call, semantics)]);
}

/**
 * Whether planning after `replacement` is planning after `original`: the planner reads nothing of an earlier entry
 * but the lines it indexed (the same, rebuilt from the record, either way) and, of a tool call, its kind and how
 * markers name it — which a rewritten parameter (a marker in a long command) could change.
 */
function plansAlike(original: HistoryEntry, replacement: HistoryEntry, workspaceRoot: string): boolean {
  return replacement.blocks.every((block, index) => {
    const before = original.blocks[index];
    if (block.type !== 'tool_call' || block === before) return true;
    return (
      before?.type === 'tool_call' &&
      callView(before, workspaceRoot, isValidatedEntry(original)) === callView(block, workspaceRoot, isValidatedEntry(replacement))
    );
  });
}

/** Whether the planned entries end in an assistant turn that holds signed or redacted thinking so far. */
function endsInSignedTurn(entries: readonly PlannedEntry[]): boolean {
  for (let index = entries.length - 1; index >= 0 && entries[index]?.original.speaker === 'ai'; index--) {
    if (isSignedEntry((entries[index] as PlannedEntry).original)) return true;
  }
  return false;
}

/**
 * The form `entry` is of a planned entry: `false` the original (or a copy), `true` its replacement (or a copy),
 * undefined neither.
 */
function formOf(planned: PlannedEntry, entry: HistoryEntry): boolean | undefined {
  if (entry === planned.seen) return planned.applied;
  if (entry === planned.original) return false;
  if (entry === planned.appliedForm) return true;
  const { replacement } = planned.plan;
  if (replacement !== undefined && planned.replaceable && (entry === replacement || isSameJson(entry, replacement))) return true;
  if (isSameJson(entry, planned.original)) return false;
  return undefined;
}

/** How many planned entries a match keeps: all of them when nothing is planned again. */
function keptEntries(match: Match): number {
  return match.replanFrom ?? Number.POSITIVE_INFINITY;
}

/**
 * Creates a {@link ReferencePlanCache}: the agent loop's steady state — the previous history plus new entries, with
 * the previous answer applied or not — plans only the new entries (their lines indexed, their runs searched), with
 * exactly the answer of a full plan.
 *
 * A plan is kept per input, never per caller: a history is checked to extend a kept one entry by entry (the same
 * entry objects, or copies equal to them or to the replacements planned for them) before the kept state is used, so
 * conversations sharing a strategy never see each other's state. When an entry differs (another strategy pruned,
 * rewrote or removed it, a replacement whose rewritten tool call names itself differently, an assistant turn that
 * turned out to be signed after its tool calls were planned), the planner rolls back to before it — or to the start
 * of a turn that turned out signed — and plans the entries from there again, at what those entries cost; another
 * workspace root is planned from the start. Plans are kept in a `WeakMap` keyed by the history's first entry, so
 * they go with the conversation.
 *
 * @param settings - The strategy's settings.
 * @param options - How many plans to keep.
 * @returns The cache.
 * @example
 * ```ts
 * const plans = createReferencePlanCache(settings);
 * const plan = plans.plan(history, '/repo'); // the next call, with one more entry, plans that entry only
 * ```
 */
export function createReferencePlanCache(settings: LosslessSettings, options: ReferencePlanCacheOptions = {}): ReferencePlanCache {
  const maximumPlans = options.maximumPlansPerHistory ?? 2;
  const statesByFirstEntry = new WeakMap<HistoryEntry, PlanState[]>();

  const createState = (workspaceRoot: string): PlanState => ({
    workspaceRoot,
    planner: createReferencePlanner({ settings, workspaceRoot }),
    entries: [],
    counts: { ...zero },
    pending: new Map(),
    pendingOrdered: true,
    trailingTurnSigned: false,
    answer: undefined,
    lastInput: undefined,
  });

  /**
   * How `history` extends `state`, if it does: the new forms of planned entries (index → applied), and the entry
   * from which the entries must be planned again (the first one neither planned form fits, or the start of a
   * trailing turn that turned out signed).
   */
  const matchState = (state: PlanState, history: readonly HistoryEntry[], workspaceRoot: string): Match | undefined => {
    if (state.workspaceRoot !== workspaceRoot) return undefined;
    const changes = new Map<number, boolean>();
    const replanFrom = (index: number): Match => ({ changes, replanFrom: index });
    // Entries a frozen input shares with the last one are the planned entries' `seen` forms: compared from the first
    // that differs (two snapshots of one history service vouch for that without reading either, so an agent loop's
    // turn does not walk the whole history). An input that is not frozen may have been changed in place: compared
    // whole.
    const lastInput = state.lastInput;
    const start =
      lastInput !== undefined && Object.isFrozen(history) && Object.isFrozen(lastInput)
        ? countSharedPrefix(history, lastInput, state.entries.length)
        : 0;
    for (let index = start; index < state.entries.length; index++) {
      const planned = state.entries[index] as PlannedEntry;
      const entry = history[index];
      // Shorter than what was planned (a strategy before this one removed entries): planned again from where it ends.
      if (entry === undefined) return replanFrom(index);
      if (entry === planned.seen) continue;
      const applied = formOf(planned, entry);
      if (applied === undefined) return replanFrom(index);
      changes.set(index, applied);
    }
    const planned = state.entries.length;
    // The trailing turn goes on and turns out signed: its tool calls were planned as rewritable. Plan it again.
    if (
      planned > 0 &&
      planned < history.length &&
      !state.trailingTurnSigned &&
      state.entries[planned - 1]?.original.speaker === 'ai' &&
      history[planned]?.speaker === 'ai' &&
      findSignedTurnEntries(history, planned)[0] === true
    ) {
      let turnStart = planned - 1;
      while (turnStart > 0 && state.entries[turnStart - 1]?.original.speaker === 'ai') turnStart--;
      return replanFrom(turnStart);
    }
    return { changes, replanFrom: undefined };
  };

  /**
   * Forgets the entries planned from `from` on — from the start of the assistant turn entry `from − 1` belongs to,
   * when it is one: that turn's entries were planned knowing whether the whole turn, later entries included, holds
   * signed thinking. The planner rolls back to before them.
   */
  const rollback = (state: PlanState, changed: number): void => {
    let from = changed;
    while (from > 0 && state.entries[from - 1]?.original.speaker === 'ai') from--;
    state.planner.rollbackTo(from);
    state.entries.splice(from).forEach((planned, offset) => {
      if (planned.plan.replacement === undefined || planned.applied) return;
      addCounts(state.counts, planned.plan.counts, -1);
      state.pending.delete(from + offset);
    });
    state.trailingTurnSigned = endsInSignedTurn(state.entries);
    state.answer = undefined;
  };

  const extend = (state: PlanState, history: readonly HistoryEntry[], match: Match): void => {
    for (const [index, applied] of match.changes) {
      if (index >= state.entries.length) continue;
      const planned = state.entries[index] as PlannedEntry;
      planned.seen = history[index] as HistoryEntry;
      if (applied) planned.appliedForm = planned.seen;
      if (planned.applied === applied) continue;
      planned.applied = applied;
      addCounts(state.counts, planned.plan.counts, applied ? -1 : 1);
      if (applied) {
        state.pending.delete(index);
      } else {
        state.pending.set(index, planned.plan.replacement as HistoryEntry);
        state.pendingOrdered = false;
      }
      state.answer = undefined;
    }
    const from = state.entries.length;
    if (from === history.length) return;
    state.answer = undefined;
    const signed = findSignedTurnEntries(history, from);
    for (let index = from; index < history.length; index++) {
      const entry = history[index] as HistoryEntry;
      const planned = state.planner.planEntry(entry, index, signed[index - from] === true);
      // An unfrozen input's parts are the caller's: only a frozen entry's replacement is frozen (its new parts).
      const plan = Object.isFrozen(entry) ? freezeNewParts(planned) : planned;
      const replaceable = plan.replacement !== undefined && plansAlike(entry, plan.replacement, state.workspaceRoot);
      state.entries.push({ original: entry, plan, replaceable, seen: entry, applied: false, appliedForm: undefined });
      if (plan.replacement === undefined) continue;
      addCounts(state.counts, plan.counts);
      state.pending.set(index, plan.replacement);
    }
    state.trailingTurnSigned = signed.at(-1) === true;
  };

  const answer = (state: PlanState): ReferencePlan => {
    if (state.answer !== undefined) return state.answer;
    if (!state.pendingOrdered) {
      state.pending.clear();
      state.entries.forEach((planned, index) => {
        if (planned.plan.replacement !== undefined && !planned.applied) state.pending.set(index, planned.plan.replacement);
      });
      state.pendingOrdered = true;
    }
    state.answer = {
      replacements: new Map(state.pending),
      counts: { ...state.counts },
      // The planner's own set (not copied: a turn costs what is new): read before the next call changes it.
      referencedSources: state.planner.referencedSources,
    };
    return state.answer;
  };

  return {
    plan(history, workspaceRoot) {
      const first = history[0];
      if (first === undefined) return answer(createState(workspaceRoot));
      let states = statesByFirstEntry.get(first);
      if (states === undefined) {
        states = [];
        statesByFirstEntry.set(first, states);
      }
      // The kept plan that keeps the most: one `history` extends as it is, else the one it differs from latest.
      let state: PlanState | undefined;
      let match: Match | undefined;
      for (const candidate of states) {
        const candidateMatch = matchState(candidate, history, workspaceRoot);
        if (candidateMatch === undefined) continue;
        if (match === undefined || keptEntries(candidateMatch) > keptEntries(match)) {
          state = candidate;
          match = candidateMatch;
        }
        if (candidateMatch.replanFrom === undefined) break;
      }
      // Back to before the first entry that differs, then matched again: the entries before it may still close a
      // turn that turns out signed, which takes the planner back to that turn's start.
      while (state !== undefined && match?.replanFrom !== undefined) {
        rollback(state, match.replanFrom);
        match = matchState(state, history, workspaceRoot);
        if (match === undefined) {
          states.splice(states.indexOf(state), 1);
          state = undefined;
        }
      }
      if (state === undefined || match === undefined) {
        state = createState(workspaceRoot);
        match = { changes: new Map(), replanFrom: undefined };
      } else {
        states.splice(states.indexOf(state), 1);
      }
      states.unshift(state);
      if (states.length > maximumPlans) states.length = maximumPlans;
      extend(state, history, match);
      state.lastInput = history;
      return answer(state);
    },
  };
}
