import {
  applyDensityResultToHistory,
  createTokenCounter,
  parseHistory,
  type CompressionStrategy,
  type ContentBlock,
  type DensityConfig,
  type HistoryEntry,
  type Tokenizer,
} from '@ctx/core';
import { checkProviderValidity, findNewValidityProblems, type ValidityProblem } from '@ctx/retention';
import fc from 'fast-check';
import { createTestCompressionContext } from './create-test-compression-context.js';
import { MockSummarizer } from './mocks/mock-summarizer.js';
import { buildRandomHistory, randomHistorySpec, type RandomHistorySpec } from './random-history.js';

/** Runs per strategy when neither `runs` nor `CTX_PROPERTY_RUNS` says otherwise: enough to catch the common bugs, fast in CI. */
export const defaultPropertyRuns = 100;

/** Options of {@link checkPropertyValidity}. */
export interface CheckPropertyValidityOptions {
  /** The strategy under test, or a factory (a fresh instance is made for every call when it is a factory). */
  readonly strategy: CompressionStrategy | (() => CompressionStrategy);
  /**
   * Random histories to try.
   * @default the `CTX_PROPERTY_RUNS` environment variable, else {@link defaultPropertyRuns}
   */
  readonly runs?: number;
  /**
   * Seed of the generator; a failure report names the seed to replay it with.
   * @default the `CTX_PROPERTY_SEED` environment variable, else a fresh random seed
   */
  readonly seed?: number;
  /** The counterexample path of a failure report: with `seed`, replays exactly that (shrunk) case. */
  readonly path?: string;
  /**
   * Counts tokens for the budgets and the "never grows" check.
   * @default one token per 4 characters
   */
  readonly tokenizer?: Tokenizer;
  /** Density settings passed to `optimize()`; each run turns recency pruning on or off at random on top of them. */
  readonly densityConfig?: Partial<DensityConfig>;
}

/** The shrunk (smallest) failing case of {@link checkPropertyValidity}. */
export interface PropertyValidityFailure {
  /** What broke, then the counterexample and how to replay it. */
  readonly message: string;
  /** The counterexample: the budget, then one line per entry (long strings abbreviated). */
  readonly counterexample: string;
  readonly seed: number;
  /** Pass with `seed` to replay exactly this case. */
  readonly path: string;
  readonly shrinks: number;
}

/** What {@link checkPropertyValidity} found. */
export interface PropertyValidityReport {
  readonly strategy: string;
  readonly passed: boolean;
  /** Random histories tried (up to and including the first failure). */
  readonly runs: number;
  readonly seed: number;
  readonly failure?: PropertyValidityFailure;
}

/** One generated case: a history and what to run on it. */
interface PropertyCase {
  readonly spec: RandomHistorySpec;
  /** Context window as a share of the history's tokens: below 1 the history does not fit. */
  readonly windowShare: number;
  readonly recencyPruning: boolean;
  readonly recencyRetention: number;
}

const propertyCase: fc.Arbitrary<PropertyCase> = fc.record({
  spec: randomHistorySpec,
  windowShare: fc.double({ min: 0.02, max: 1.5, noNaN: true }),
  recencyPruning: fc.boolean(),
  recencyRetention: fc.integer({ min: 1, max: 3 }),
});

const baseDensityConfig: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/repo',
};

interface Environment {
  readonly process?: { readonly env?: Readonly<Record<string, string | undefined>> };
}

function environmentInteger(name: string): number | undefined {
  const value = (globalThis as Environment).process?.env?.[name];
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new Error(`Expected ${name} to be an integer, got ${JSON.stringify(value)}`);
  return parsed;
}

/**
 * The run count a property check uses when its options do not say: `CTX_PROPERTY_RUNS` when set (raise it for a
 * big run, e.g. `CTX_PROPERTY_RUNS=10000`), else {@link defaultPropertyRuns}.
 *
 * @throws Error when `CTX_PROPERTY_RUNS` is set but is not an integer ≥ 1.
 */
export function resolvePropertyRuns(runs?: number): number {
  const resolved = runs ?? environmentInteger('CTX_PROPERTY_RUNS') ?? defaultPropertyRuns;
  if (!Number.isInteger(resolved) || resolved < 1) throw new Error(`Expected the property run count to be an integer ≥ 1, got ${resolved}`);
  return resolved;
}

class PropertyViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PropertyViolation';
  }
}

function describeProblems(label: string, introduced: { anthropic: readonly ValidityProblem[]; openai: readonly ValidityProblem[] }): string | undefined {
  const lines = [
    ...introduced.anthropic.map((problem) => `Anthropic ${problem.rule}${problem.path === undefined ? '' : ` at ${problem.path}`}: ${problem.message}`),
    ...introduced.openai.map((problem) => `OpenAI ${problem.rule}${problem.path === undefined ? '' : ` at ${problem.path}`}: ${problem.message}`),
  ];
  return lines.length === 0 ? undefined : `${label} made the request invalid: ${lines.join('; ')}`;
}

/** A string as JSON, cut to 60 characters so a huge tool output does not drown the report. */
function short(value: string): string {
  return value.length > 60 ? `${JSON.stringify(value.slice(0, 40))}… (${value.length} characters)` : JSON.stringify(value);
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return `text ${short(block.text)}`;
    case 'thinking':
      return block.redacted === true ? 'redacted thinking' : `thinking ${short(block.thought)}${block.signature === undefined ? ' (unsigned)' : ''}`;
    case 'tool_call':
      return `tool_call ${block.id} ${block.name} ${short(JSON.stringify(block.parameters))}`;
    case 'tool_response':
      return `tool_response ${block.callId}${block.isError === true ? ' (error)' : ''} ${short(typeof block.result === 'string' ? block.result : JSON.stringify(block.result))}`;
    default:
      return block.type;
  }
}

