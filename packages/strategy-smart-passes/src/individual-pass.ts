import { isJsonArray, isJsonObject, type HistoryEntry, type JsonValue, type ToolCallBlock } from '@ctx/core';
import { classifyToolResult, isValidatedEntry, toValidatedEntry, type SupersededFileContent, type ToolCallKind } from '@ctx/strategy-utils';
import { SUPPRESSED_CONTENT_MARKER } from './content-markers.js';
import { resolveOperation, type ContentType, type ResolvedOperation } from './content-operations.js';
import { decomposeEntry, recomposeEntry } from './decompose-entry.js';
import { sameDependencies, type KeptPassOutcome, type PassCache, type PieceDone } from './pass-cache.js';
import { markRewrittenParameters } from './rewritten-parameters.js';
import { isOverLimits, truncateText } from './shorten-text.js';
import type { PassConfig } from './smart-passes-settings.js';

/** A piece of content the `summarize` operation hands to the summarizer. */
export interface SummaryJob {
  readonly type: ContentType;
  readonly text: string;
  readonly operation: ResolvedOperation;
}

/** What an individual pass needs besides the history. */
export interface IndividualPassEnvironment {
  /** The entries of the history the pass works on, `[start, end)`. */
  readonly range: { readonly start: number; readonly end: number };
  /** True when replacing `before` by `after` saves tokens (or, without a tokenizer, enough characters). */
  readonly saves: (before: string, after: string) => boolean;
  /** True when the new entry is smaller than the old one. */
  readonly entrySaves: (before: HistoryEntry, after: HistoryEntry) => boolean;
  /** Kind of each tool call by id; only read when the pass has `toolKinds`. */
  readonly toolKinds: ReadonlyMap<string, ToolCallKind>;
  /** The superseded file content by call id; only read when the pass has `fileContent: 'superseded'`. */
  readonly superseded?: SupersededFileContent;
  /**
   * The summary of one piece: called in walk order. Returns the replacement text, `undefined` to truncate instead
   * (no summarizer, a failure), or `null` to keep the piece (planning, or `optimize()`, which never summarizes).
   */
  readonly summarize: (job: SummaryJob) => string | undefined | null;
  /**
   * This pass's outcomes from earlier calls, and what `saves` and `entrySaves` count with (the token counter):
   * used when every entry of the history is validated and the pass summarizes nothing, so an outcome depends only
   * on the entry and on what its dependencies record. A kept replacement is returned validated from its second use
   * on, so the orchestrator keeps that object instead of copying it on every call.
   */
  readonly cache?: { readonly outcomes: PassCache; readonly passIndex: number; readonly countedBy: object };
}

/** Counts of what a pass did, per content type and operation (`toolResultsTruncated`, …). */
export type OperationCounts = Record<string, number>;

/** What {@link runIndividualPass} produced. */
export interface IndividualPassResult {
  readonly history: readonly HistoryEntry[];
  readonly counts: OperationCounts;
  /** Pieces that were to be summarized and were truncated instead. */
  readonly summaryFallbacks: number;
}

const countKey: Readonly<Record<ContentType, string>> = { messageText: 'messageTexts', toolParameters: 'toolParameters', toolResults: 'toolResults' };
const operationSuffix = { suppress: 'Suppressed', truncate: 'Truncated', summarize: 'Summarized' } as const;

