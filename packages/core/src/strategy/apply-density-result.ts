import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { InvalidHistoryError } from '../errors/invalid-history-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { parseHistoryEntry } from '../history/parse-history.js';
import { hasPairingProblemsNear } from '../history/has-pairing-problems-near.js';
import { describeToolPairingProblem, findNewToolPairingProblems } from '../history/tool-pairing.js';
import type { DensityResult } from './density-result.js';

/** Most items a message lists; the rest is counted ("… and 3 more") so a huge bad result gives a short message. */
const maxListed = 20;

/** A short, bounded description of a value as found, for "expected …, found …" messages. */
function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Map) return `a Map of ${value.size}`;
  if (value instanceof Set) return 'a Set';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

/** Lists at most {@link maxListed} items, then how many more there are. */
function formatList(items: readonly unknown[]): string {
  const listed = items.slice(0, maxListed).map((item) => (typeof item === 'number' ? String(item) : describeFound(item)));
  return items.length > maxListed ? `${listed.join(', ')} … and ${items.length - maxListed} more` : listed.join(', ');
}

/** Lines of a multi-line message, capped like {@link formatList}. */
function formatLines(lines: readonly string[]): string {
  const listed = lines.slice(0, maxListed).map((line) => `  ${line}`);
  if (lines.length > maxListed) listed.push(`  … and ${lines.length - maxListed} more`);
  return listed.join('\n');
}

/**
 * Validates a {@link DensityResult} against `history` and returns the history it describes, without touching
 * `history`. This is what `HistoryService.applyDensityResult` commits, exported so tools can preview a result.
 *
 * Checks, in order: the result has the {@link DensityResult} shape (an object whose `removals` is an array and whose
 * `replacements` is a `Map`); every index is an integer; no duplicate removals (spec 000 ERR-013); removal and replacement
 * indices in bounds (ERR-011, ERR-012); no index both removed and replaced (ERR-010 / BR-CONFLICT-001);
 * replacements are valid entries; and the result introduces no tool call / response pairing problem.
 * Replacements are applied first (indices stay stable), then removals — the same outcome as splicing them in
 * descending order (spec 000 §2d), in one linear pass.
 *
 * Errors say what was expected and what was found; lists of offending indices or pairing problems name the first
 * 20 and count the rest ("… and 999980 more"), so even a result with a million bad indices gives a short message
 * (the error's `indices` field still holds them all).
 *
 * @param strategyName - Named in error messages.
 * @throws {@link CompressionStrategyError} for a malformed result or offending indices, never a bare `TypeError`.
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
  // The type is a promise of the strategy, not a fact: a broken strategy (or plain JavaScript) can return anything.
  const shape: unknown = result;
  if (typeof shape !== 'object' || shape === null || Array.isArray(shape)) {
    fail(`expected an object { removals, replacements, metadata }, found ${describeFound(shape)}`);
  }
  const { removals, replacements } = shape as { removals?: unknown; replacements?: unknown };
  if (!Array.isArray(removals)) {
    fail(`expected removals to be an array of entry indices (use [] for none), found ${describeFound(removals)}`);
  }
  if (!(replacements instanceof Map)) {
    fail(
      `expected replacements to be a Map from entry index to entry (use new Map() for none), found ${describeFound(replacements)}`,
    );
  }
  const removalList = removals as readonly unknown[];
  const replacementMap = replacements as ReadonlyMap<unknown, unknown>;
  const replacementIndices = [...replacementMap.keys()];

  // Array.from visits holes of a sparse array as undefined, which is not an integer either.
  const nonIntegers = [...Array.from(removalList), ...replacementIndices].filter((index) => !Number.isInteger(index));
  if (nonIntegers.length > 0) {
    fail(
      `expected integer indices, found ${formatList(nonIntegers)}`,
      nonIntegers.filter((index): index is number => typeof index === 'number'),
    );
  }
  const validRemovals = removalList as readonly number[];
  const validReplacementIndices = replacementIndices as number[];

  const seen = new Set<number>();
  const duplicates = new Set<number>();
  for (const index of validRemovals) {
    if (seen.has(index)) duplicates.add(index);
    seen.add(index);
  }
  if (duplicates.size > 0) {
    fail(
      `removal indices ${formatList([...duplicates])} appear more than once (ERR-013); each index may be removed once`,
      [...duplicates],
    );
  }

  const inBounds = (index: number) => index >= 0 && index < history.length;
  const expectedRange = history.length === 0 ? 'none: the history is empty' : `0..${history.length - 1}`;
  const badRemovals = validRemovals.filter((index) => !inBounds(index));
  if (badRemovals.length > 0) {
    fail(
      `removal indices ${formatList(badRemovals)} are outside the history (expected ${expectedRange}) (ERR-011)`,
      badRemovals,
    );
  }
  const badReplacements = validReplacementIndices.filter((index) => !inBounds(index));
  if (badReplacements.length > 0) {
    fail(
      `replacement indices ${formatList(badReplacements)} are outside the history (expected ${expectedRange}) (ERR-012)`,
      badReplacements,
    );
  }

  const conflicts = validReplacementIndices.filter((index) => seen.has(index));
  if (conflicts.length > 0) {
    fail(
      `indices ${formatList(conflicts)} are both removed and replaced (ERR-010, BR-CONFLICT-001); an entry is either removed or replaced`,
      conflicts,
    );
  }

  const next: HistoryEntry[] = [];
  const originalIndexOf: number[] = [];
  // Positions of `next` whose turns an edit touched: a replaced entry and its neighbours, both sides of a removal.
  const touched: number[] = [];
  for (let index = 0; index < history.length; index++) {
    if (seen.has(index)) {
      touched.push(next.length - 1, next.length);
      continue;
    }
    originalIndexOf.push(index);
    if (!replacementMap.has(index)) {
      next.push(history[index] as HistoryEntry);
      continue;
    }
    touched.push(next.length - 1, next.length, next.length + 1);
    const replacement = replacementMap.get(index);
    try {
      next.push(parseHistoryEntry(replacement, `replacements[${index}]`));
    } catch (error) {
      if (!InvalidHistoryError.isInstance(error)) throw error;
      fail(`replacement for index ${index} is not a valid entry:\n${error.message}`, [index], error);
    }
  }

  // Turns no edit touched are the input's own, problems included: when the touched ones are clean, nothing is new.
  const problems = hasPairingProblemsNear(next, touched.sort((a, b) => a - b)) ? findNewToolPairingProblems(history, next) : [];
  if (problems.length > 0) {
    // Report positions in the history the strategy was given, not in the edited one.
    const located = problems.map((problem) => ({
      ...problem,
      entryIndex: originalIndexOf[problem.entryIndex] ?? problem.entryIndex,
    }));
    fail(
      `applying it would break tool call / response pairing:\n${formatLines(located.map(describeToolPairingProblem))}`,
      [...new Set(located.map((problem) => problem.entryIndex))],
    );
  }
  return next;
}
