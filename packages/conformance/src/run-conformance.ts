import type { CompressionStrategy, DensityConfig, Tokenizer } from '@ctx/core';
import { conformanceChecks, type ConformanceCheck } from './conformance-checks.js';
import { defaultConformanceFixtures, type ConformanceFixture } from './conformance-fixtures.js';
import { ConformanceFailure, type ConformanceSubject } from './conformance-subject.js';
import { createCharacterTokenizer } from './mocks/mock-tokenizer.js';

/** Options of {@link runConformance}. */
export interface RunConformanceOptions {
  /**
   * The strategy under test, or a factory that creates a fresh instance (use a factory for strategies that keep
   * state between calls, so every run starts clean).
   */
  readonly strategy: CompressionStrategy | (() => CompressionStrategy);
  /** Extra fixtures, e.g. your recorded transcripts. Run in addition to the built-in ones. */
  readonly fixtures?: readonly ConformanceFixture[];
  /**
   * Run the built-in fixtures too.
   * @default true
   */
  readonly includeDefaultFixtures?: boolean;
  /**
   * Counts tokens for the budget and the token checks.
   * @default one token per 4 characters (deterministic, dependency-free)
   */
  readonly tokenizer?: Tokenizer;
  /** Density settings passed to `optimize()`; spec 000 defaults otherwise. */
  readonly densityConfig?: Partial<DensityConfig>;
}

/** The outcome of one check on one fixture (or on the strategy as a whole). */
export interface ConformanceCheckResult {
  readonly checkId: string;
  readonly title: string;
  /** The fixture, for fixture-scoped checks. */
  readonly fixture: string | undefined;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Why it failed or was skipped. */
  readonly message?: string;
}

/** Everything {@link runConformance} found. */
export interface ConformanceReport {
  readonly strategy: string;
  /** True when no check failed. */
  readonly passed: boolean;
  readonly results: readonly ConformanceCheckResult[];
  readonly counts: { readonly passed: number; readonly failed: number; readonly skipped: number };
}

/** One check to run: the check, the subject, and whether it is skipped. */
export interface ConformanceCase {
  readonly check: ConformanceCheck;
  readonly subject: ConformanceSubject;
  readonly fixture: string | undefined;
  readonly skipReason: string | undefined;
}

const defaultDensityConfig: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/repo',
};

/**
 * Lists every (check, fixture) case {@link runConformance} would run, without running them. The vitest wrapper
 * turns each into a test.
 */
export function planConformance(options: RunConformanceOptions): { strategyName: string; cases: ConformanceCase[] } {
  const createStrategy =
    typeof options.strategy === 'function' ? options.strategy : () => options.strategy as CompressionStrategy;
  const probe = createStrategy();
  const fixtures = [
    ...(options.includeDefaultFixtures === false ? [] : defaultConformanceFixtures),
    ...(options.fixtures ?? []),
  ];
  const tokenizer = options.tokenizer ?? createCharacterTokenizer();
  const densityConfig = { ...defaultDensityConfig, ...options.densityConfig };
  const subjectFor = (fixture: ConformanceFixture): ConformanceSubject => ({
    createStrategy,
    fixture,
    tokenizer,
    densityConfig,
  });
  const strategyFixture: ConformanceFixture = fixtures[0] ?? { name: 'none', description: '', history: [] };

  const cases: ConformanceCase[] = [];
  for (const check of conformanceChecks) {
    const skipReason = check.skipReason?.(probe);
    if (check.scope === 'strategy') {
      cases.push({ check, subject: subjectFor(strategyFixture), fixture: undefined, skipReason });
      continue;
    }
    for (const fixture of fixtures) {
      cases.push({ check, subject: subjectFor(fixture), fixture: fixture.name, skipReason });
    }
  }
  return { strategyName: probe.name, cases };
}

/** Runs one planned case. Never throws: failures and unexpected errors are reported in the result. */
export async function runConformanceCase(testCase: ConformanceCase): Promise<ConformanceCheckResult> {
  const base = { checkId: testCase.check.id, title: testCase.check.title, fixture: testCase.fixture };
  if (testCase.skipReason !== undefined) return { ...base, status: 'skipped', message: testCase.skipReason };
  try {
    await testCase.check.run(testCase.subject);
    return { ...base, status: 'passed' };
  } catch (error) {
    const message =
      error instanceof ConformanceFailure
        ? error.message
        : `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    return { ...base, status: 'failed', message };
  }
}

/**
 * Checks a strategy against the contract: frozen input never mutated, deterministic output, `optimize()` results
 * accepted by `applyDensityResult`, tool pairing and provider validity kept, tokens never increased, thinking and
 * user text kept, empty and one-entry histories (EC-001/002), honest `requiresLLM`. Framework-free; see `@ctx/conformance/vitest` for
 * the test-runner wrapper.
 *
 * @example
 * ```ts
 * const report = await runConformance({ strategy: createMyStrategy() });
 * if (!report.passed) console.error(formatConformanceReport(report));
 * ```
 */
export async function runConformance(options: RunConformanceOptions): Promise<ConformanceReport> {
  const { strategyName, cases } = planConformance(options);
  const results: ConformanceCheckResult[] = [];
  for (const testCase of cases) results.push(await runConformanceCase(testCase));
  const count = (status: ConformanceCheckResult['status']) => results.filter((result) => result.status === status).length;
  const counts = { passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
  return { strategy: strategyName, passed: counts.failed === 0, results, counts };
}

/** Renders a report: failures first (with their messages), then the totals. */
export function formatConformanceReport(report: ConformanceReport): string {
  const lines = [`Conformance of "${report.strategy}": ${report.passed ? 'passed' : 'FAILED'}`];
  for (const result of report.results) {
    if (result.status !== 'failed') continue;
    const where = result.fixture === undefined ? '' : ` [${result.fixture}]`;
    lines.push(`  ✗ ${result.checkId}${where}: ${result.message ?? ''}`);
  }
  lines.push(
    `  ${report.counts.passed} passed, ${report.counts.failed} failed, ${report.counts.skipped} skipped (${report.results.length} checks)`,
  );
  return lines.join('\n');
}