function serialize(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Applies `map` to every string in `value`; the same object when no string changed. */
function mapStrings(value: JsonValue, map: (text: string) => string): JsonValue {
  if (typeof value === 'string') return map(value);
  if (isJsonArray(value)) {
    let changed: JsonValue[] | undefined;
    value.forEach((item, index) => {
      const next = mapStrings(item, map);
      if (next !== item) (changed ??= value.slice())[index] = next;
    });
    return changed ?? value;
  }
  if (isJsonObject(value)) {
    let changed: Record<string, JsonValue> | undefined;
    for (const key of Object.keys(value)) {
      const item = value[key] as JsonValue;
      const next = mapStrings(item, map);
      if (next !== item) (changed ??= { ...value })[key] = next;
    }
    return changed ?? value;
  }
  return value;
}

interface PieceOutcome {
  readonly value: JsonValue;
  readonly done?: 'suppress' | 'truncate' | 'summarize';
  readonly fallbacks: number;
}

/**
 * One operation on one piece of content. Suppress replaces a whole tool result, or each string of tool parameters
 * (so a call keeps an object with its keys), with the marker; truncate and summarize work on every string over the
 * limits. A replacement is applied only where it saves.
 */
function applyOperation(value: JsonValue, type: ContentType, operation: ResolvedOperation, environment: IndividualPassEnvironment): PieceOutcome {
  const { saves } = environment;
  switch (operation.operation) {
    case 'keep':
      return { value, fallbacks: 0 };
    case 'suppress': {
      if (type === 'toolParameters') {
        const next = mapStrings(value, (text) => (text !== SUPPRESSED_CONTENT_MARKER && saves(text, SUPPRESSED_CONTENT_MARKER) ? SUPPRESSED_CONTENT_MARKER : text));
        return next === value ? { value, fallbacks: 0 } : { value: next, done: 'suppress', fallbacks: 0 };
      }
      if (value === SUPPRESSED_CONTENT_MARKER || !saves(serialize(value), SUPPRESSED_CONTENT_MARKER)) return { value, fallbacks: 0 };
      return { value: SUPPRESSED_CONTENT_MARKER, done: 'suppress', fallbacks: 0 };
    }
    case 'truncate': {
      const next = mapStrings(value, (text) => {
        const cut = truncateText(text, operation.truncate);
        return cut !== text && saves(text, cut) ? cut : text;
      });
      return next === value ? { value, fallbacks: 0 } : { value: next, done: 'truncate', fallbacks: 0 };
    }
    case 'summarize': {
      let fallbacks = 0;
      let summarized = false;
      const next = mapStrings(value, (text) => {
        if (!isOverLimits(text, operation.truncate)) return text;
        const summary = environment.summarize({ type, text, operation });
        if (summary === null) return text;
        if (summary !== undefined && saves(text, summary)) {
          summarized = true;
          return summary;
        }
        fallbacks++;
        const cut = truncateText(text, operation.truncate);
        return cut !== text && saves(text, cut) ? cut : text;
      });
      if (next === value) return { value, fallbacks };
      return { value: next, done: summarized ? 'summarize' : 'truncate', fallbacks };
    }
  }
}

function isErrorResult(block: HistoryEntry['blocks'][number], callsById: ReadonlyMap<string, ToolCallBlock>): boolean {
  if (block.type !== 'tool_response') return false;
  return block.isError === true || classifyToolResult(block, callsById.get(block.callId)).outcome === 'error';
}

/**
 * Runs one individual-mode pass (spec 004 FR-SM-005): every entry in the range is decomposed, each content type goes
 * through its operation (the pass defaults, or the override for that entry's index), and the entry is recomposed in
 * place; entries keep their order and count. User-typed text is never changed (message text operations apply to
 * assistant entries only), thinking and media are never changed, error results are kept with `keepErrors`, and tool
 * calls and results outside `toolKinds` (or, with `fileContent: 'superseded'`, not superseded) are left alone. An entry is replaced only when the result is smaller.
 *
 * @param history - The history the pass sees.
 * @param pass - The pass (mode `individual`).
 * @param environment - The range, the savings rules, tool kinds and the summaries.
 * @returns The new history (unchanged entries are the same objects) and the counts.
 */
export function runIndividualPass(history: readonly HistoryEntry[], pass: PassConfig, environment: IndividualPassEnvironment): IndividualPassResult {
  const config = pass.individualConfig;
  const counts: OperationCounts = {};
  let summaryFallbacks = 0;
  if (config === undefined) return { history, counts, summaryFallbacks };
  const overrides = new Map(config.overrides.map((override) => [override.messageIndex, override.operations]));
  const kinds = pass.toolKinds === undefined ? undefined : new Set<string>(pass.toolKinds);
  const ofKind = (callId: string) => kinds === undefined || kinds.has(environment.toolKinds.get(callId) ?? 'other');
  const onlySuperseded = pass.fileContent === 'superseded';
  const touches = (callId: string, part: 'parameters' | 'results') =>
    ofKind(callId) && (!onlySuperseded || environment.superseded?.[part].has(callId) === true);
  // Only error checks (keepErrors) look calls up.
  const callsById = new Map<string, ToolCallBlock>();
  if (config.keepErrors) for (const entry of history) for (const block of entry.blocks) if (block.type === 'tool_call') callsById.set(block.id, block);

  const summarizes = [config.defaults, ...config.overrides.map((override) => override.operations)].some((operations) =>
    (['messageText', 'toolParameters', 'toolResults'] as const).some((type) => {
      const operation = operations[type];
      return operation !== undefined && resolveOperation(operation, type).operation === 'summarize';
    }),
  );
  const cache = environment.cache !== undefined && !summarizes && history.every(isValidatedEntry) ? environment.cache : undefined;
  // What an entry's outcome depends on besides the entry: see KeptPassOutcome.
  const dependenciesOf = (entry: HistoryEntry, override: unknown, countedBy: object): unknown[] => {
    const dependencies: unknown[] = [countedBy, override];
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') dependencies.push(touches(block.id, 'parameters'));
      else if (block.type === 'tool_response') {
        dependencies.push(touches(block.callId, 'results'));
        if (config.keepErrors) dependencies.push(callsById.get(block.callId));
      }
    }
    return dependencies;
  };
  const count = (done: readonly PieceDone[]) => {
    for (const { type, operation } of done) {
      const key = `${countKey[type]}${operationSuffix[operation]}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  };

  let output: HistoryEntry[] | undefined;
  for (let index = environment.range.start; index < environment.range.end; index++) {
    const entry = history[index] as HistoryEntry;
    const override = overrides.get(index);
    const dependencies = cache === undefined ? undefined : dependenciesOf(entry, override, cache.countedBy);
    const slots = cache?.outcomes.get(entry);
    if (cache !== undefined && dependencies !== undefined) {
      const kept = slots?.[cache.passIndex];
      if (slots !== undefined && kept !== undefined && sameDependencies(kept.dependencies, dependencies)) {
        if (kept.next !== undefined) {
          // Validated when it is used a second time, so the orchestrator keeps this object from then on (the first
          // call leaves validating to the orchestrator, as it would for any strategy).
          let next = kept.next;
          if (!isValidatedEntry(next)) {
            next = toValidatedEntry(next);
            slots[cache.passIndex] = { ...kept, next };
          }
          count(kept.done);
          (output ??= history.slice())[index] = next;
        }
        continue;
      }
    }
    const keep = (next: HistoryEntry | undefined, done: readonly PieceDone[]) => {
      if (cache === undefined || dependencies === undefined) return;
      const outcome: KeptPassOutcome = { dependencies, next, done };
      if (slots === undefined) {
        const created: (KeptPassOutcome | undefined)[] = [];
        created[cache.passIndex] = outcome;
        cache.outcomes.set(entry, created);
      } else {
        slots[cache.passIndex] = outcome;
      }
    };
    const operationFor = (type: ContentType) => resolveOperation(override?.[type] ?? config.defaults[type], type);
    const parts = decomposeEntry(entry);
    const done: PieceDone[] = [];
    const process = (value: JsonValue, type: ContentType): JsonValue => {
      const outcome = applyOperation(value, type, operationFor(type), environment);
      summaryFallbacks += outcome.fallbacks;
      if (outcome.done !== undefined) done.push({ type, operation: outcome.done });
      return outcome.value;
    };

    let messageText = parts.messageText;
    if (messageText !== null && entry.speaker === 'ai' && messageText.trim() !== '') messageText = process(messageText, 'messageText') as string;
    const calls = entry.blocks.filter((block) => block.type === 'tool_call');
    const responses = entry.blocks.filter((block) => block.type === 'tool_response');
    const toolParameters =
      parts.toolParameters?.map((value, position) => (touches((calls[position] as ToolCallBlock).id, 'parameters') ? process(value, 'toolParameters') : value)) ?? null;
    const toolResults =
      parts.toolResults?.map((value, position) => {
        const block = responses[position] as HistoryEntry['blocks'][number] & { type: 'tool_response' };
        if (!touches(block.callId, 'results')) return value;
        if (config.keepErrors && isErrorResult(block, callsById)) return value;
        return process(value, 'toolResults');
      }) ?? null;
    if (done.length === 0) {
      keep(undefined, done);
      continue;
    }
    // Calls whose parameters changed are listed on the entry: later file-state rules must not read their cut paths.
    const rewrittenCalls = (toolParameters ?? []).flatMap((value, position) =>
      value === parts.toolParameters?.[position] ? [] : [(calls[position] as ToolCallBlock).id],
    );
    const next = markRewrittenParameters(recomposeEntry(entry, { messageText, toolParameters, toolResults }), rewrittenCalls);
    if (next === entry || !environment.entrySaves(entry, next)) {
      keep(undefined, []);
      continue;
    }
    count(done);
    keep(next, done);
    (output ??= history.slice())[index] = next;
  }
  return { history: output ?? history, counts, summaryFallbacks };
}
