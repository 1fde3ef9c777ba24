import { formatCount } from '../text/format-count.js';
import { meterSummarizer, type MeteredSummarizer } from '../cost/meter-summarizer.js';
import { ContextWindowExceededError } from '../errors/context-window-exceeded-error.js';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { deepFreeze } from '../history/deep-freeze.js';
import type { HistoryEntry } from '../history/history-entry.js';
import type { HistoryService } from '../history/history-service.js';
import { parseApiProfiles, type ApiProfile } from '../profiles/api-profile.js';
import { selectCondensingProfile, type SelectedCondensingProfile } from '../profiles/select-condensing-profile.js';
import {
  parseCompressionSettings,
  type CompressionSettings,
  type CompressionSettingsInput,
} from '../settings/compression-settings.js';
import { getHistoryTokenTarget } from '../strategy/compression-budget.js';
import type { StrategyWarning } from '../strategy/compression-result.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { CostModel } from '../strategy/cost-model.js';
import { createStrategyRegistry, type StrategyRegistry } from '../strategy/strategy-registry.js';
import type { Summarizer } from '../strategy/summarizer.js';
import type { Todo } from '../strategy/todo.js';
import type { CompressionDecision } from '../thresholds/decide-compression.js';
import {
  createTokenCalibration,
  type CalibrationState,
  type TokenCalibrationOptions,
} from '../tokens/token-calibration.js';
import { createCachePlanner, type CachePlanningOptions } from './cache-planner.js';
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
  /**
   * The model's context window, in the provider's tokens. Optional with `profiles`: the active profile's
   * `contextWindow` is used then.
   */
  readonly contextLimit?: number;
  /**
   * API profiles (spec 004 FR-PR-001): the conversation runs on the one `compression.profile` names (the first by
   * default), LLM strategies condense with the one `compression.condensingProfile` names (FR-PR-002: falling back
   * to the conversation's). A profile supplies the window, the reserved output tokens, its threshold (FR-TH-001),
   * the cost model and the summarizer; `contextLimit`, `summarizer` and `costModel` given here are used where the
   * profile has none. Validated at creation.
   */
  readonly profiles?: readonly ApiProfile[];
  /**
   * Prices the conversation's model. With one, cache-aware planning is on: see `cachePlanning`. Each pass also
   * reports what its summarizer calls cost.
   */
  readonly costModel?: CostModel;
  /**
   * Cache-aware planning, on when a cost model is known (here or in the active profile). A compaction rewrites the
   * provider's cached prompt from its first changed entry, so the next call writes that part to the cache instead
   * of reading it. Before applying a density result or a compression triggered by the threshold while the request
   * still fits, the orchestrator weighs what it saves over the next calls against that rewrite and the summarizer
   * calls (estimated before they are made, see `estimateStrategyCost`), and declines what does not pay: the pass is
   * a `does-not-pay` no-op whose `economics` and message say why. A forced compression, the emergency path and a
   * density pass in a turn that compresses anyway are never declined. `false` turns it off.
   * @default { horizonTurns: 'auto', minimumHorizonTurns: 10 }
   */
  readonly cachePlanning?: CachePlanningOptions | false;
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
   * @throws {@link InvalidSettingsError} or {@link UnknownStrategyError}; {@link InvalidApiProfileError} when
   *   `compression.profile` names no API profile (the message lists the known ids).
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

