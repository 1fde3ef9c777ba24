import {
  applyDensityResultToHistory,
  createEmptyDensityResult,
  InvalidStrategySettingsError,
  isEmptyDensityResult,
  parseStrategySettings,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type DensityConfig,
  type DensityResult,
  type HistoryEntry,
  type StrategyWarning,
  type Summarizer,
  type ValidationIssue,
  formatCount,
} from '@ctx/core';
import {
  checkCompressionPreconditions,
  classifyHistoryToolCalls,
  findSupersededFileContent,
  foldFileStates,
  inferWorkspaceRoot,
  isSameEntryContent,
  isValidatedEntry,
  toValidatedEntry,
  type SupersededFileContent,
  type ToolCallKind,
  type ToolSemanticsRegistry,
} from '@ctx/strategy-utils';
import { runBatchPass } from './batch-pass.js';
import { resolveOperation, type ContentType } from './content-operations.js';
import { runIndividualPass, type IndividualPassEnvironment, type SummaryJob } from './individual-pass.js';
import type { PassCache } from './pass-cache.js';
import { withRewrittenCallsUnknown } from './rewritten-parameters.js';
import { selectPassRange } from './select-pass-range.js';
import { smartPassesSettingsSchema, type PassConfig, type SmartPassesSettings, type SmartPassesSettingsInput } from './smart-passes-settings.js';
import { summarizePieces } from './summarize-pieces.js';

const name = 'smart-passes';
const contentTypes: readonly ContentType[] = ['messageText', 'toolParameters', 'toolResults'];
const preludeOperations = ['deduplicateFileReads', 'consolidateToolResults', 'removeObsoleteState'] as const;

/** What `createSmartPassesStrategy` takes besides its JSON settings: objects that cannot be written as JSON. */
export interface SmartPassesRuntime {
  /**
   * The lossless strategy run before the passes when `losslessPrelude.enabled` (FR-SM-003), e.g.
   * `createLosslessStrategy()` from `@ctx/strategy-lossless`. Strategies never import each other: you compose them.
   */
  readonly prelude?: CompressionStrategy;
  /** Tool semantics for `toolKinds` (your own tools registered); the built-in tools when unset. */
  readonly registry?: ToolSemanticsRegistry;
  /** Summarizers by profile name, for `params.summarize.apiProfile` and `summarizationConfig.apiProfile`. */
  readonly summarizers?: Readonly<Record<string, Summarizer>>;
}

/** The summarize operations and batch summaries of a pass, with their `apiProfile`. */
function summarizeProfiles(pass: PassConfig): (string | undefined)[] {
  if (pass.mode === 'batch') {
    return pass.batchConfig?.operation === 'summarize' ? [pass.batchConfig.summarizationConfig.apiProfile] : [];
  }
  const config = pass.individualConfig;
  if (config === undefined) return [];
  const operations = [config.defaults, ...config.overrides.map((override) => override.operations)].flatMap((operations) =>
    contentTypes.flatMap((type) => {
      const operation = operations[type];
      return operation === undefined ? [] : [resolveOperation(operation, type)];
    }),
  );
  return operations.filter((operation) => operation.operation === 'summarize').map((operation) => operation.summarize.apiProfile);
}

/** Runtime checks: what the schema cannot see (the prelude, the summarizer profiles). */
function checkRuntime(settings: SmartPassesSettings, runtime: SmartPassesRuntime): void {
  const issues: ValidationIssue[] = [];
  const prelude = settings.losslessPrelude;
  if (prelude?.enabled === true) {
    if (runtime.prelude === undefined) {
      issues.push({
        path: 'losslessPrelude.enabled',
        message:
          'Expected a prelude strategy with losslessPrelude.enabled, found none: pass it as the second argument, createSmartPassesStrategy(settings, { prelude: createLosslessStrategy({...}) })',
      });
    } else {
      const preludeSettings = (runtime.prelude.settings ?? {}) as Readonly<Record<string, unknown>>;
      for (const operation of preludeOperations) {
        const wanted = prelude.operations?.[operation];
        const actual = preludeSettings[operation];
        if (wanted !== undefined && typeof actual === 'boolean' && actual !== wanted) {
          issues.push({
            path: `losslessPrelude.operations.${operation}`,
            message: `Expected the prelude ${runtime.prelude.name} to have ${operation}: ${wanted}, found ${actual}: create it with createLosslessStrategy({ ${operation}: ${wanted} })`,
          });
        }
      }
    }
  }
  settings.passes.forEach((pass, index) => {
    for (const profile of summarizeProfiles(pass)) {
      if (profile !== undefined && runtime.summarizers?.[profile] === undefined) {
        issues.push({
          path: `passes.${index}.apiProfile`,
          message: `Expected a summarizer for the profile "${profile}", found none: pass it as createSmartPassesStrategy(settings, { summarizers: { "${profile}": summarizer } })`,
        });
      }
    }
  });
  if (issues.length > 0) throw new InvalidStrategySettingsError({ strategyName: name, issues });
}

