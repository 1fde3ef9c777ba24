// Reads the file vitest's JSON reporter writes (`--reporter=json --outputFile.json=<file>`) into the counts
// scripts/test.mjs adds to its closing line. Used for every Node version the suite runs on.
import { existsSync, readFileSync } from 'node:fs';

/**
 * Counts of one vitest run: tests passed, failed (a test file that could not load counts as one failure, so the run
 * is red) and skipped (`it.skip`, `describe.skipIf`, `it.todo`: vitest's pending plus todo tests), of which
 * `notApplicable` are conformance checks that do not apply to the strategy under test.
 *
 * @param {string} file the JSON reporter's output file
 * @returns {{ passed: number, failed: number, skipped: number, notApplicable: number, problems: string[] } | undefined} undefined when
 *   vitest wrote no results
 */
export function readVitestResults(file) {
  if (!existsSync(file)) return undefined;
  const results = JSON.parse(readFileSync(file, 'utf8'));
  const problems = [];
  const brokenFiles = results.testResults.filter((testFile) => testFile.status === 'failed' && testFile.assertionResults.length === 0);
  for (const testFile of brokenFiles) problems.push(`could not run ${testFile.name}: ${testFile.message}`);
  for (const testFile of results.testResults) {
    for (const test of testFile.assertionResults) {
      if (test.status !== 'failed') continue;
      const firstLine = String(test.failureMessages?.[0] ?? '').split('\n')[0];
      problems.push(`failed: ${testFile.name} > ${test.fullName}${firstLine === '' ? '' : ` — ${firstLine}`}`);
    }
  }
  // @ctx/conformance's vitest wrapper skips the checks a strategy's declared capabilities rule out, in a describe block
  // named `conformance: <strategy>`; every other skip (a corpus test without the corpus, `it.skip`) is counted apart.
  let notApplicable = 0;
  for (const testFile of results.testResults) {
    for (const test of testFile.assertionResults) {
      const skipped = test.status === 'pending' || test.status === 'skipped' || test.status === 'todo';
      if (skipped && test.ancestorTitles.some((title) => title.startsWith('conformance: '))) notApplicable += 1;
    }
  }
  return {
    passed: results.numPassedTests,
    failed: results.numFailedTests + brokenFiles.length,
    skipped: results.numPendingTests + results.numTodoTests,
    notApplicable,
    problems,
  };
}
