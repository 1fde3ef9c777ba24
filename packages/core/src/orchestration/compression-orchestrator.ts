import { CompressionFailedError } from '../errors/compression-failed-error.js';
import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { ContextWindowExceededError } from '../errors/context-window-exceeded-error.js';
import { InvalidHistoryError } from '../errors/invalid-history-error.js';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { HistoryService } from '../history/history-service.js';
import { parseHistory } from '../history/parse-history.js';
import { describeToolPairingProblem, findNewToolPairingProblems } from '../history/tool-pairing.js';
import {
  densityDefaults,
  parseCompressionSettings,
  type CompressionSettings,
  type CompressionSettingsInput,
} from '../settings/compression-settings.js';
import { createCompressionBudget } from '../strategy/compression-budget.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionResult } from '../strategy/compression-result.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import { isEmptyDensityResult, type DensityConfig } from '../strategy/density-result.js';
import { createStrategyRegistry, type StrategyRegistry } from '../strategy/strategy-registry.js';
import type { Summarizer } from '../strategy/summarizer.js';
import type { Todo } from '../strategy/todo.js';
import { decideCompression, type CompressionDecision } from '../thresholds/decide-compression.js';
import { resolveThreshold, type ResolvedThreshold } from '../thresholds/resolve-threshold.js';
import type { PassReport, TurnReport } from './turn-report.js';

/** Options of {@link createCompressionOrchestrator}. */
export interface CompressionOrchestratorOptions {
  /** The history to keep inside the window. The orchestrator listens to it for new content. */
  readonly history: HistoryService;
  /** The strategies that may be selected, as a registry or a list. */
  readonly strategies: StrategyRegistry | readonly CompressionStrategy[];
  /** The model's context window, in tokens. */
  readonly contextLimit: number;
  /**
   * What compression aims for, in tokens of the whole request. By default `threshold × contextLimit × 0.6`
   * (spec 000 BR-THRESH-004); set it to compress to a fixed budget instead.
   */
  readonly targetTokens?: number;
  /** `compression.*` settings; validated, defaults filled in. */
  readonly settings?: CompressionSettingsInput;
  /**
   * Directory relative file paths in tool calls are resolved against (spec 000 BR-PRUNE-006).
   * @default '/'
   */
  readonly workspaceRoot?: string;
  /** Handed to LLM strategies through the compression context. */
  readonly summarizer?: Summarizer;
  /** Returns the agent's current task list, handed to strategies as `activeTodos`. */
  readonly getActiveTodos?: () => readonly Todo[] | undefined;
  /** Where the full transcript is stored, handed to strategies as `transcriptPath`. */
  readonly transcriptPath?: string;
  /**
   * After a compression that made no progress, the history must grow by this share of the context window before
   * the same strategy is tried again (the no-progress guard). The emergency path ignores it.
   * @default 0.05
   */
  readonly retryAfterGrowth?: number;
  /** Called with every report the orchestrator produces (for logs, UIs, telemetry). */
  readonly onReport?: (report: TurnReport) => void;
}

/** The settings in effect for a profile (spec 004 FR-PA-002 `getEffectiveConfig`). */
export interface EffectiveCompressionSettings {
  readonly strategy: string;
  readonly fallbackStrategies: readonly string[];
  readonly profile: string;
  readonly threshold: ResolvedThreshold;
  readonly contextLimit: number;
  readonly reservedOutputTokens: number;
  readonly density: DensityConfig;
}

/** Options of the orchestrator's run methods. */
export interface RunOptions {
  /** Tokens of the message about to be sent, not yet in the history. */
  readonly pendingTokens?: number;
  /** Aborts a long-running (LLM) compression; the history is then left unchanged. */
  readonly signal?: AbortSignal;
}