function toolKindsOf(history: readonly HistoryEntry[], workspaceRoot: string, registry: ToolSemanticsRegistry | undefined): Map<string, ToolCallKind> {
  const kinds = new Map<string, ToolCallKind>();
  const records = classifyHistoryToolCalls(history, { workspaceRoot, ...(registry === undefined ? {} : { registry }) });
  for (const record of records) kinds.set(record.call.id, record.semantics.kind);
  return kinds;
}

function supersededOf(pass: PassConfig, history: readonly HistoryEntry[], workspaceRoot: string, registry: ToolSemanticsRegistry | undefined): { superseded?: SupersededFileContent } {
  if (pass.fileContent !== 'superseded') return {};
  return {
    superseded: findSupersededFileContent(withRewrittenCallsUnknown(history), {
      workspaceRoot,
      ...(registry === undefined ? {} : { registry }),
    }),
  };
}

/** Characters (of the entries' blocks as JSON) the entries that differ between two same-length histories lost. */
function charactersSaved(before: readonly HistoryEntry[], after: readonly HistoryEntry[]): number {
  let saved = 0;
  after.forEach((entry, index) => {
    const original = before[index];
    if (original !== undefined && entry !== original) saved += JSON.stringify(original.blocks).length - JSON.stringify(entry.blocks).length;
  });
  return saved;
}

function add(counts: Record<string, number>, key: string, value: number): void {
  if (value !== 0) counts[key] = (counts[key] ?? 0) + value;
}

const typeLabels: Readonly<Record<string, string>> = {
  messageTexts: 'assistant texts',
  toolParameters: "tool calls' parameters",
  toolResults: 'tool results',
};

/** "truncated 12 tool results, suppressed 3 tool results", for the lossy warning. */
function describeDone(counts: Readonly<Record<string, number>>, batchSummarized: number): string {
  const totals = new Map<string, number>();
  for (const [key, value] of Object.entries(counts)) {
    const match = /\.(messageTexts|toolParameters|toolResults)(Truncated|Suppressed|Summarized)$/.exec(key);
    if (match === null) continue;
    const label = `${(match[2] as string).toLowerCase()}|${typeLabels[match[1] as string] ?? ''}`;
    totals.set(label, (totals.get(label) ?? 0) + value);
  }
  const parts = [...totals].map(([label, value]) => {
    const [verb, what] = label.split('|') as [string, string];
    return `${verb} ${formatCount(value)} ${what}`;
  });
  if (batchSummarized > 0) parts.push(`summarized ${formatCount(batchSummarized)} entries into one`);
  return parts.join(', ');
}

/**
 * Creates the smart-passes strategy (spec 004 FR-SM, the "smart provider"): an ordered list of passes, each selecting
 * entries (the newest N or P% are left alone, or a custom range) and either summarizing them as one block (`batch`)
 * or processing every entry's message text, tool parameters and tool results with its own operation — keep,
 * suppress, truncate or summarize (`individual`). `always` passes run every time, `conditional` ones only while the
 * request is over their token threshold, and the strategy stops as soon as the history fits the target. A lossless
 * prelude (passed at run time) can run first. Deterministic unless a pass summarizes; the summarizer is optional:
 * without one, summarize operations truncate and batch passes write a mechanical summary, with a `fallback` warning.
 *
 * User-typed text, thinking and media are never changed; tool calls stay paired with their results; no entry is
 * left empty. With `trigger: 'continuous'` it also implements `optimize()` (the keep/suppress/truncate `always`
 * passes, without early exit).
 *
 * @param settings - Validated once, here (see {@link SmartPassesSettingsInput}); the default passes are documented
 *   in the README.
 * @param runtime - The prelude strategy, a tool semantics registry and summarizers by profile.
 * @returns The strategy, registered as `smart-passes`.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings: a pass whose mode does not match
 *   its config, duplicate ids, `losslessPrelude.enabled` without `runtime.prelude`, an unknown `apiProfile`.
 *
 * @example
 * ```ts
 * const strategy = createSmartPassesStrategy(
 *   { losslessPrelude: { enabled: true } },
 *   { prelude: createLosslessStrategy() },
 * );
 * const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], contextLimit: 200_000, summarizer });
 * ```
 */
