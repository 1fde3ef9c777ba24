import type { CompressionStrategy } from '@ctx/core';
import { CliError } from '../cli-io.js';
import { strategyCatalog } from '../strategy-catalog.js';

/**
 * A chain of strategies as an agent configures it: the first is the active strategy, the rest are its
 * `compression.fallbackStrategies`, in order.
 */
export interface StressChain {
  /** The strategy names joined with `→`, e.g. `high-density→sliding-window`. */
  readonly name: string;
  readonly strategies: readonly string[];
  /** Creates fresh strategy objects for one session (stateful strategies must not leak between sessions). */
  readonly create: () => readonly CompressionStrategy[];
}

/** Separators accepted between strategy names in `--chains` (the arrow is what the matrix prints). */
const chainSeparator = /→|>|\+/;

/**
 * Makes a chain of built-in strategies.
 *
 * @param strategies - Strategy names from the playground's catalog, active strategy first.
 * @throws {@link CliError} naming the unknown strategy and the known ones.
 */
export function createStressChain(strategies: readonly string[]): StressChain {
  const entries = strategies.map((name) => {
    const entry = strategyCatalog.find((candidate) => candidate.name === name);
    if (entry === undefined) {
      throw new CliError(
        `Expected a built-in strategy name in a chain, got "${name}"; known: ${strategyCatalog.map((candidate) => candidate.name).join(', ')}`,
      );
    }
    return entry;
  });
  if (entries.length === 0) throw new CliError('Expected at least one strategy in a chain, got none');
  if (new Set(strategies).size !== strategies.length) {
    throw new CliError(`Expected each strategy at most once in a chain, got ${strategies.join('→')}`);
  }
  return { name: strategies.join('→'), strategies: [...strategies], create: () => entries.map((entry) => entry.create()) };
}

/**
 * Parses one `--chains` item: strategy names separated by `→`, `>` or `+`, e.g. `high-density>sliding-window`.
 *
 * @throws {@link CliError} for an unknown or repeated strategy name.
 */
export function parseStressChain(text: string): StressChain {
  return createStressChain(
    text
      .split(chainSeparator)
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}

/**
 * The chains `ctx stress` runs by default: every built-in strategy alone, then three fallback chains —
 * `high-density→sliding-window` (the root README's agent loop), `lossless→truncation` (lossless first, a blunt
 * cut when that is not enough) and `high-density→truncation→top-down-truncation` (density, then shortening
 * tool outputs, then dropping whole old turns).
 */
export function createDefaultStressChains(): readonly StressChain[] {
  return [
    ['high-density'],
    ['lossless'],
    ['watermark'],
    ['truncation'],
    ['sliding-window'],
    ['top-down-truncation'],
    ['high-density', 'sliding-window'],
    ['lossless', 'truncation'],
    ['high-density', 'truncation', 'top-down-truncation'],
  ].map(createStressChain);
}