/**
 * Keeps a history inside the context window, turn by turn: the spec 000 orchestrator (the role `GeminiChat` plays
 * there) and the spec 004 provider manager in one object.
 *
 * Call {@link CompressionOrchestrator.ensureCompressionBeforeSend} before every model call. It runs density
 * optimization when new content arrived since the last run, then compresses when the request passes the threshold,
 * and reports what it did.
 */
export interface CompressionOrchestrator {
  readonly history: HistoryService;
  readonly registry: StrategyRegistry;

  /**
   * The per-turn entry point (spec 000 §2b). Serialized: a second call waits for the first (ERR-032).
   * Runs density optimization if due, decides on the post-optimization tokens (BR-THRESH-005) and compresses if
   * needed. Errors of `optimize()` and `compress()` propagate (ERR-002, ERR-003) unless fallback strategies are
   * configured for compression; those are tried in order when the active strategy throws, returns a no-op or
   * makes no progress, and run on the active strategy's result when it applied but left the request over the
   * threshold.
   */
  ensureCompressionBeforeSend(options?: RunOptions): Promise<TurnReport>;
  /**
   * Runs density optimization now if new content arrived since the last run and the active strategy optimizes
   * (spec 000 `ensureDensityOptimized`). Serialized with the other run methods. Returns undefined when not due.
   */
  ensureDensityOptimized(): Promise<PassReport | undefined>;
  /** Compresses now, whatever the threshold says (a user's `/compress`). Ignores the no-progress guard. */
  performCompression(options?: Pick<RunOptions, 'signal'>): Promise<TurnReport>;
  /**
   * The emergency path: makes sure the request with `pendingTokens` fits the window minus the reserved output
   * tokens, running density optimization and then compression regardless of the threshold and the no-progress
   * guard.
   * @throws {@link ContextWindowExceededError} when it still does not fit.
   */
  enforceContextWindow(options: RunOptions & { readonly pendingTokens: number }): Promise<TurnReport>;
  /** Whether the request passes the threshold (or the absolute limit), on current tokens. */
  shouldCompress(pendingTokens?: number): CompressionDecision;

  /** True when content was added since the last density optimization (spec 000 §2a). */
  isDensityDirty(): boolean;
  getActiveStrategy(): CompressionStrategy;
  /**
   * Selects the active strategy by name.
   * @throws {@link UnknownStrategyError} listing the known names (ERR-001).
   */
  setActiveStrategy(name: string): void;
  /** The validated settings. */
  getSettings(): CompressionSettings;
  /**
   * Changes settings; validated as a whole, so a bad value changes nothing.
   * @throws {@link InvalidSettingsError} or {@link UnknownStrategyError}.
   */
  updateSettings(patch: CompressionSettingsInput): void;
  /**
   * Sets (or with undefined, clears) the session threshold override, a fraction in (0, 1] that beats every other
   * threshold source (spec 000 BR-THRESH-001).
   * @throws {@link InvalidSettingsError} for a value outside (0, 1].
   */
  setThresholdOverride(threshold: number | undefined): void;
  /** The settings in effect for `profile` (the active one by default). */
  getEffectiveSettings(profile?: string): EffectiveCompressionSettings;
  /** Stops listening to the history. */
  dispose(): void;
}

function now(): number {
  return globalThis.performance.now();
}

function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    (signal?.aborted === true && error === signal.reason) ||
    (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
  );
}

/**
 * Creates a {@link CompressionOrchestrator}.
 *
 * @throws {@link InvalidSettingsError} for invalid settings or options, {@link UnknownStrategyError} for a strategy
 *   name that is not registered.
 *
 * @example
 * ```ts
 * const history = new HistoryService({ tokenizer: await createGptTokenizer() });
 * const orchestrator = createCompressionOrchestrator({
 *   history,
 *   strategies: [createTopDownTruncationStrategy()],
 *   contextLimit: 200_000,
 * });
 * history.add(userMessage);
 * const report = await orchestrator.ensureCompressionBeforeSend();
 * ```
 */
