import {
  HistoryService,
  assertCompressionStrategy,
  describeToolPairingProblem,
  findNewToolPairingProblems,
  isEmptyDensityResult,
  parseHistory,
  type CompressionResult,
  type CompressionStrategy,
  type Conversation,
  type HistoryEntry,
  type NoOpReason,
} from '@ctx/core';
import {
  checkProviderValidity,
  findNewValidityProblems,
  listUserTexts,
  type ValidityProblem,
} from '@ctx/retention';
import {
  ConformanceFailure,
  buildContext,
  counterFor,
  frozenHistory,
  runCompress,
  runOptimize,
  stableSerialize,
  type BudgetKind,
  type ConformanceSubject,
} from './conformance-subject.js';

/** One rule of the contract the kit checks. */
export interface ConformanceCheck {
  /** Stable id, e.g. `pairing-preserved`. */
  readonly id: string;
  /** What the rule demands, as a sentence. */
  readonly title: string;
  /** `strategy` checks run once per strategy; `fixture` checks once per fixture. */
  readonly scope: 'strategy' | 'fixture';
  /** A reason this check does not apply to the strategy, or undefined when it does. */
  readonly skipReason?: (strategy: CompressionStrategy) => string | undefined;
  /** Resolves when the rule holds; rejects with a {@link ConformanceFailure} saying what broke. */
  readonly run: (subject: ConformanceSubject) => Promise<void>;
}

const noOpReasons: readonly NoOpReason[] = [
  'empty-history',
  'already-under-target',
  'too-few-compressible',
  'nothing-to-optimize',
  'no-progress',
  'no-progress-backoff',
  'missing-summarizer',
  'summarizer-failed',
  'aborted',
  'unsupported-history',
];

const budgets: readonly BudgetKind[] = ['tight', 'roomy'];

function fail(message: string): never {
  throw new ConformanceFailure(message);
}

type Optimizing = CompressionStrategy & Required<Pick<CompressionStrategy, 'optimize'>>;

function optimizes(strategy: CompressionStrategy): strategy is Optimizing {
  return typeof strategy.optimize === 'function';
}

/** Every history a strategy produced for the subject: the optimized history, and the compress outputs. */
async function collectOutputs(
  subject: ConformanceSubject,
): Promise<{ input: readonly HistoryEntry[]; outputs: { label: string; history: readonly HistoryEntry[] }[] }> {
  const input = frozenHistory(subject);
  const outputs: { label: string; history: readonly HistoryEntry[] }[] = [];
  const strategy = subject.createStrategy();
  if (optimizes(strategy)) {
    const service = new HistoryService({ tokenizer: subject.tokenizer, history: input });
    await service.applyDensityResult(runOptimize(strategy, input, subject.densityConfig), strategy.name);
    outputs.push({ label: 'optimize', history: service.getRawHistory() });
  }
  for (const budget of budgets) {
    const fresh = subject.createStrategy();
    const { context } = buildContext(subject, fresh, input, budget);
    const result = await runCompress(fresh, context);
    if (result.type === 'applied') outputs.push({ label: `compress (${budget} budget)`, history: result.newHistory });
  }
  return { input, outputs };
}

/** The fixture's request around a history: its system instructions and tool definitions, which strategies keep. */
function conversationOf(subject: ConformanceSubject, history: readonly HistoryEntry[]): Conversation {
  const { system, tools } = subject.fixture;
  return { ...(system === undefined ? {} : { system }), ...(tools === undefined ? {} : { tools }), history };
}

function describeValidityProblem(provider: string, problem: ValidityProblem): string {
  return `${provider} ${problem.rule}${problem.path === undefined ? '' : ` at ${problem.path}`}: ${problem.message}`;
}