function invalidOption(path: string, message: string): InvalidSettingsError {
  return new InvalidSettingsError({ issues: [{ path, message }] });
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
 * const report = await orchestrator.ensureCompressionBeforeSend(); // throws ContextWindowExceededError if it cannot fit
 * const response = await callModel(history.getCurated());
 * orchestrator.recordUsage({ inputTokens: response.usage.inputTokens });
 * ```
 */
export function createCompressionOrchestrator(options: CompressionOrchestratorOptions): CompressionOrchestrator {
  const { history } = options;
  const registry = 'register' in options.strategies ? options.strategies : createStrategyRegistry(options.strategies);
  const profiles = options.profiles === undefined ? undefined : parseApiProfiles(options.profiles);
  if (profiles?.length === 0) throw invalidOption('profiles', 'Expected at least one API profile, got none');
  if (options.contextLimit === undefined ? profiles === undefined : !(Number.isFinite(options.contextLimit) && options.contextLimit > 0)) {
    throw invalidOption('contextLimit', `Expected a positive number of tokens (or API profiles with a context window), got ${options.contextLimit}`);
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
  // With profiles, the conversation runs on the first one unless the settings name another.
  const parseSettings = (input: CompressionSettingsInput | undefined): CompressionSettings => {
    const parsed = parseCompressionSettings(
      profiles !== undefined && input?.['compression.profile'] === undefined
        ? { ...input, 'compression.profile': profiles[0]!.id }
        : input,
      { strategies: registry },
    );
    // Throws when the conversation profile does not exist: nothing can run without it.
    if (profiles !== undefined) selectCondensingProfile(profileSelection(parsed));
    return parsed;
  };
  const profileSelection = (current: CompressionSettings) => ({
    profiles: profiles ?? [],
    conversationProfile: current['compression.profile'],
    condensingProfile: current['compression.condensingProfile'],
  });
  let settings = parseSettings(options.settings);
  const activeProfile = (): ApiProfile | undefined =>
    profiles?.find((profile) => profile.id === settings['compression.profile']);
  const contextLimit = (): number => activeProfile()?.contextWindow ?? options.contextLimit!;
  const guard = createNoProgressGuard(retryAfterGrowth * contextLimit());
  // Condensation: the condensing profile's summarizer (FR-PR-002), metered so each pass reports its calls.
  let condensing:
    | { key: string; selected: SelectedCondensingProfile | undefined; meter: MeteredSummarizer | undefined; reported: boolean }
    | undefined;
  const condensation = () => {
    const key = `${settings['compression.profile']}\u0000${settings['compression.condensingProfile'] ?? ''}`;
    if (condensing?.key !== key) {
      const selected = profiles === undefined ? undefined : selectCondensingProfile(profileSelection(settings));
      const summarizer = selected?.summarizer ?? options.summarizer;
      condensing = {
        key,
        selected,
        meter: summarizer === undefined ? undefined : meterSummarizer(summarizer, history.tokenCounter),
        reported: false,
      };
    }
    return condensing;
  };
  const conversationCostModel = (): CostModel | undefined => activeProfile()?.costModel ?? options.costModel;
  const condensingCostModel = (): CostModel | undefined =>
    condensation().selected?.profile?.costModel ?? conversationCostModel();
  const planner =
    options.cachePlanning === false
      ? undefined
      : createCachePlanner({
          history,
          horizonTurns: () => {
            const horizon = options.cachePlanning === false ? undefined : options.cachePlanning?.horizonTurns;
            if (typeof horizon === 'number') return horizon;
            const minimum = options.cachePlanning === false ? 10 : (options.cachePlanning?.minimumHorizonTurns ?? 10);
            return Math.max(minimum, sends);
          },
          conversationCostModel,
          condensingCostModel,
          outputRatio: () => condensation().meter?.outputRatio(),
          cachedTokens: () => {
            if (lastSent.length === 0) return 0;
            const current = history.getCurated();
            let same = 0;
            while (same < current.length && same < lastSent.length && current[same] === lastSent[same]) same += 1;
            return history.getOverheadTokens() + history.tokenCounter.countEntries(current.slice(0, same));
          },
        });
  // The history the last request sent: the provider's prompt cache holds it (cache-aware planning).
  let lastSent: readonly HistoryEntry[] = [];
  // Requests sent so far: the conversation's length in calls, for the `auto` horizon.
  let sends = 0;
  const takeSummarizerCalls = () => {
    const calls = condensation().meter?.take() ?? [];
    const costModel = condensingCostModel();
    return {
      calls,
      usd: costModel === undefined ? undefined : calls.reduce((sum, call) => sum + costModel.price(call.usage), 0),
    };
  };
  let thresholdOverride: number | undefined;
  // Starts dirty: content may already be there (spec 000 §2a "init → dirty = true").
  let densityDirty = true;
  // What the no-progress guard keys on.
  let historyVersion = 0;
  let rewriteVersion = 0;
  let settingsVersion = 0;
  // Usage reports seen: a turn's request size is worked out again after one (see `runTurn`).
  let usageVersion = 0;
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

  // What every check of every turn reads: resolved again only when the settings, the override, the profile or the
  // active strategy changed (settings are replaced, never mutated, on update).
  let effectiveMemo:
    | {
        readonly settings: CompressionSettings;
        readonly thresholdOverride: number | undefined;
        readonly profile: string;
        readonly strategy: CompressionStrategy;
        readonly effective: EffectiveCompressionSettings;
      }
    | undefined;

  const getEffectiveSettings = (profile = settings['compression.profile']): EffectiveCompressionSettings => {
    const strategy = getActiveStrategy();
    const memo = effectiveMemo;
    if (
      memo !== undefined &&
      memo.settings === settings &&
      memo.thresholdOverride === thresholdOverride &&
      memo.profile === profile &&
      memo.strategy === strategy
    ) {
      return memo.effective;
    }
    const effective = resolveEffectiveFor(profile, strategy);
    effectiveMemo = { settings, thresholdOverride, profile, strategy, effective };
    return effective;
  };

  const resolveEffectiveFor = (profile: string, strategy: CompressionStrategy): EffectiveCompressionSettings => {
    const ofProfile = profiles?.find((candidate) => candidate.id === profile);
    // A profile's own threshold, unless compression.profileThresholds names it (FR-TH-001).
    const fromProfiles = Object.fromEntries(
      (profiles ?? []).flatMap((candidate) => (candidate.threshold === undefined ? [] : [[candidate.id, candidate.threshold]])),
    );
    const effective = resolveEffectiveSettings({
      strategy,
      settings: { ...settings, 'compression.profileThresholds': { ...fromProfiles, ...settings['compression.profileThresholds'] } },
      profile,
      thresholdOverride,
      contextLimit: ofProfile?.contextWindow ?? options.contextLimit ?? contextLimit(),
      workspaceRoot,
    });
    const reserved = Math.max(effective.reservedOutputTokens, ofProfile?.maxOutputTokens ?? 0);
    // Handed out again on every call: frozen, so no caller can change what the next one reads.
    return deepFreeze(reserved === effective.reservedOutputTokens ? effective : { ...effective, reservedOutputTokens: reserved });
  };

  const budgetFor = (
    effective: EffectiveCompressionSettings,
    pendingTokens: number,
    estimate = estimator.estimate(pendingTokens),
  ): RequestBudget =>
    planRequestBudget({
      contextLimit: effective.contextLimit,
      threshold: effective.threshold.value,
      reservedOutputTokens: effective.reservedOutputTokens,
      targetTokens: options.targetTokens,
      estimate,
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

  const runDensity = async (weigh?: Parameters<typeof runDensityPass>[3]): Promise<PassReport | undefined> => {
    if (!densityDirty) return undefined;
    try {
      return await runDensityPass(history, getActiveStrategy(), getEffectiveSettings().density, weigh);
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
    // A condensing profile that cannot be used is reported once per selection, not every turn.
    const selection = condensation();
    const warnings: StrategyWarning[] = selection.reported ? [] : [...(selection.selected?.warnings ?? [])];
    selection.reported = true;
    const effective = getEffectiveSettings();
    // Decisions of the whole turn use the calibration it started with; a compaction resets it at the end.
    // The request's size and limits, worked out again only when something they rest on changed: the history (any
    // event, a finished recount included), the calibration, or a usage report.
    let sized: { readonly on: readonly number[]; readonly estimate: RequestEstimate; readonly budget: RequestBudget } | undefined;
    const size = () => {
      const on = [historyVersion, usageVersion, history.getTotalTokens(), history.getOverheadTokens(), calibration.getFactor()];
      if (sized === undefined || on.some((value, index) => value !== sized!.on[index])) {
        const estimate = estimator.estimate(pendingTokens);
        sized = { on, estimate, budget: budgetFor(effective, pendingTokens, estimate) };
      }
      return sized;
    };
    const budget = () => size().budget;
    const estimate = () => size().estimate;
    const doesNotFit = () => estimate().calibratedTokens > budget().availableTokens;
    const overThreshold = () => decideTurn(estimate(), budget(), effective).compress;
    // Cache-aware planning may decline only what is optional: a threshold-mode turn whose request fits the window
    // and has not reached the absolute trigger.
    const mayDecline = () => {
      if (planner === undefined || mode !== 'threshold' || doesNotFit()) return false;
      return decideTurn(estimate(), budget(), effective).trigger !== 'context-window';
    };
    if (mode !== 'forced') {
      // A density rewrite is free when this turn compresses anyway: only weigh it when the request is under the line.
      const weighDensity = mayDecline() && !overThreshold() ? planner?.density : undefined;
      const density = await runDensity(weighDensity);
      if (density !== undefined) passes.push(density);
    }
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
      // A turn that ends with a request that fits is followed by a model call (not a forced compression's turn).
      if (mode !== 'forced' && request.fits && planner !== undefined) {
        lastSent = history.getCurated();
        sends += 1;
      }
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
      const weigh = respect === 'all' && mayDecline() ? planner : undefined;
      const outcome = await runCompressionChain({
        history,
        strategies,
        budget: () => budget().strategyBudget,
        stillTooLarge,
        signal,
        summarizer: condensation().meter?.summarizer,
        condensingPrompt: condensation().selected?.profile?.condensingPrompt,
        activeTodos: options.getActiveTodos?.(),
        transcriptPath: options.transcriptPath,
        ...(weigh === undefined ? {} : { weigh }),
        takeSummarizerCalls,
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
          message: `the system instructions, tool definitions and pending message alone take ${formatCount(estimate().overheadTokens + estimate().pendingTokens)} tokens, over the threshold of ${formatCount(start.thresholdTokens)}: compression runs only when the request would not fit the window (${formatCount(start.availableTokens)} tokens)`,
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
    settings = parseSettings({ ...settings, ...patch });
    settingsVersion += 1;
    // A newly selected continuous strategy should see the whole history on the next send.
    if (activeStrategyName() !== previousStrategy) densityDirty = true;
  };

  return {
    history,
    registry,
    ensureCompressionBeforeSend: (runOptions = {}) => serialize(() => runTurn(runOptions, 'threshold')),
    ensureDensityOptimized: () => serialize(() => runDensity()),
    performCompression: (runOptions = {}) => serialize(() => runTurn(runOptions, 'forced')),
    enforceContextWindow: (runOptions) => serialize(() => runTurn(runOptions, 'emergency')),
    shouldCompress,
    recordUsage: (usage) => {
      usageVersion += 1;
      return estimator.recordUsage(usage);
    },
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