export function createCompressionOrchestrator(options: CompressionOrchestratorOptions): CompressionOrchestrator {
  const { history } = options;
  const registry = 'register' in options.strategies ? options.strategies : createStrategyRegistry(options.strategies);
  if (!(Number.isFinite(options.contextLimit) && options.contextLimit > 0)) {
    throw new InvalidSettingsError({
      issues: [{ path: 'contextLimit', message: `Expected a positive number of tokens, got ${options.contextLimit}` }],
    });
  }
  if (options.targetTokens !== undefined && !(Number.isInteger(options.targetTokens) && options.targetTokens >= 0)) {
    throw new InvalidSettingsError({
      issues: [{ path: 'targetTokens', message: `Expected a whole number of tokens ≥ 0, got ${options.targetTokens}` }],
    });
  }
  const retryAfterGrowth = options.retryAfterGrowth ?? 0.05;
  const workspaceRoot = options.workspaceRoot ?? '/';
  let settings = parseCompressionSettings(options.settings, { strategies: registry });
  let thresholdOverride: number | undefined;
  // Starts dirty: content may already be there (spec 000 §2a "init → dirty = true").
  let densityDirty = true;
  // The no-progress guard: the last compression attempt that did not reduce tokens.
  let lastNoProgress: { readonly strategy: string; readonly tokens: number } | undefined;
  // Serializes every run method (spec 000 `compressionPromise`, ERR-032).
  let queue: Promise<unknown> = Promise.resolve();

  const unsubscribe = history.subscribe((event) => {
    // Only turn-loop content makes density due; density edits, compression rebuilds and recounts do not (§2a).
    if (event.type === 'entries-added') densityDirty = true;
    if (event.type === 'cleared' || event.type === 'history-replaced') lastNoProgress = undefined;
  });

  const serialize = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };

  const activeStrategyName = (): string => {
    const name = settings['compression.strategy'] ?? registry.names()[0];
    if (name === undefined) return registry.require(undefined).name;
    return name;
  };

  const getActiveStrategy = () => registry.require(activeStrategyName());
  // Fail at creation, not on the first turn, when no strategy can be selected.
  getActiveStrategy();

  const getEffectiveSettings = (profile = settings['compression.profile']): EffectiveCompressionSettings => {
    const strategy = getActiveStrategy();
    // Precedence: the session's compression.density.* setting, else the strategy's own setting of that name (so a
    // strategy created with recencyPruning: true prunes by recency), else spec 000's default.
    const own = (strategy.settings ?? {}) as Readonly<Record<string, unknown>>;
    const ownBoolean = (key: string) => (typeof own[key] === 'boolean' ? own[key] : undefined);
    const ownInteger = (key: string) => (Number.isInteger(own[key]) ? (own[key] as number) : undefined);
    return {
      strategy: strategy.name,
      fallbackStrategies: settings['compression.fallbackStrategies'].filter((name) => name !== strategy.name),
      profile,
      threshold: resolveThreshold({
        override: thresholdOverride,
        profile,
        profileThresholds: settings['compression.profileThresholds'],
        globalThreshold: settings['compression.threshold'],
        strategyDefault: strategy.trigger.defaultThreshold,
      }),
      contextLimit: options.contextLimit,
      reservedOutputTokens: settings['compression.reservedOutputTokens'],
      density: {
        readWritePruning:
          settings['compression.density.readWritePruning'] ??
          ownBoolean('readWritePruning') ??
          densityDefaults.readWritePruning,
        fileDedupe: settings['compression.density.fileDedupe'] ?? ownBoolean('fileDedupe') ?? densityDefaults.fileDedupe,
        recencyPruning:
          settings['compression.density.recencyPruning'] ?? ownBoolean('recencyPruning') ?? densityDefaults.recencyPruning,
        recencyRetention:
          settings['compression.density.recencyRetention'] ??
          ownInteger('recencyRetention') ??
          densityDefaults.recencyRetention,
        workspaceRoot,
      },
    };
  };

  const shouldCompress = (pendingTokens = 0): CompressionDecision => {
    const effective = getEffectiveSettings();
    return decideCompression({
      currentTokens: history.getTotalTokens(),
      pendingTokens,
      contextLimit: options.contextLimit,
      threshold: effective.threshold.value,
      reservedOutputTokens: effective.reservedOutputTokens,
    });
  };

  const report = (turn: TurnReport): TurnReport => {
    options.onReport?.(turn);
    return turn;
  };

  const runDensity = async (): Promise<PassReport | undefined> => {
    if (!densityDirty) return undefined;
    try {
      const strategy = getActiveStrategy();
      if (strategy.optimize === undefined) return undefined;
      const raw = history.getRawHistory();
      const tokensBefore = history.getTotalTokens();
      const started = now();
      const result = strategy.optimize(raw, getEffectiveSettings().density);
      const base = { pass: 'density', strategy: strategy.name, tokensBefore, entriesBefore: raw.length } as const;
      if (isEmptyDensityResult(result)) {
        return {
          ...base,
          outcome: 'no-op',
          reason: 'nothing-to-optimize',
          tokensAfter: tokensBefore,
          entriesAfter: raw.length,
          durationMs: now() - started,
          warnings: [],
          densityMetadata: result.metadata,
        };
      }
      await history.applyDensityResult(result, strategy.name);
      return {
        ...base,
        outcome: 'applied',
        tokensAfter: history.getTotalTokens(),
        entriesAfter: history.length,
        durationMs: now() - started,
        warnings: [],
        densityMetadata: result.metadata,
      };
    } finally {
      densityDirty = false;
    }
  };

  const validateCompressedHistory = (
    strategy: CompressionStrategy,
    input: readonly HistoryEntry[],
    output: readonly HistoryEntry[],
  ): readonly HistoryEntry[] => {
    let parsed: readonly HistoryEntry[];
    try {
      parsed = parseHistory(output, 'newHistory');
    } catch (error) {
      if (!InvalidHistoryError.isInstance(error)) throw error;
      throw new CompressionStrategyError({
        strategyName: strategy.name,
        message: `Strategy "${strategy.name}" returned an invalid history:\n${error.message}`,
        cause: error,
      });
    }
    const problems = findNewToolPairingProblems(input, parsed);
    if (problems.length > 0) {
      throw new CompressionStrategyError({
        strategyName: strategy.name,
        indices: problems.map((problem) => problem.entryIndex),
        message: `Strategy "${strategy.name}" returned a history that breaks tool call / response pairing:\n${problems.map((problem) => `  ${describeToolPairingProblem(problem)}`).join('\n')}`,
      });
    }
    return parsed;
  };

  const runCompression = async ({
    signal,
    respectBackoff,
    stillTooLarge,
  }: {
    signal: AbortSignal | undefined;
    respectBackoff: boolean;
    /** After a strategy applied: whether the request still needs compressing, so the next fallback runs on it. */
    stillTooLarge: () => boolean;
  }): Promise<PassReport[]> => {
    const effective = getEffectiveSettings();
    const startTokens = history.getTotalTokens();
    let tokensBefore = startTokens;
    let entriesBefore = history.length;
    let base = { pass: 'compression', tokensBefore, entriesBefore } as const;

    if (
      respectBackoff &&
      lastNoProgress !== undefined &&
      lastNoProgress.strategy === effective.strategy &&
      tokensBefore < lastNoProgress.tokens + retryAfterGrowth * options.contextLimit
    ) {
      return [
        {
          ...base,
          strategy: effective.strategy,
          outcome: 'no-op',
          reason: 'no-progress-backoff',
          message: `the last attempt at ${lastNoProgress.tokens} tokens made no progress; retrying once the history grows by ${Math.ceil(retryAfterGrowth * options.contextLimit)} tokens`,
          tokensAfter: tokensBefore,
          entriesAfter: entriesBefore,
          durationMs: 0,
          warnings: [],
        },
      ];
    }

    const candidates = [effective.strategy, ...effective.fallbackStrategies];
    const hasFallbacks = candidates.length > 1;
    const passes: PassReport[] = [];
    const failures: { strategyName: string; error: unknown }[] = [];
    let applied = false;

    history.startCompression();
    try {
      for (const [position, name] of candidates.entries()) {
        const strategy = registry.require(name);
        tokensBefore = history.getTotalTokens();
        entriesBefore = history.length;
        base = { pass: 'compression', tokensBefore, entriesBefore };
        const context: CompressionContext = {
          history: Object.freeze(history.getCurated()),
          system: history.getSystem(),
          tools: history.getTools(),
          tokenCounter: history.tokenCounter,
          budget: createCompressionBudget({
            contextLimit: options.contextLimit,
            threshold: effective.threshold.value,
            overheadTokens: history.getOverheadTokens(),
            ...(options.targetTokens === undefined ? {} : { targetTokens: options.targetTokens }),
          }),
          activeTodos: options.getActiveTodos?.(),
          transcriptPath: options.transcriptPath,
          summarizer: options.summarizer,
          signal,
        };
        const started = now();
        let result: CompressionResult;
        let newHistory: readonly HistoryEntry[] = [];
        try {
          signal?.throwIfAborted();
          result = await strategy.compress(context);
          if (result.type === 'applied') newHistory = validateCompressedHistory(strategy, context.history, result.newHistory);
        } catch (error) {
          // Without fallbacks the strategy's own error reaches the caller (spec 000 ERR-003).
          if (!hasFallbacks || isAbortError(error, signal)) throw error;
          failures.push({ strategyName: name, error });
          passes.push({
            ...base,
            strategy: name,
            outcome: 'failed',
            message: error instanceof Error ? error.message : String(error),
            tokensAfter: tokensBefore,
            entriesAfter: entriesBefore,
            durationMs: now() - started,
            warnings: [{ type: 'fallback', message: `${name} failed; trying the next strategy` }],
            error,
          });
          continue;
        }

        if (result.type === 'no-op') {
          passes.push({
            ...base,
            strategy: name,
            outcome: 'no-op',
            reason: result.reason,
            ...(result.message === undefined ? {} : { message: result.message }),
            tokensAfter: tokensBefore,
            entriesAfter: entriesBefore,
            durationMs: now() - started,
            warnings: result.warnings ?? [],
          });
          // An abort ends the attempt; otherwise this strategy cannot help, and the next fallback may.
          if (result.reason === 'aborted') return passes;
          continue;
        }

        const tokensAfter = history.tokenCounter.countEntries(newHistory) + history.getOverheadTokens();
        if (tokensAfter >= tokensBefore) {
          passes.push({
            ...base,
            strategy: name,
            outcome: 'no-op',
            reason: 'no-progress',
            message: `the result had ${tokensAfter} tokens, not fewer than ${tokensBefore}; the history was left unchanged`,
            tokensAfter: tokensBefore,
            entriesAfter: entriesBefore,
            durationMs: now() - started,
            warnings: result.warnings ?? [],
          });
          continue;
        }

        await history.replaceHistory(newHistory);
        applied = true;
        lastNoProgress = undefined;
        const next = candidates[position + 1];
        // A strategy that helped but left the request over the line hands what it left to the next fallback
        // ("mechanical first, LLM or truncation after", spec 004 FR-CS-003).
        const handOver = next !== undefined && stillTooLarge();
        const tokensLeft = history.getTotalTokens();
        passes.push({
          ...base,
          strategy: name,
          outcome: 'applied',
          tokensAfter: tokensLeft,
          entriesAfter: history.length,
          durationMs: now() - started,
          warnings: [
            ...(result.warnings ?? []),
            ...(handOver
              ? [{ type: 'fallback' as const, message: `${tokensLeft} tokens are still over the line after ${name}; running ${next} on its result` }]
              : []),
          ],
          compressionMetadata: result.metadata,
        });
        if (!handOver) return passes;
      }
      if (applied) return passes;
      // Nothing was applied. Every candidate threw: that is a failure. Otherwise some said no: back off.
      if (failures.length === candidates.length) throw new CompressionFailedError({ failures });
      lastNoProgress = { strategy: effective.strategy, tokens: startTokens };
      return passes;
    } finally {
      history.endCompression();
    }
  };

  const runTurn = async (
    { pendingTokens = 0, signal }: RunOptions,
    mode: 'threshold' | 'forced' | 'emergency',
  ): Promise<TurnReport> => {
    await history.waitForTokenUpdates();
    const tokensBefore = history.getTotalTokens();
    const passes: PassReport[] = [];
    if (mode !== 'forced') {
      const density = await runDensity();
      if (density !== undefined) passes.push(density);
    }
    const threshold = getEffectiveSettings().threshold;
    let decision: CompressionDecision | undefined;
    const overThreshold = () => shouldCompress(pendingTokens).compress;
    if (mode === 'threshold') {
      decision = shouldCompress(pendingTokens);
      if (decision.compress) {
        passes.push(...(await runCompression({ signal, respectBackoff: true, stillTooLarge: overThreshold })));
      }
    } else if (mode === 'forced') {
      passes.push(...(await runCompression({ signal, respectBackoff: false, stillTooLarge: overThreshold })));
    } else {
      const available = options.contextLimit - settings['compression.reservedOutputTokens'];
      const doesNotFit = () => history.getTotalTokens() + pendingTokens > available;
      if (doesNotFit()) passes.push(...(await runCompression({ signal, respectBackoff: false, stillTooLarge: doesNotFit })));
      const projectedTokens = history.getTotalTokens() + pendingTokens;
      if (projectedTokens > available) {
        report({ passes, decision, threshold, tokensBefore, tokensAfter: history.getTotalTokens() });
        throw new ContextWindowExceededError({ projectedTokens, availableTokens: available });
      }
    }
    await history.waitForTokenUpdates();
    return report({ passes, decision, threshold, tokensBefore, tokensAfter: history.getTotalTokens() });
  };

  const updateSettings = (patch: CompressionSettingsInput) => {
    const previousStrategy = activeStrategyName();
    settings = parseCompressionSettings({ ...settings, ...patch }, { strategies: registry });
    // A newly selected continuous strategy should see the whole history on the next send.
    if (activeStrategyName() !== previousStrategy) densityDirty = true;
  };

  return {
    history,
    registry,
    ensureCompressionBeforeSend: (runOptions = {}) => serialize(() => runTurn(runOptions, 'threshold')),
    ensureDensityOptimized: () => serialize(runDensity),
    performCompression: (runOptions = {}) => serialize(() => runTurn(runOptions, 'forced')),
    enforceContextWindow: (runOptions) => serialize(() => runTurn(runOptions, 'emergency')),
    shouldCompress,
    isDensityDirty: () => densityDirty,
    getActiveStrategy,
    setActiveStrategy: (name) => updateSettings({ 'compression.strategy': name }),
    getSettings: () => settings,
    updateSettings,
    setThresholdOverride: (threshold) => {
      if (threshold !== undefined && !(Number.isFinite(threshold) && threshold > 0 && threshold <= 1)) {
        throw new InvalidSettingsError({
          issues: [{ path: 'thresholdOverride', message: `Expected a fraction in (0, 1], got ${threshold}` }],
        });
      }
      thresholdOverride = threshold;
    },
    getEffectiveSettings,
    dispose: unsubscribe,
  };
}
