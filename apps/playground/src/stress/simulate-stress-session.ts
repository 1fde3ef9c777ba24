import {
  ContextWindowExceededError,
  HistoryService,
  createCompressionOrchestrator,
  type ContextWindowExceededReason,
  type HistoryEntry,
  type TokenCalibrationOptions,
  type TokenCounter,
  type TurnReport,
} from '@ctx/core';
import { checkProviderValidity, type ProviderValidity } from '@ctx/retention';
import { detectStressLoops, type StressLoop } from './detect-stress-loops.js';
import type { StressChain } from './stress-chains.js';
import { createStressContent, type StressContent } from './stress-content.js';
import type { StressScenario, StressTurn } from './stress-scenario.js';
import { compactionsOf, type StressCall, type StressSend } from './stress-send.js';

/**
 * A request over the context window. The simulated provider rejects it with its count in the error, as Anthropic
 * ("prompt is too long: N tokens > M maximum") and OpenAI ("…your messages resulted in N tokens") do; the agent
 * feeds that count to `recordUsage()` and asks again.
 */
export interface StressOverflow {
  readonly sendIndex: number;
  readonly turn: number;
  readonly call: StressCall;
  /** The provider's count of the request. */
  readonly realTokens: number;
  /** Ours, as the history service counted it. */
  readonly ourTokens: number;
  readonly contextLimit: number;
  /** What `ensureCompressionBeforeSend()` reported before this send. */
  readonly report: TurnReport;
  /**
   * True when the orchestrator had no real count to go by yet (the provider had reported no usage and rejected
   * nothing): its only guide was the calibration's `initialFactor`, so an undercount larger than that factor
   * cannot be seen before this rejection reveals it.
   */
  readonly blind: boolean;
}

/**
 * How a session ended:
 * - `ok`: every turn was played.
 * - `cannot-fit`: `ensureCompressionBeforeSend()` threw {@link ContextWindowExceededError}; the agent was told the
 *   request cannot fit and nothing was sent (not an overflow). The session ends there.
 * - `error`: anything else was thrown (a strategy failed with no fallback left, a bug); the session ends there.
 */
export type StressOutcome =
  | { readonly type: 'ok' }
  | {
      readonly type: 'cannot-fit';
      readonly turn: number;
      readonly call: StressCall;
      readonly reason: ContextWindowExceededReason;
      readonly projectedTokens: number;
      readonly availableTokens: number;
      readonly message: string;
      readonly report: TurnReport | undefined;
    }
  | { readonly type: 'error'; readonly turn: number; readonly call: StressCall; readonly name: string; readonly message: string };

/** One cell of the stress matrix: a scenario run through one chain. */
export interface StressSessionResult {
  readonly scenario: string;
  readonly chain: string;
  /** Model calls made (a call refused with `ContextWindowExceededError` is not one). */
  readonly sends: number;
  /** Compression and emergency passes that were applied, over the session. */
  readonly compactions: number;
  /** The largest provider count of a request sent, and as a fraction of the window. */
  readonly maxRealTokens: number;
  readonly maxRealShare: number;
  readonly overflows: readonly StressOverflow[];
  readonly loops: readonly StressLoop[];
  readonly outcome: StressOutcome;
  /** Turns played to the end. */
  readonly turnsCompleted: number;
  /** Every send of the session, in order, with the orchestrator's report (for drilling into a cell). */
  readonly sendLog: readonly StressSend[];
  /** Problems of the final history (with system and tools) as an Anthropic and an OpenAI request; empty = valid. */
  readonly validity: ProviderValidity;
  /** The calibration factor in effect at the end. */
  readonly calibrationFactor: number;
  readonly durationMs: number;
}

/** How many times the agent asks again after the provider rejected a request as over the window. */
const maxAttempts = 3;

/** Options of {@link simulateStressSession}. */
export interface SimulateStressSessionOptions {
  readonly scenario: StressScenario;
  readonly chain: StressChain;
  /** Shared by every session of a run, so equal texts are tokenized once. */
  readonly tokenCounter: TokenCounter;
  /** The scenario's generated content; pass the same object to every chain of a scenario. */
  readonly content?: StressContent;
  /**
   * The orchestrator's calibration (tests turn it off to make the orchestrator blind to the token ratio).
   * @default the orchestrator's default
   */
  readonly calibration?: TokenCalibrationOptions | false;
}

/**
 * Plays a scenario through the real orchestrator the way an agent calls a model (spec 002's `simulateSession`,
 * turned into an agent loop). Each turn: the user's message is added, then the model is called —
 * `ensureCompressionBeforeSend()`, the simulated provider counts `ceil(ratio × our tokens of the request)` (a count
 * over the window is an overflow), `recordUsage()` when the provider reports usage — and answers with a text entry;
 * when the turn has tool calls, the model's parallel calls (one `ai` entry) and their results (one `tool` entry)
 * follow, the model is called again the same way and answers once more. A {@link ContextWindowExceededError} ends
 * the session as `cannot-fit`. A request over the window is an overflow: the provider rejects it naming its count
 * (whether or not it reports usage on success — Anthropic and OpenAI both do in their errors), the agent records
 * that count with `recordUsage()` and asks again, up to {@link maxAttempts} times, as the root README's loop does.
 *
 * @returns The cell's figures, overflows, loops and outcome; never throws for what the orchestrator does.
 */