function checkResultShape(result: CompressionResult, label: string): void {
  const shape = result as { type?: unknown; newHistory?: unknown; metadata?: unknown; reason?: unknown };
  if (shape.type === 'applied') {
    if (!Array.isArray(shape.newHistory)) fail(`${label}: an applied result must carry a newHistory array`);
    try {
      parseHistory(shape.newHistory, 'newHistory');
    } catch (error) {
      fail(`${label}: newHistory is not a valid history: ${(error as Error).message}`);
    }
    if (typeof shape.metadata !== 'object' || shape.metadata === null) {
      fail(`${label}: an applied result must carry metadata`);
    }
    return;
  }
  if (shape.type === 'no-op') {
    if (!noOpReasons.includes(shape.reason as NoOpReason)) {
      fail(`${label}: no-op reason ${JSON.stringify(shape.reason)} is not one of ${noOpReasons.join(', ')}`);
    }
    return;
  }
  fail(`${label}: expected a result of type "applied" or "no-op", got ${JSON.stringify(shape.type)}`);
}

/** The rules every strategy must keep (ARCHITECTURE.md "Invariants"), in the order the kit runs them. */
export const conformanceChecks: readonly ConformanceCheck[] = [
  {
    id: 'contract-shape',
    title: 'implements contract v1: specificationVersion, a lowercase name, requiresLLM, a valid trigger, compress()',
    scope: 'strategy',
    run: (subject) => {
      try {
        assertCompressionStrategy(subject.createStrategy());
      } catch (error) {
        fail((error as Error).message);
      }
      return Promise.resolve();
    },
  },
  {
    id: 'empty-history',
    title: 'EC-001: an empty history gives an empty optimize result and an empty or no-op compression',
    scope: 'strategy',
    run: async (subject) => {
      const strategy = subject.createStrategy();
      if (optimizes(strategy)) {
        const result = runOptimize(strategy, Object.freeze([]), subject.densityConfig);
        if (!isEmptyDensityResult(result)) fail('optimize([]) must return no removals and no replacements');
      }
      const { context } = buildContext({ ...subject, fixture: { ...subject.fixture, history: [] } }, strategy, Object.freeze([]), 'tight');
      const result = await runCompress(strategy, context);
      checkResultShape(result, 'compress([])');
      if (result.type === 'applied' && result.newHistory.length > 0) {
        fail('compress([]) must not invent entries');
      }
    },
  },
  {
    id: 'single-entry',
    title: 'EC-002: a one-entry history gives an empty optimize result and a valid compression',
    scope: 'strategy',
    run: async (subject) => {
      const history = parseHistory([{ speaker: 'human', blocks: [{ type: 'text', text: 'Only one message here.' }] }]);
      const strategy = subject.createStrategy();
      if (optimizes(strategy)) {
        const result = runOptimize(strategy, history, subject.densityConfig);
        if (!isEmptyDensityResult(result)) fail('optimize() of a single human entry must return an empty result');
      }
      const { context } = buildContext(subject, strategy, history, 'tight');
      const result = await runCompress(strategy, context);
      checkResultShape(result, 'compress(one entry)');
      if (result.type === 'applied') {
        const counter = counterFor(subject);
        if (counter.countEntries(result.newHistory) > counter.countEntries(history)) {
          fail('compress(one entry) increased the token count');
        }
      }
    },
  },
  {
    id: 'input-not-mutated',
    title: 'never mutates its input: optimize() and compress() run on deep-frozen histories and contexts',
    scope: 'fixture',
    run: async (subject) => {
      await collectOutputs(subject);
    },
  },
  {
    id: 'deterministic',
    title: 'same input and settings give the same output',
    scope: 'fixture',
    run: async (subject) => {
      const outputsOf = async () => {
        const input = frozenHistory(subject);
        const strategy = subject.createStrategy();
        const parts: string[] = [];
        if (optimizes(strategy)) parts.push(stableSerialize(runOptimize(strategy, input, subject.densityConfig)));
        for (const budget of budgets) {
          const fresh = subject.createStrategy();
          parts.push(stableSerialize(await runCompress(fresh, buildContext(subject, fresh, input, budget).context)));
        }
        return parts;
      };
      const first = await outputsOf();
      const second = await outputsOf();
      first.forEach((part, index) => {
        if (part !== second[index]) fail(`two runs on the same input gave different results (output ${index + 1})`);
      });
    },
  },
  {
    id: 'result-shape',
    title: 'compress() returns "applied" with a valid history and metadata, or "no-op" with a known reason',
    scope: 'fixture',
    run: async (subject) => {
      const input = frozenHistory(subject);
      for (const budget of budgets) {
        const strategy = subject.createStrategy();
        checkResultShape(await runCompress(strategy, buildContext(subject, strategy, input, budget).context), `${budget} budget`);
      }
    },
  },
  {
    id: 'optimize-accepted',
    title: 'optimize() results are accepted by HistoryService.applyDensityResult (ERR-010..013 never raised)',
    scope: 'fixture',
    skipReason: (strategy) => (optimizes(strategy) ? undefined : 'the strategy has no optimize()'),
    run: async (subject) => {
      const strategy = subject.createStrategy();
      if (!optimizes(strategy)) return;
      const input = frozenHistory(subject);
      const service = new HistoryService({ tokenizer: subject.tokenizer, history: input });
      try {
        await service.applyDensityResult(runOptimize(strategy, input, subject.densityConfig), strategy.name);
      } catch (error) {
        fail(`applyDensityResult rejected the optimize() result: ${(error as Error).message}`);
      }
    },
  },
  {
    id: 'pairing-preserved',
    title: 'never breaks tool pairing: every response answers a call of the preceding turn and every call is answered',
    scope: 'fixture',
    run: async (subject) => {
      const { input, outputs } = await collectOutputs(subject);
      for (const output of outputs) {
        const problems = findNewToolPairingProblems(input, output.history);
        if (problems.length > 0) {
          fail(`${output.label} broke pairing: ${problems.map(describeToolPairingProblem).join('; ')}`);
        }
      }
    },
  },
  {
    id: 'provider-valid',
    title:
      'keeps the request valid: no Anthropic or OpenAI validity problem the input did not already have (first message from the user, no empty messages, …)',
    scope: 'fixture',
    run: async (subject) => {
      const { input, outputs } = await collectOutputs(subject);
      const before = checkProviderValidity(conversationOf(subject, input));
      for (const output of outputs) {
        const introduced = findNewValidityProblems(before, checkProviderValidity(conversationOf(subject, output.history)));
        const problems = [
          ...introduced.anthropic.map((problem) => describeValidityProblem('Anthropic', problem)),
          ...introduced.openai.map((problem) => describeValidityProblem('OpenAI', problem)),
        ];
        if (problems.length > 0) fail(`${output.label} made the request invalid: ${problems.join('; ')}`);
      }
    },
  },
  {
    id: 'tokens-never-increase',
    title: 'never increases the token count',
    scope: 'fixture',
    run: async (subject) => {
      const { input, outputs } = await collectOutputs(subject);
      const counter = counterFor(subject);
      const before = counter.countEntries(input);
      for (const output of outputs) {
        const after = counter.countEntries(output.history);
        if (after > before) fail(`${output.label} grew the history from ${before} to ${after} tokens`);
      }
    },
  },
  {
    id: 'applied-means-smaller',
    title: 'an "applied" compression is smaller than its input; a strategy that cannot make progress returns a no-op',
    scope: 'fixture',
    run: async (subject) => {
      const input = frozenHistory(subject);
      const counter = counterFor(subject);
      const before = counter.countEntries(input);
      for (const budget of budgets) {
        const strategy = subject.createStrategy();
        const result = await runCompress(strategy, buildContext(subject, strategy, input, budget).context);
        if (result.type === 'applied' && counter.countEntries(result.newHistory) >= before) {
          fail(`${budget} budget: returned "applied" without reducing tokens (${before} before); return a no-op instead`);
        }
      }
    },
  },
  {
    id: 'thinking-verbatim',
    title: 'keeps thinking blocks verbatim (signature included) or drops them whole',
    scope: 'fixture',
    run: async (subject) => {
      const { input, outputs } = await collectOutputs(subject);
      const original = new Set(
        input.flatMap((entry) => entry.blocks.filter((block) => block.type === 'thinking').map((block) => stableSerialize(block))),
      );
      for (const output of outputs) {
        for (const entry of output.history) {
          for (const block of entry.blocks) {
            if (block.type === 'thinking' && !original.has(stableSerialize(block))) {
              fail(`${output.label} changed a thinking block (it must be kept byte-identical or dropped whole)`);
            }
          }
        }
      }
    },
  },
  {
    id: 'user-text-verbatim',
    title:
      'keeps user-typed text verbatim (harness text such as system reminders aside; entries it generates are marked with markGeneratedEntry)',
    scope: 'fixture',
    skipReason: (strategy) =>
      strategy.capabilities?.rewritesUserText === true ? 'the strategy declares rewritesUserText' : undefined,
    run: async (subject) => {
      const { input, outputs } = await collectOutputs(subject);
      // Surrounding whitespace aside: cutting a reminder off the end of a message may leave its line break behind.
      const original = new Set(listUserTexts(input).map((userText) => userText.text.trim()));
      for (const output of outputs) {
        for (const { entryIndex, text } of listUserTexts(output.history)) {
          if (!original.has(text.trim())) {
            fail(`${output.label} changed user text (entry ${entryIndex}): ${JSON.stringify(text.slice(0, 80))}`);
          }
        }
      }
    },
  },
  {
    id: 'expand-restores',
    title:
      'a lossless strategy (capabilities.lossless) implements expand(), and it restores the exact input from what optimize() and compress() returned',
    scope: 'fixture',
    skipReason: (strategy) =>
      strategy.capabilities?.lossless !== true && strategy.expand === undefined
        ? 'the strategy neither declares lossless nor implements expand()'
        : undefined,
    run: async (subject) => {
      const strategy = subject.createStrategy();
      if (strategy.expand === undefined) fail('declares capabilities.lossless but does not implement expand(history)');
      const { input, outputs } = await collectOutputs(subject);
      const expected = stableSerialize(input);
      for (const output of outputs) {
        let expanded: readonly HistoryEntry[];
        try {
          expanded = strategy.expand(output.history);
        } catch (error) {
          fail(`expand() threw on the ${output.label} result: ${(error as Error).message}`);
        }
        if (stableSerialize(expanded) === expected) continue;
        const differing =
          expanded.length === input.length
            ? input.findIndex((entry, index) => stableSerialize(entry) !== stableSerialize(expanded[index]))
            : -1;
        fail(
          `expand() of the ${output.label} result does not restore the input: ${
            differing === -1 ? `${expanded.length} entries, expected ${input.length}` : `entry ${differing} differs`
          }`,
        );
      }
    },
  },
  {
    id: 'llm-honesty',
    title: 'a strategy with requiresLLM: false never calls the summarizer',
    scope: 'fixture',
    skipReason: (strategy) => (strategy.requiresLLM ? 'the strategy declares requiresLLM: true' : undefined),
    run: async (subject) => {
      const input = frozenHistory(subject);
      for (const budget of budgets) {
        const strategy = subject.createStrategy();
        const { context, summarizer } = buildContext(subject, strategy, input, budget);
        try {
          await runCompress(strategy, context);
        } catch (error) {
          if (summarizer.calls.length > 0) fail(`called the summarizer (${(error as Error).message})`);
          throw error;
        }
        if (summarizer.calls.length > 0) fail(`called the summarizer ${summarizer.calls.length} time(s)`);
      }
    },
  },
];
