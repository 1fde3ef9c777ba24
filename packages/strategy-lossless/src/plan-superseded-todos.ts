import type { ContentBlock, HistoryEntry, JsonValue, ToolCallBlock } from '@ctx/core';
import { classifyHistoryToolCalls } from '@ctx/strategy-utils';
import { hashContent } from './content-hash.js';
import { rawLosslessRecord, withLosslessRecord } from './lossless-record.js';
import { formatReferenceMarker } from './reference-marker.js';

/** Options of {@link planSupersededTodos}. */
export interface PlanSupersededTodosOptions {
  readonly workspaceRoot: string;
  /** `kind:id` of blocks references point at: they stay as they are. */
  readonly referencedSources: ReadonlySet<string>;
}

/** The rewritten assistant entries and how many todo lists were replaced. */
export interface SupersededTodosPlan {
  readonly replacements: ReadonlyMap<number, HistoryEntry>;
  readonly superseded: number;
}

/**
 * The parameters with every list replaced by `marker`: the todo list is the list-valued parameter (`todos`,
 * `plan`, `task_list`), whatever the tool calls it; the rest (a command, an explanation) stays. Undefined when the
 * parameters hold no list.
 */
function withoutLists(parameters: JsonValue, marker: string): JsonValue | undefined {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) return undefined;
  const record = parameters as { readonly [key: string]: JsonValue };
  if (!Object.values(record).some((value) => Array.isArray(value))) return undefined;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, Array.isArray(value) ? marker : value]));
}

/**
 * Spec 004 FR-LC-004 for task lists: every successful todo call (`TodoWrite`, `write_todos`, `update_plan`,
 * `task_tracker`, … as `@ctx/strategy-utils` classifies them) except the latest gets its list replaced by a marker
 * naming the entry of the latest list. The list is obsolete state — the latest call states the whole current
 * list — but nothing is lost: the original parameters are kept in the call block's record, for `expandHistory`.
 *
 * It rewrites older entries, so only `compress` (which runs when the context is full) uses it: a pass that runs
 * every turn would invalidate the provider's prompt cache each time the list changes.
 *
 * @param history - The history; not modified.
 * @param options - Workspace root and the blocks references point at.
 * @returns Rewritten `ai` entries.
 * @example
 * ```ts
 * const { replacements, superseded } = planSupersededTodos(history, { workspaceRoot: '/repo', referencedSources: new Set() });
 * ```
 */
export function planSupersededTodos(
  history: readonly HistoryEntry[],
  options: PlanSupersededTodosOptions,
): SupersededTodosPlan {
  const todoCalls = classifyHistoryToolCalls(history, { workspaceRoot: options.workspaceRoot }).filter(
    (classified) => classified.semantics.kind === 'todo' && classified.response?.outcome.outcome === 'success',
  );
  const latest = todoCalls.at(-1);
  const replacements = new Map<number, HistoryEntry>();
  if (latest === undefined) return { replacements, superseded: 0 };
  let superseded = 0;
  const rewrittenBlocks = new Map<number, ContentBlock[]>();
  for (const { entryIndex, blockIndex, call } of todoCalls.slice(0, -1)) {
    if (options.referencedSources.has(`call:${call.id}`)) continue;
    // Already rewritten (or carrying a record this version cannot read): left as it is.
    if (rawLosslessRecord(call) !== undefined) continue;
    const hash = hashContent(JSON.stringify(call.parameters));
    const marker = formatReferenceMarker({ kind: 'superseded-todos', messageIndex: latest.entryIndex, hash });
    const parameters = withoutLists(call.parameters, marker);
    if (parameters === undefined) continue;
    const rewritten: ToolCallBlock = {
      ...call,
      parameters,
      providerMetadata: withLosslessRecord(call, {
        version: 1,
        field: 'parameters',
        hash,
        superseded: { original: call.parameters, by: { id: latest.call.id, originalIndex: latest.entryIndex } },
      }),
    };
    const blocks = rewrittenBlocks.get(entryIndex) ?? [...(history[entryIndex] as HistoryEntry).blocks];
    blocks[blockIndex] = rewritten;
    rewrittenBlocks.set(entryIndex, blocks);
    superseded++;
  }
  for (const [entryIndex, blocks] of rewrittenBlocks) {
    replacements.set(entryIndex, { ...(history[entryIndex] as HistoryEntry), blocks });
  }
  return { replacements, superseded };
}
