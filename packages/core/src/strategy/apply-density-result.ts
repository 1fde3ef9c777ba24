import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { InvalidHistoryError } from '../errors/invalid-history-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { parseHistoryEntry } from '../history/parse-history.js';
import { describeToolPairingProblem, findNewToolPairingProblems } from '../history/tool-pairing.js';
import type { DensityResult } from './density-result.js';

function formatIndices(indices: readonly number[]): string {
  return indices.map(String).join(', ');
}

/**
 * Validates a {@link DensityResult} against `history` and returns the history it describes, without touching
 * `history`. This is what `HistoryService.applyDensityResult` commits, exported so tools can preview a result.
 *
 * Checks, in order: every index is an integer; no duplicate removals (spec 000 ERR-013); removal and replacement
 * indices in bounds (ERR-011, ERR-012); no index both removed and replaced (ERR-010 / BR-CONFLICT-001);
 * replacements are valid entries; and the result introduces no tool call / response pairing problem.
 * Replacements are applied first (indices stay stable), then removals — the same outcome as splicing them in
 * descending order (spec 000 §2d), in one linear pass.
 *
 * @param strategyName - Named in error messages.
 * @throws {@link CompressionStrategyError} naming the offending indices.
 */
export function applyDensityResultToHistory(
  history: readonly HistoryEntry[],
  result: DensityResult,
  strategyName?: string,
): HistoryEntry[] {
  const fail = (message: string, indices: readonly number[] = [], cause?: unknown): never => {
    const who = strategyName === undefined ? 'DensityResult' : `DensityResult from strategy "${strategyName}"`;
    throw new CompressionStrategyError({ message: `Invalid ${who}: ${message}`, strategyName, indices, cause });
  };
  const replacementIndices = [...result.replacements.keys()];

  const nonIntegers = [...result.removals, ...replacementIndices].filter((index) => !Number.isInteger(index));
  if (nonIntegers.length > 0) fail(`expected integer indices, found ${formatIndices(nonIntegers)}`, nonIntegers);

  const seen = new Set<number>();
  const duplicates = new Set<number>();
  for (const index of result.removals) {
    if (seen.has(index)) duplicates.add(index);
    seen.add(index);
  }
  if (duplicates.size > 0) {
    fail(
      `removal indices ${formatIndices([...duplicates])} appear more than once (ERR-013); each index may be removed once`,
      [...duplicates],
    );
  }

  const inBounds = (index: number) => index >= 0 && index < history.length;
  const badRemovals = result.removals.filter((index) => !inBounds(index));
  if (badRemovals.length > 0) {
    fail(
      `removal indices ${formatIndices(badRemovals)} are outside the history (expected 0..${history.length - 1}) (ERR-011)`,
      badRemovals,
    );
  }
  const badReplacements = replacementIndices.filter((index) => !inBounds(index));
  if (badReplacements.length > 0) {
    fail(
      `replacement indices ${formatIndices(badReplacements)} are outside the history (expected 0..${history.length - 1}) (ERR-012)`,
      badReplacements,
    );
  }

  const conflicts = replacementIndices.filter((index) => seen.has(index));
  if (conflicts.length > 0) {
    fail(
      `indices ${formatIndices(conflicts)} are both removed and replaced (ERR-010, BR-CONFLICT-001); an entry is either removed or replaced`,
      conflicts,
    );
  }

  const next: HistoryEntry[] = [];
  const originalIndexOf: number[] = [];
  for (let index = 0; index < history.length; index++) {
    if (seen.has(index)) continue;
    originalIndexOf.push(index);
    const replacement = result.replacements.get(index);
    if (replacement === undefined) {
      next.push(history[index] as HistoryEntry);
      continue;
    }
    try {
      next.push(parseHistoryEntry(replacement, `replacements[${index}]`));
    } catch (error) {
      if (!InvalidHistoryError.isInstance(error)) throw error;
      fail(`replacement for index ${index} is not a valid entry:\n${error.message}`, [index], error);
    }
  }

  const problems = findNewToolPairingProblems(history, next);
  if (problems.length > 0) {
    // Report positions in the history the strategy was given, not in the edited one.
    const located = problems.map((problem) => ({
      ...problem,
      entryIndex: originalIndexOf[problem.entryIndex] ?? problem.entryIndex,
    }));
    fail(
      `applying it would break tool call / response pairing:\n${located.map((problem) => `  ${describeToolPairingProblem(problem)}`).join('\n')}`,
      [...new Set(located.map((problem) => problem.entryIndex))],
    );
  }
  return next;
}
