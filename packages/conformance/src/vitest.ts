import { describe, expect, it } from 'vitest';
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
