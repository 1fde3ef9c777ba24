import { ContextWindowExceededError } from '../errors/context-window-exceeded-error.js';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { HistoryService } from '../history/history-service.js';
import {
  parseCompressionSettings,
  type CompressionSettings,
  type CompressionSettingsInput,
} from '../settings/compression-settings.js';
import { getHistoryTokenTarget } from '../strategy/compression-budget.js';
import type { StrategyWarning } from '../strategy/compression-result.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import { createStrategyRegistry, type StrategyRegistry } from '../strategy/strategy-registry.js';
import type { Summarizer } from '../strategy/summarizer.js';
import type { Todo } from '../strategy/todo.js';
import type { CompressionDecision } from '../thresholds/decide-compression.js';
import {
  createTokenCalibration,
  type CalibrationState,
  type TokenCalibrationOptions,
} from '../tokens/token-calibration.js';
import { resolveEffectiveSettings, type EffectiveCompressionSettings } from './effective-settings.js';
import { createNoProgressGuard, type AttemptShape } from './no-progress-guard.js';
import { decideTurn, planRequestBudget, type RequestBudget } from './plan-request-budget.js';
import { createRequestEstimator, type RequestEstimate, type UsageReport } from './request-estimator.js';
import { runCompressionChain } from './run-compression-chain.js';
import { runDensityPass } from './run-density-pass.js';
import { runEmergencyCut } from './run-emergency-cut.js';
import type { PassReport, RequestReport, TurnReport } from './turn-report.js';

/** Options of {@link createCompressionOrchestrator}. */
export interface CompressionOrchestratorOptions {
  /** The history to keep inside the window. The orchestrator listens to it for new content. */
  readonly history: HistoryService;
  /** The strategies that may be selected, as a registry or a list. */
  readonly strategies: StrategyRegistry | readonly CompressionStrategy[];
  /** The model's context window, in the provider's tokens. */
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
   * How our token counts are turned into the provider's (spec 002 §5.1, §6.1): every decision multiplies our count
   * by a correction factor, learnt from the real input sizes you pass to
   * {@link CompressionOrchestrator.recordUsage} after each model call (1.5 until the first one). `false` turns it
   * off: decisions use our tokenizer's counts as they are (right only when it is the provider's own tokenizer).
   * @default { method: 'latest-ratio', initialFactor: 1.5, minFactor: 1, maxFactor: 5 }
   */
  readonly calibration?: TokenCalibrationOptions | false;
  /**
   * After a threshold-triggered compression that made no progress — nothing applied, or applied but the request is
   * still above the target — the next threshold-triggered attempt waits until the history has grown by this share
   * of the context window, so a chain that cannot reach its target does not rewrite the history (and invalidate the
   * provider's prompt cache, or call a model) on every turn. A rewrite, a settings change or a new calibration
   * factor retries at once; the emergency path (the request does not fit) never waits.
   * @default 0.05
   */
  readonly retryAfterGrowth?: number;
  /** Called with every report the orchestrator produces (for logs, UIs, telemetry), including a failed turn's. */
  readonly onReport?: (report: TurnReport) => void;
}

/** Options of the orchestrator's run methods. */
export interface RunOptions {
  /** Tokens (ours) of the message about to be sent, not yet in the history. */
  readonly pendingTokens?: number;
  /** Aborts a long-running (LLM) compression; the history is then left unchanged. */
  readonly signal?: AbortSignal;
}

/**
 * Keeps a history inside the context window, turn by turn: the spec 000 orchestrator (the role `GeminiChat` plays
 * there) and the spec 004 provider manager in one object.
 *
 * Call {@link CompressionOrchestrator.ensureCompressionBeforeSend} before every model call and
 * {@link CompressionOrchestrator.recordUsage} after it. The first runs density optimization when new content arrived
 * since the last run, compresses when the request passes the threshold, makes the request fit the window when it
 * does not, and throws when nothing can; the second teaches it how the provider counts.
 */
export interface CompressionOrchestrator {
  readonly history: HistoryService;
  readonly registry: StrategyRegistry;