export function createSmartPassesStrategy(
  settings?: SmartPassesSettingsInput,
  runtime: SmartPassesRuntime = {},
): CompressionStrategy<SmartPassesSettings> {
  const resolved = parseStrategySettings(smartPassesSettingsSchema, settings, name);
  checkRuntime(resolved, runtime);
  const prelude = resolved.losslessPrelude?.enabled === true ? runtime.prelude : undefined;
  const usesSummarizer = resolved.passes.some((pass) => summarizeProfiles(pass).length > 0);
  const needsKinds = resolved.passes.some((pass) => pass.toolKinds !== undefined);
  const registryOption = runtime.registry === undefined ? {} : { registry: runtime.registry };
  // The orchestrator's default root is `/`: then the root the session recorded (Claude Code `cwd`) resolves paths.
  const rootOf = (history: readonly HistoryEntry[], configured: string) => (configured === '/' ? inferWorkspaceRoot(history) : configured);
  const summarizerFor = (profile: string | undefined, context: CompressionContext) =>
    profile === undefined ? context.summarizer : runtime.summarizers?.[profile];
  // What each individual pass did to the entries of earlier calls: an agent loop's next call sees the same entries
  // plus a few new ones (see PassCache). Kept from the second call on, so a strategy used once (`ctx compare`, a
  // one-shot run) does not pay for keeping.
  const passOutcomes: PassCache = new WeakMap();
  let calls = 0;
  // The fold of each entry last time, validated: a fold of the same entry with the same content is that object again,
  // so the passes after it find their kept outcomes, and the counter and the orchestrator the object they know.
  const folds = new WeakMap<HistoryEntry, HistoryEntry>();
  const keptFold = (original: HistoryEntry, folded: HistoryEntry): HistoryEntry => {
    if (folded === original) return folded;
    const previous = folds.get(original);
    if (previous !== undefined && isSameEntryContent(previous, folded)) return previous;
    const validated = toValidatedEntry(folded);
    if (validated !== folded && isValidatedEntry(original)) folds.set(original, validated);
    return validated;
  };

  const optimize = (history: readonly HistoryEntry[], config: DensityConfig): DensityResult => {
    if (history.length === 0) return createEmptyDensityResult();
    const metadata: Record<string, number> = {};
    let current: readonly HistoryEntry[] = history;
    let removals: readonly number[] = [];
    const preludeResult = prelude?.optimize?.(history, config);
    if (preludeResult !== undefined && !isEmptyDensityResult(preludeResult)) {
      current = applyDensityResultToHistory(history, preludeResult, prelude?.name);
      removals = preludeResult.removals;
      for (const [key, value] of Object.entries(preludeResult.metadata)) if (value !== undefined) add(metadata, `prelude.${key}`, value);
    }
    const root = rootOf(history, config.workspaceRoot);
    if (resolved.foldFileStates) {
      const folded = foldFileStates(current, { workspaceRoot: root, strategyName: name, ...registryOption });
      current = folded.history;
      add(metadata, 'fileStates.charactersSaved', folded.charactersSaved);
      add(metadata, 'fileStates.readsFolded', folded.foldedReads);
      add(metadata, 'fileStates.editsFolded', folded.foldedEdits);
    }
    const kinds = needsKinds ? toolKindsOf(current, root, runtime.registry) : new Map<string, ToolCallKind>();
    for (const pass of resolved.passes) {
      // Without a tokenizer there is no early exit and no conditional; summaries wait for compress().
      if (pass.execution.type !== 'always' || pass.mode !== 'individual') continue;
      const result = runIndividualPass(current, pass, {
        range: selectPassRange(pass.selection, current.length),
        saves: (before, after) => after.length * 2 <= before.length,
        entrySaves: (before, after) => JSON.stringify(after.blocks).length < JSON.stringify(before.blocks).length,
        toolKinds: kinds,
        ...supersededOf(pass, current, root, runtime.registry),
        summarize: () => null,
      });
      // No tokenizer here: what each pass saved is reported in characters of the entries it changed.
      add(metadata, `${pass.id}.charactersSaved`, charactersSaved(current, result.history));
      current = result.history;
      for (const [key, value] of Object.entries(result.counts)) add(metadata, `${pass.id}.${key}`, value);
    }
    const removed = new Set(removals);
    const replacements = new Map<number, HistoryEntry>();
    let position = 0;
    for (let index = 0; index < history.length; index++) {
      if (removed.has(index)) continue;
      const entry = current[position++] as HistoryEntry;
      if (entry !== history[index]) replacements.set(index, entry);
    }
    if (replacements.size === 0 && removals.length === 0) return createEmptyDensityResult();
    return { removals: [...removals], replacements, metadata };
  };

  const strategy: CompressionStrategy<SmartPassesSettings> = {
    specificationVersion: 'v1',
    name,
    description:
      'Runs configurable passes in order — keep, suppress, truncate or summarize message text, tool parameters and tool results, or summarize a block — and stops once the history fits.',
    // The conformance kit holds requiresLLM: false to never calling the summarizer, so a configuration that can
    // summarize says so, even though it works (with mechanical fallbacks) without one.
    requiresLLM: usesSummarizer,
    trigger: { mode: resolved.trigger, defaultThreshold: resolved.threshold },
    capabilities: { lossless: false, multiPass: true, llmSummarization: usesSummarizer, estimatedSpeed: usesSummarizer ? 'medium' : 'fast' },
    settingsSchema: smartPassesSettingsSchema,
    settings: resolved,

    async compress(context): Promise<CompressionResult> {
      const start = checkCompressionPreconditions(context);
      if (start.kind === 'no-op') return start.result;
      const { tokensBefore, target } = start;
      const counter = context.tokenCounter;
      const keeping = ++calls > 1;
      const counts: Record<string, number> = { passesRun: 0, passesSkipped: 0, stoppedEarly: 0 };
      const warnings: StrategyWarning[] = [];
      let history: readonly HistoryEntry[] = context.history;
      let llmCallMade = false;
      let usageReported = false;
      const reached = () => counter.countEntries(history) <= target;
      const aborted = (): CompressionResult => ({ type: 'no-op', reason: 'aborted', message: 'the signal was aborted; the history is unchanged' });
      const workspaceRoot = inferWorkspaceRoot(history);

      if (prelude !== undefined) {
        const result = await prelude.compress(context);
        if (result.type === 'applied') {
          counts['preludeTokensSaved'] = tokensBefore - counter.countEntries(result.newHistory);
          history = result.newHistory;
          llmCallMade ||= result.metadata.llmCallMade;
        } else if (result.reason === 'aborted') {
          return aborted();
        }
        warnings.push(...(result.warnings ?? []).map((warning) => ({ ...warning, message: `prelude ${prelude.name}: ${warning.message}` })));
      }

      if (resolved.foldFileStates) {
        const before = counter.countEntries(history);
        const folded = foldFileStates(history, { workspaceRoot, strategyName: name, ...registryOption });
        const foldedHistory =
          !keeping || folded.history === history ? folded.history : folded.history.map((entry, index) => keptFold(history[index] as HistoryEntry, entry));
        if (folded.foldedReads > 0 && counter.countEntries(foldedHistory) < before) {
          history = foldedHistory;
          add(counts, 'fileStates.readsFolded', folded.foldedReads);
          add(counts, 'fileStates.editsFolded', folded.foldedEdits);
          add(counts, 'fileStates.tokensSaved', before - counter.countEntries(history));
        }
      }

      const passes = resolved.passes;
      for (let passIndex = 0; passIndex < passes.length; passIndex++) {
        if (reached()) {
          counts['stoppedEarly'] = 1;
          counts['passesNotRun'] = passes.length - passIndex;
          break;
        }
        if (context.signal?.aborted === true) return aborted();
        const pass = passes[passIndex] as PassConfig;
        if (pass.execution.type === 'conditional') {
          const requestTokens = counter.countEntries(history) + context.budget.overheadTokens;
          if (requestTokens <= pass.execution.condition.tokenThreshold) {
            counts['passesSkipped'] = (counts['passesSkipped'] ?? 0) + 1;
            counts[`${pass.id}.skipped`] = 1;
            continue;
          }
        }
        counts['passesRun'] = (counts['passesRun'] ?? 0) + 1;
        const before = counter.countEntries(history);
        const range = selectPassRange(pass.selection, history.length);
        if (pass.mode === 'batch') {
          const profile = pass.batchConfig?.summarizationConfig.apiProfile;
          const result = await runBatchPass(history, pass, { range, context, summarizer: summarizerFor(profile, context) });
          if (result.aborted) return aborted();
          history = result.history;
          warnings.push(...result.warnings);
          llmCallMade ||= result.modelCalled;
          add(counts, `${pass.id}.summarized`, result.summarized);
          if (result.modelCalled) add(counts, 'summarizerCalls', 1);
          if (result.usage !== undefined) {
            usageReported = true;
            add(counts, 'summarizerInputTokens', result.usage.inputTokens);
            add(counts, 'summarizerOutputTokens', result.usage.outputTokens);
          }
        } else {
          const environment: Omit<IndividualPassEnvironment, 'summarize'> = {
            range,
            saves: (textBefore, textAfter) => counter.countText(textAfter) < counter.countText(textBefore),
            entrySaves: (entryBefore, entryAfter) => counter.countEntry(entryAfter) < counter.countEntry(entryBefore),
            toolKinds: pass.toolKinds === undefined ? new Map() : toolKindsOf(history, workspaceRoot, runtime.registry),
            ...supersededOf(pass, history, workspaceRoot, runtime.registry),
            ...(keeping ? { cache: { outcomes: passOutcomes, passIndex, countedBy: counter } } : {}),
          };
          const jobs: SummaryJob[] = [];
          if (summarizeProfiles(pass).length > 0) runIndividualPass(history, pass, { ...environment, summarize: (job) => (jobs.push(job), null) });
          let texts: readonly (string | undefined)[] = [];
          let failure: string | undefined;
          if (jobs.length > 0) {
            const summaries = await summarizePieces(jobs, {
              summarizerFor: (job) => summarizerFor(job.operation.summarize.apiProfile, context),
              tokenCounter: counter,
              ...(context.signal === undefined ? {} : { signal: context.signal }),
            });
            if (summaries.aborted) return aborted();
            texts = summaries.texts;
            failure = summaries.failures[0];
            if (summaries.calls > 0) {
              llmCallMade = true;
              add(counts, 'summarizerCalls', summaries.calls);
            }
            if (summaries.inputTokens + summaries.outputTokens > 0) usageReported = true;
            add(counts, 'summarizerInputTokens', summaries.inputTokens);
            add(counts, 'summarizerOutputTokens', summaries.outputTokens);
          }
          let next = 0;
          const result = runIndividualPass(history, pass, { ...environment, summarize: () => texts[next++] });
          history = result.history;
          let summarized = 0;
          for (const [key, value] of Object.entries(result.counts)) {
            add(counts, `${pass.id}.${key}`, value);
            if (key.endsWith('Summarized')) summarized += value;
          }
          add(counts, `${pass.id}.summarized`, summarized);
          if (result.summaryFallbacks > 0) {
            add(counts, 'summaryFallbacks', result.summaryFallbacks);
            const reason = context.summarizer === undefined && failure === undefined ? 'no summarizer was given' : `the summarizer failed or did not shorten them${failure === undefined ? '' : ` (${failure})`}`;
            warnings.push({ type: 'fallback', message: `pass ${pass.id}: truncated ${formatCount(result.summaryFallbacks)} pieces instead of summarizing them: ${reason}` });
          }
        }
        add(counts, `${pass.id}.tokensSaved`, before - counter.countEntries(history));
      }
      if (!usageReported) {
        delete counts['summarizerInputTokens'];
        delete counts['summarizerOutputTokens'];
      }

      const tokensAfter = counter.countEntries(history);
      if (tokensAfter >= tokensBefore) {
        return {
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `${counts['passesRun'] ?? 0} of ${passes.length} passes ran (${counts['passesSkipped'] ?? 0} skipped by their condition) and found nothing to shorten in the entries they select`,
          ...(warnings.length === 0 ? {} : { warnings }),
        };
      }
      counts['tokensSaved'] = tokensBefore - tokensAfter;
      const batchSummarized = passes.filter((pass) => pass.mode === 'batch').reduce((sum, pass) => sum + (counts[`${pass.id}.summarized`] ?? 0), 0);
      const done = describeDone(counts, batchSummarized);
      if (done !== '') warnings.push({ type: 'lossy', message: `${done} (${formatCount(tokensBefore - tokensAfter)} tokens in all); the cut content is not retrievable` });
      if (tokensAfter > target) {
        warnings.push({ type: 'target-not-met', message: `kept ${formatCount(tokensAfter)} tokens, over the target of ${formatCount(target)}: the entries the passes leave alone are larger` });
      }
      return {
        type: 'applied',
        newHistory: history,
        metadata: {
          originalMessageCount: context.history.length,
          compressedMessageCount: history.length,
          strategyUsed: name,
          llmCallMade,
          counts,
        },
        warnings,
      };
    },
  };
  return resolved.trigger === 'continuous' ? { ...strategy, optimize } : strategy;
}
