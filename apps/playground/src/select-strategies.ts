import type { CompressionStrategy } from '@ctx/core';
import { CliError } from './cli-io.js';
import { strategyCatalog } from './strategy-catalog.js';

/**
 * Turns a `--strategies a,b` value into strategy factories; no value means every installed strategy.
 *
 * @throws {@link CliError} naming the unknown strategy and the known ones.
 */
export function selectStrategies(list: string | undefined): (() => CompressionStrategy)[] {
  if (list === undefined) return strategyCatalog.map((entry) => () => entry.create());
  return list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => {
      const entry = strategyCatalog.find((candidate) => candidate.name === name);
      if (entry === undefined) {
        throw new CliError(
          `unknown strategy "${name}"; installed strategies: ${strategyCatalog.map((candidate) => candidate.name).join(', ')}`,
        );
      }
      return () => entry.create();
    });
}
