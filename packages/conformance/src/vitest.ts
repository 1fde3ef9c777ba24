import { describe, expect, it } from 'vitest';
import { checkPropertyValidity, resolvePropertyRuns, type CheckPropertyValidityOptions } from './property-validity.js';
import { planConformance, runConformanceCase, type RunConformanceOptions } from './run-conformance.js';

/**
 * Registers the conformance kit as vitest tests: one `describe` per strategy, one `it` per check and fixture, so
 * a failure names the rule and the fixture. Put it in `src/conformance.test.ts` of a strategy package.
 *
 * @example
 * ```ts
 * import { describeConformance } from '@ctx/conformance/vitest';
 * import { createMyStrategy } from './my-strategy.js';
 *
 * describeConformance({ strategy: () => createMyStrategy() });
 * ```
 */
export function describeConformance(options: RunConformanceOptions): void {
  const { strategyName, cases } = planConformance(options);
  describe(`conformance: ${strategyName}`, () => {
    for (const testCase of cases) {
      const name = `${testCase.check.id}${testCase.fixture === undefined ? '' : ` [${testCase.fixture}]`}: ${testCase.check.title}`;
      if (testCase.skipReason !== undefined) {
        it.skip(`${name} (${testCase.skipReason})`, () => undefined);
        continue;
      }
      it(name, async () => {
        const result = await runConformanceCase(testCase);
        // Fail with the kit's own explanation as the headline.
        if (result.status === 'failed') expect.fail(`${testCase.check.id}: ${result.message ?? 'failed'}`);
        expect(result.status).toBe('passed');
      });
    }
  });
}

/**
 * Registers the provider-validity property check ({@link checkPropertyValidity}) as one vitest test: random
 * histories, `compress()` under random budgets and `optimize()`, never a new provider problem, never a density
 * result that grows tokens. The run count comes from `runs`, else `CTX_PROPERTY_RUNS`, else 100; the test's
 * timeout grows with it. A failure prints the shrunk counterexample and the seed to replay it.
 *
 * @example
 * ```ts
 * import { itKeepsProviderValidity } from '@ctx/conformance/vitest';
 * import { createMyStrategy } from './my-strategy.js';
 *
 * itKeepsProviderValidity({ strategy: () => createMyStrategy() });
 * ```
 */
export function itKeepsProviderValidity(options: CheckPropertyValidityOptions): void {
  const runs = resolvePropertyRuns(options.runs);
  const probe = typeof options.strategy === 'function' ? options.strategy() : options.strategy;
  it(
    `${probe.name}: should keep every request provider-valid over ${runs} random histories (property)`,
    async () => {
      const report = await checkPropertyValidity({ ...options, runs });
      if (report.failure !== undefined) expect.fail(report.failure.message);
      expect(report.runs).toBe(runs);
    },
    // About 10 ms a run on the project machine; generous so a slow CI box does not time out a passing run.
    Math.max(60_000, runs * 100),
  );
}