  /**
   * The per-turn entry point (spec 000 §2b). Serialized: a second call waits for the first (ERR-032).
   * Runs density optimization if due, decides on the calibrated post-optimization tokens (BR-THRESH-005) and
   * compresses if needed: the active strategy, then the configured fallbacks (when one throws, returns a no-op or
   * makes no progress, or leaves the request over the threshold). If the request still does not fit the window
   * minus the reserved output tokens, it takes the emergency path ({@link CompressionOrchestrator.enforceContextWindow}).
   * Errors of `optimize()` and `compress()` propagate (ERR-002, ERR-003) unless fallbacks are configured.
   *
   * @returns The report; its `request.fits` is always true.
   * @throws {@link ContextWindowExceededError} when the request cannot be made to fit (never a silent overflow):
   *   `reason: 'overhead-too-large'` when system, tools and the pending message alone do not fit (no strategy is
   *   run), `'cannot-shrink-further'` when everything was tried. What was done is committed and in `error.report`.
   */
  ensureCompressionBeforeSend(options?: RunOptions): Promise<TurnReport>;
  /**
   * Runs density optimization now if new content arrived since the last run and the active strategy optimizes
   * (spec 000 `ensureDensityOptimized`). Serialized with the other run methods. Returns undefined when not due.
   */
  ensureDensityOptimized(): Promise<PassReport | undefined>;
  /**
   * Compresses now, whatever the threshold says (a user's `/compress`). Ignores the no-progress guard; does not take
   * the emergency path (the report's `request.fits` says whether the request fits).
   */
  performCompression(options?: Pick<RunOptions, 'signal'>): Promise<TurnReport>;
  /**
   * The emergency path: makes the request with `pendingTokens` fit the window minus the reserved output tokens, by
   * density optimization, then every strategy (regardless of the threshold and the no-progress guard), then cutting
   * the largest tool results to their beginning and end (tool pairs intact).
   *
   * @throws {@link ContextWindowExceededError} when it still does not fit.
   */
  enforceContextWindow(options: RunOptions & { readonly pendingTokens: number }): Promise<TurnReport>;
  /** Whether the request passes the threshold (or the absolute limit), on current calibrated tokens. */
  shouldCompress(pendingTokens?: number): CompressionDecision;
  /**
   * Feeds one model call's real input size back (spec 002 §5.1): later decisions multiply our counts by
   * `real ÷ our estimate` of that request (clamped to [1, 5] by default; a moving average optionally). Call it after
   * every model call, with the usage the provider returned.
   *
   * @throws {@link InvalidSettingsError} when a figure is not a whole number of tokens ≥ 0.
   * @example
   * ```ts
   * const response = await anthropic.messages.create(request);
   * const usage = response.usage;
   * orchestrator.recordUsage({
   *   inputTokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
   * });
   * ```
   */
  recordUsage(usage: UsageReport): CalibrationState;
  /** The calibration in effect: factor, where it comes from, samples seen. */
  getCalibration(): CalibrationState;
  /** The request's size now (history + system + tools + `pendingTokens`), ours and calibrated. */
  estimateRequest(pendingTokens?: number): RequestEstimate;

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

const integer = new Intl.NumberFormat('en-US');

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
 * const report = await orchestrator.ensureCompressionBeforeSend(); // throws ContextWindowExceededError if it cannot fit
 * const response = await callModel(history.getCurated());
 * orchestrator.recordUsage({ inputTokens: response.usage.inputTokens });
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
  const calibration = createTokenCalibration(options.calibration);
  const estimator = createRequestEstimator(history, calibration);
  const guard = createNoProgressGuard(retryAfterGrowth * options.contextLimit);
  let settings = parseCompressionSettings(options.settings, { strategies: registry });
  let thresholdOverride: number | undefined;
  // Starts dirty: content may already be there (spec 000 §2a "init → dirty = true").
  let densityDirty = true;
  // What the no-progress guard keys on.
  let historyVersion = 0;
  let rewriteVersion = 0;
  let settingsVersion = 0;
  // The last "threshold unreachable" situation reported, so it is reported once, not every turn.
  let unreachableReported: string | undefined;
  // Serializes every run method (spec 000 `compressionPromise`, ERR-032).
  let queue: Promise<unknown> = Promise.resolve();