export async function simulateStressSession(options: SimulateStressSessionOptions): Promise<StressSessionResult> {
  const { scenario, chain, tokenCounter } = options;
  const started = performance.now();
  const content = options.content ?? createStressContent(scenario);
  const history = new HistoryService({ tokenCounter, system: content.system, tools: content.tools });
  const strategies = chain.create();
  const [active, ...fallbacks] = strategies;
  const orchestrator = createCompressionOrchestrator({
    history,
    strategies,
    contextLimit: scenario.contextLimit,
    ...(options.calibration === undefined ? {} : { calibration: options.calibration }),
    settings: {
      ...(active === undefined ? {} : { 'compression.strategy': active.name }),
      'compression.fallbackStrategies': fallbacks.map((strategy) => strategy.name),
      'compression.reservedOutputTokens': scenario.reservedOutputTokens,
    },
  });

  const sends: StressSend[] = [];
  const overflows: StressOverflow[] = [];
  let outcome: StressOutcome = { type: 'ok' };
  let turnsCompleted = 0;

  /** Asks once: `rejected` when the request was over the window (the provider refused it, naming its count). */
  const sendOnce = async (turn: number, call: StressCall, plan: StressTurn): Promise<boolean | 'rejected'> => {
    await history.waitForTokenUpdates();
    const tokensBefore = history.getTotalTokens();
    let report: TurnReport;
    try {
      report = await orchestrator.ensureCompressionBeforeSend();
    } catch (error) {
      if (ContextWindowExceededError.isInstance(error)) {
        outcome = {
          type: 'cannot-fit',
          turn,
          call,
          reason: error.reason,
          projectedTokens: error.projectedTokens,
          availableTokens: error.availableTokens,
          message: error.message,
          report: error.report,
        };
      } else {
        outcome = {
          type: 'error',
          turn,
          call,
          name: error instanceof Error ? error.name : 'Error',
          message: error instanceof Error ? error.message : String(error),
        };
      }
      return false;
    }
    await history.waitForTokenUpdates();
    const ourTokens = history.getTotalTokens();
    const realTokens = Math.ceil(plan.tokenRatio * ourTokens);
    const record: StressSend = {
      index: sends.length,
      turn,
      call,
      tokensBefore,
      ourTokens,
      realTokens,
      tokenRatio: plan.tokenRatio,
      contextLimit: scenario.contextLimit,
      report,
      rejected: realTokens > scenario.contextLimit,
    };
    sends.push(record);
    if (record.rejected) {
      const blind = report.request.calibration.samples === 0;
      overflows.push({ sendIndex: record.index, turn, call, realTokens, ourTokens, contextLimit: scenario.contextLimit, report, blind });
      orchestrator.recordUsage({ inputTokens: realTokens });
      return 'rejected';
    }
    if (plan.usageMetadata) orchestrator.recordUsage({ inputTokens: realTokens });
    return true;
  };


  /** One model call; false when the session ends (the request cannot fit, or something threw). */
  const send = async (turn: number, call: StressCall): Promise<boolean> => {
    const plan = scenario.turns[turn - 1];
    if (plan === undefined) throw new RangeError(`Expected turn ${turn} of ${scenario.name} to exist`);
    for (let attempt = 1; ; attempt++) {
      const sent = await sendOnce(turn, call, plan);
      if (sent !== 'rejected') return sent;
      // Asked again with the rejection's count recorded; a provider that keeps rejecting ends the turn's retries.
      if (attempt === maxAttempts) return true;
    }
  };

  const add = (entry: HistoryEntry | undefined) => {
    if (entry !== undefined) history.add(entry);
  };

  for (let turn = 1; turn <= scenario.turns.length; turn++) {
    const entries = content.turn(turn);
    add(entries.user);
    if (!(await send(turn, 'user-message'))) break;
    add(entries.answer);
    if (entries.toolCalls !== undefined) {
      add(entries.toolCalls);
      add(entries.toolResults);
      if (!(await send(turn, 'tool-results'))) break;
      add(entries.closingAnswer);
    }
    turnsCompleted = turn;
  }

  await history.waitForTokenUpdates();
  const validity = checkProviderValidity({ ...history.toConversation(), history: history.getCurated() });
  const calibrationFactor = orchestrator.getCalibration().factor;
  orchestrator.dispose();
  const maxRealTokens = sends.reduce((max, record) => (record.rejected ? max : Math.max(max, record.realTokens)), 0);
  return {
    scenario: scenario.name,
    chain: chain.name,
    sends: sends.length,
    compactions: sends.reduce((total, record) => total + compactionsOf(record.report).length, 0),
    maxRealTokens,
    maxRealShare: maxRealTokens / scenario.contextLimit,
    overflows,
    loops: detectStressLoops(sends, { reservedOutputTokens: scenario.reservedOutputTokens }),
    outcome,
    turnsCompleted,
    sendLog: sends,
    validity,
    calibrationFactor,
    durationMs: performance.now() - started,
  };
}