/** One line per entry, one clause per block: a counterexample a person can read at a glance. */
function describeHistory(history: readonly HistoryEntry[]): string {
  return history.map((entry, index) => `  [${index}] ${entry.speaker}: ${entry.blocks.map(describeBlock).join(' | ')}`).join('\n');
}

async function runCase(createStrategy: () => CompressionStrategy, testCase: PropertyCase, options: CheckPropertyValidityOptions): Promise<void> {
  const input = parseHistory(buildRandomHistory(testCase.spec));
  const tokenizer = options.tokenizer ?? { specificationVersion: 'v1' as const, name: 'characters/4', countTokens: (value: string) => Math.ceil(value.length / 4) };
  const counter = createTokenCounter(tokenizer);
  const inputTokens = counter.countEntries(input);
  const before = checkProviderValidity({ history: input });
  const failures: string[] = [];
  const checkOutput = (label: string, output: readonly HistoryEntry[]) => {
    const problem = describeProblems(label, findNewValidityProblems(before, checkProviderValidity({ history: output })));
    if (problem !== undefined) failures.push(problem);
  };

  const optimizing = createStrategy();
  if (typeof optimizing.optimize === 'function') {
    const config: DensityConfig = {
      ...baseDensityConfig,
      ...options.densityConfig,
      recencyPruning: testCase.recencyPruning,
      recencyRetention: testCase.recencyRetention,
    };
    const result = optimizing.optimize(input, config);
    // The same validation HistoryService.applyDensityResult runs: a malformed result fails here with its message.
    const optimized = applyDensityResultToHistory(input, result, optimizing.name);
    const optimizedTokens = counter.countEntries(optimized);
    if (optimizedTokens > inputTokens) failures.push(`optimize() grew the history from ${inputTokens} to ${optimizedTokens} tokens`);
    checkOutput('optimize()', optimized);
  }

  const compressing = createStrategy();
  const summarizer = compressing.requiresLLM
    ? new MockSummarizer((request) => `Summary of ${request.entries.length} earlier entries.`)
    : new MockSummarizer();
  const context = createTestCompressionContext({
    history: input,
    tokenizer,
    contextLimit: Math.max(1, Math.round(inputTokens * testCase.windowShare)),
    threshold: compressing.trigger.defaultThreshold,
    summarizer,
  });
  const result = await compressing.compress(context);
  if (result.type === 'applied') checkOutput(`compress() with a window of ${context.budget.contextLimit} tokens`, result.newHistory);

  if (failures.length > 0) throw new PropertyViolation(failures.join('\n'));
}

/**
 * Property check of provider validity: on random agent sessions (parallel tool calls, results in one or several
 * entries, signed and redacted thinking, a turn still in its tool loop at the end, interrupted calls, tool outputs
 * far larger than the budget, empty or blank text, unicode), `compress()` under random budgets and — for strategies
 * with density — `optimize()` (applied with the validation of `HistoryService.applyDensityResult`) must never
 * produce a request Anthropic or OpenAI rejects that the input did not already have (`findNewValidityProblems`
 * from `@ctx/retention`, including the lost thinking of the turn still in its tool loop), and a density result must
 * never grow the token count. A failure is shrunk to a minimal counterexample, printed with the seed and path that
 * replay it. Never throws for a failing strategy: read `passed` and `failure`.
 *
 * @example
 * ```ts
 * const report = await checkPropertyValidity({ strategy: () => createMyStrategy(), runs: 1000 });
 * if (!report.passed) throw new Error(report.failure?.message);
 * ```
 */
export async function checkPropertyValidity(options: CheckPropertyValidityOptions): Promise<PropertyValidityReport> {
  const createStrategy =
    typeof options.strategy === 'function' ? options.strategy : () => options.strategy as CompressionStrategy;
  const strategyName = createStrategy().name;
  const runs = resolvePropertyRuns(options.runs);
  const seed = options.seed ?? environmentInteger('CTX_PROPERTY_SEED');
  const details = await fc.check(
    fc.asyncProperty(propertyCase, (testCase) => runCase(createStrategy, testCase, options)),
    {
      numRuns: runs,
      ...(seed === undefined ? {} : { seed }),
      ...(options.path === undefined ? {} : { path: options.path, endOnFailure: true }),
    },
  );
  if (!details.failed || details.counterexample === null) {
    return { strategy: strategyName, passed: true, runs: details.numRuns, seed: details.seed };
  }
  const [testCase] = details.counterexample;
  const history = buildRandomHistory(testCase.spec);
  const counterexample = [
    `window share ${testCase.windowShare} of the history's tokens; optimize() with recencyPruning ${testCase.recencyPruning}, recencyRetention ${testCase.recencyRetention}`,
    describeHistory(history),
  ].join('\n');
  const cause = details.errorInstance;
  const what =
    cause instanceof PropertyViolation
      ? cause.message
      : `threw ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`;
  const path = details.counterexamplePath ?? '';
  const message = [
    `Strategy "${strategyName}" failed the provider-validity property after ${details.numRuns} run(s) (shrunk ${details.numShrinks} time(s)):`,
    what,
    'Minimal counterexample:',
    counterexample,
    `Replay: checkPropertyValidity({ strategy, seed: ${details.seed}, path: ${JSON.stringify(path)} }) or CTX_PROPERTY_SEED=${details.seed}`,
  ].join('\n');
  return {
    strategy: strategyName,
    passed: false,
    runs: details.numRuns,
    seed: details.seed,
    failure: { message, counterexample, seed: details.seed, path, shrinks: details.numShrinks },
  };
}