  const unsubscribe = history.subscribe((event) => {
    historyVersion += 1;
    // Only turn-loop content makes density due; density edits, compression rebuilds and recounts do not (§2a).
    if (event.type === 'entries-added') {
      densityDirty = true;
      return;
    }
    rewriteVersion += 1;
    estimator.noteRewrite();
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

  const getEffectiveSettings = (profile = settings['compression.profile']): EffectiveCompressionSettings =>
    resolveEffectiveSettings({
      strategy: getActiveStrategy(),
      settings,
      profile,
      thresholdOverride,
      contextLimit: options.contextLimit,
      workspaceRoot,
    });

  const budgetFor = (effective: EffectiveCompressionSettings, pendingTokens: number): RequestBudget =>
    planRequestBudget({
      contextLimit: options.contextLimit,
      threshold: effective.threshold.value,
      reservedOutputTokens: effective.reservedOutputTokens,
      targetTokens: options.targetTokens,
      estimate: estimator.estimate(pendingTokens),
      overheadTokens: history.getOverheadTokens(),
      pendingTokens,
    });

  const shouldCompress = (pendingTokens = 0): CompressionDecision => {
    const effective = getEffectiveSettings();
    return decideTurn(estimator.estimate(pendingTokens), budgetFor(effective, pendingTokens), effective);
  };

  const report = (turn: TurnReport): TurnReport => {
    options.onReport?.(turn);
    return turn;
  };

  const runDensity = async (): Promise<PassReport | undefined> => {
    if (!densityDirty) return undefined;
    try {
      return await runDensityPass(history, getActiveStrategy(), getEffectiveSettings().density);
    } finally {
      densityDirty = false;
    }
  };

  const runTurn = async (
    { pendingTokens = 0, signal }: RunOptions,
    mode: 'threshold' | 'forced' | 'emergency',
  ): Promise<TurnReport> => {
    await history.waitForTokenUpdates();
    const tokensBefore = history.getTotalTokens();
    const passes: PassReport[] = [];
    const warnings: StrategyWarning[] = [];
    if (mode !== 'forced') {
      const density = await runDensity();
      if (density !== undefined) passes.push(density);
    }
    const effective = getEffectiveSettings();
    // Decisions of the whole turn use the calibration it started with; a compaction resets it at the end.
    const budget = () => budgetFor(effective, pendingTokens);
    const estimate = () => estimator.estimate(pendingTokens);
    const doesNotFit = () => estimate().calibratedTokens > budget().availableTokens;
    const overThreshold = () => decideTurn(estimate(), budget(), effective).compress;
    let compacted = false;
    let chainAttempted = false;
    let emergency = false;
    const chainNames = () => [effective.strategy, ...effective.fallbackStrategies];

    const finish = (decision: CompressionDecision | undefined): TurnReport => {
      const now = estimate();
      const availableTokens = budget().availableTokens;
      const request: RequestReport = {
        estimatedTokens: now.estimatedTokens,
        calibratedTokens: now.calibratedTokens,
        overheadTokens: now.overheadTokens,
        availableTokens,
        fits: now.calibratedTokens <= availableTokens,
        calibration: now.calibration,
      };
      if (compacted) calibration.resetAfterCompaction();
      estimator.noteChecked(pendingTokens);
      return report({
        passes,
        decision,
        threshold: effective.threshold,
        tokensBefore,
        tokensAfter: history.getTotalTokens(),
        request,
        emergency,
        warnings,
      });
    };

    /**
     * Something was applied: when the request is still above the target, the next threshold trigger would compact
     * again right away (thrashing), so the guard waits for growth from here; otherwise it forgets past failures.
     */
    const noteApplied = async (chain: readonly string[]): Promise<void> => {
      compacted = true;
      await history.waitForTokenUpdates();
      if (estimate().calibratedTokens <= budget().targetTokens) {
        guard.clear();
        return;
      }
      guard.recordShortfall({
        chain,
        historyVersion,
        rewriteVersion,
        settingsVersion,
        factor: calibration.getFactor(),
        tokens: history.getTotalTokens(),
      });
    };

    /**
     * Runs the fallback chain unless the no-progress guard says it cannot turn out differently: `all` respects the
     * guard, `unchanged` (the emergency path) skips only when nothing at all changed since an attempt that made no
     * progress, `none` always runs (a forced compression).
     */
    const attemptChain = async (respect: 'all' | 'unchanged' | 'none', stillTooLarge: () => boolean): Promise<void> => {
      const strategies = chainNames().map((name) => registry.require(name));
      const shape: AttemptShape = {
        chain: strategies.map((strategy) => strategy.name),
        historyVersion,
        rewriteVersion,
        settingsVersion,
        factor: calibration.getFactor(),
        tokens: history.getTotalTokens(),
      };
      if (respect !== 'none') {
        const verdict = guard.check(shape);
        if (verdict.skip && (respect === 'all' || verdict.why === 'unchanged')) {
          passes.push({
            pass: 'compression',
            strategy: effective.strategy,
            outcome: 'no-op',
            reason: 'no-progress-backoff',
            message: verdict.message,
            tokensBefore: shape.tokens,
            tokensAfter: shape.tokens,
            entriesBefore: history.length,
            entriesAfter: history.length,
            durationMs: 0,
            warnings: [],
          });
          return;
        }
      }
      chainAttempted = true;
      const outcome = await runCompressionChain({
        history,
        strategies,
        budget: () => budget().strategyBudget,
        stillTooLarge,
        signal,
        summarizer: options.summarizer,
        activeTodos: options.getActiveTodos?.(),
        transcriptPath: options.transcriptPath,
      });
      passes.push(...outcome.passes);
      if (outcome.applied) {
        await noteApplied(shape.chain);
      } else if (!outcome.aborted) {
        guard.recordNoProgress(shape);
      }
    };

    const fail = (reason: 'overhead-too-large' | 'cannot-shrink-further', decision: CompressionDecision | undefined): never => {
      const turn = finish(decision);
      throw new ContextWindowExceededError({
        projectedTokens: turn.request.calibratedTokens,
        availableTokens: turn.request.availableTokens,
        reason,
        overheadTokens: turn.request.overheadTokens + estimate().pendingTokens,
        report: turn,
      });
    };

    const start = budget();
    if (!start.thresholdReachable) {
      const key = `${start.thresholdTokens}:${estimate().overheadTokens + estimate().pendingTokens}`;
      if (unreachableReported !== key) {
        unreachableReported = key;
        warnings.push({
          type: 'threshold-unreachable',
          message: `the system instructions, tool definitions and pending message alone take ${integer.format(estimate().overheadTokens + estimate().pendingTokens)} tokens, over the threshold of ${integer.format(start.thresholdTokens)}: compression runs only when the request would not fit the window (${integer.format(start.availableTokens)} tokens)`,
        });
      }
    } else {
      unreachableReported = undefined;
    }
    if (mode !== 'forced' && !start.fitsAtAll) return fail('overhead-too-large', undefined);

    if (mode === 'forced') {
      await attemptChain('none', overThreshold);
      await history.waitForTokenUpdates();
      return finish(undefined);
    }

    let decision: CompressionDecision | undefined;
    if (mode === 'threshold') {
      decision = decideTurn(estimate(), start, effective);
      if (decision.compress) await attemptChain('all', overThreshold);
    }
    if (doesNotFit()) {
      // The emergency path: every strategy (unless nothing changed since they last could not help), then the cut of
      // the largest tool results. An aborted caller is not sending; it gets the abort, not a half-done emergency.
      signal?.throwIfAborted();
      emergency = true;
      if (!chainAttempted) await attemptChain('unchanged', doesNotFit);
      signal?.throwIfAborted();
      if (doesNotFit()) {
        const cut = await runEmergencyCut(history, {
          maxHistoryTokens: getHistoryTokenTarget(budget().strategyBudget),
          transcriptPath: options.transcriptPath,
        });
        passes.push(cut);
        if (cut.outcome === 'applied') await noteApplied(chainNames());
      }
      if (doesNotFit()) return fail('cannot-shrink-further', decision);
    }
    await history.waitForTokenUpdates();
    return finish(decision);
  };

  const updateSettings = (patch: CompressionSettingsInput) => {
    const previousStrategy = activeStrategyName();
    settings = parseCompressionSettings({ ...settings, ...patch }, { strategies: registry });
    settingsVersion += 1;
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
    recordUsage: (usage) => estimator.recordUsage(usage),
    getCalibration: () => calibration.getState(),
    estimateRequest: (pendingTokens = 0) => estimator.estimate(pendingTokens),
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
      settingsVersion += 1;
    },
    getEffectiveSettings,
    dispose: unsubscribe,
  };
}
