import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { InvalidHistoryError } from '../errors/invalid-history-error.js';
import type { HistoryEntry } from '../history/history-entry.js';
import { parseHistory } from '../history/parse-history.js';
import { describeToolPairingProblem, findNewToolPairingProblems } from '../history/tool-pairing.js';
import type { CompressionStrategy } from './compression-strategy.js';

/**
 * Checks the history a strategy's `compress()` returned before anything may use it: every entry valid (schema and
 * block placement) and no tool call / response pairing problem that `input` did not already have.
 *
 * @param strategy - Named in the error.
 * @param input - The history the strategy was given.
 * @param output - The history it returned.
 * @returns `output` parsed and frozen.
 * @throws `CompressionStrategyError` naming the strategy and what is wrong.
 */
export function validateCompressedHistory(
  strategy: CompressionStrategy,
  input: readonly HistoryEntry[],
  output: readonly HistoryEntry[],
): readonly HistoryEntry[] {
  let parsed: readonly HistoryEntry[];
  try {
    parsed = parseHistory(output, 'newHistory');
  } catch (error) {
    if (!InvalidHistoryError.isInstance(error)) throw error;
    throw new CompressionStrategyError({
      strategyName: strategy.name,
      message: `Strategy "${strategy.name}" returned an invalid history:\n${error.message}`,
      cause: error,
    });
  }
  const problems = findNewToolPairingProblems(input, parsed);
  if (problems.length > 0) {
    throw new CompressionStrategyError({
      strategyName: strategy.name,
      indices: problems.map((problem) => problem.entryIndex),
      message: `Strategy "${strategy.name}" returned a history that breaks tool call / response pairing:\n${problems.map((problem) => `  ${describeToolPairingProblem(problem)}`).join('\n')}`,
    });
  }
  return parsed;
}
