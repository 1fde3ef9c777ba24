import { readFile } from 'node:fs/promises';
import { findPrototypeKeys, PROTOTYPE_KEYS } from '@ctx/core';
import { CliError } from './cli-io.js';
import { UsageError } from './usage-error.js';

/** Settings per strategy name, as given on the command line. */
export type StrategySettingsInput = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

/** `true`, `3`, `"x"`, `[1,2]` are read as JSON; anything else is a string. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let current = target;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      current[key] = value;
      return;
    }
    const next = current[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) current[key] = {};
    current = current[key] as Record<string, unknown>;
  });
}

/**
 * Reads strategy settings from `--config <file.json>` (an object keyed by strategy name) and `--set
 * <strategy>.<option>=<value>` (repeatable; dotted options nest, values are JSON when they parse). `--set` wins.
 *
 * @param knownNames - Strategy names, so that names containing dots are split correctly.
 * @throws {@link UsageError} for a malformed `--set` (exit 2); {@link CliError} with one line for an unknown strategy
 *   or an unreadable config file.
 */
export async function readStrategySettingsInput(options: {
  readonly set: readonly string[];
  readonly config?: string;
  readonly knownNames: readonly string[];
}): Promise<StrategySettingsInput> {
  const settings = new Map<string, Record<string, unknown>>();
  const forStrategy = (name: string) => {
    if (!options.knownNames.includes(name)) {
      throw new CliError(`settings for unknown strategy "${name}"; known strategies: ${options.knownNames.join(', ')}`);
    }
    let entry = settings.get(name);
    if (entry === undefined) {
      entry = {};
      settings.set(name, entry);
    }
    return entry;
  };

  if (options.config !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(options.config, 'utf8'));
    } catch (error) {
      throw new CliError(`--config ${options.config}: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new CliError(`--config ${options.config}: expected an object keyed by strategy name`);
    }
    const [forbidden] = findPrototypeKeys(parsed);
    if (forbidden !== undefined) throw new CliError(`--config ${options.config}: ${forbidden.path}: ${forbidden.message}`);
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new CliError(`--config ${options.config}: settings of "${name}" must be an object`);
      }
      Object.assign(forStrategy(name), value);
    }
  }

  const byLength = [...options.knownNames].sort((a, b) => b.length - a.length);
  for (const assignment of options.set) {
    const equals = assignment.indexOf('=');
    const key = equals === -1 ? '' : assignment.slice(0, equals);
    const name = byLength.find((candidate) => key.startsWith(`${candidate}.`));
    if (equals === -1 || name === undefined || key.length === name.length + 1) {
      throw new UsageError(
        `--set ${assignment}: expected <strategy>.<option>=<value> with a known strategy (${options.knownNames.join(', ')})`,
      );
    }
    const path = key.slice(name.length + 1).split('.');
    const value = parseValue(assignment.slice(equals + 1));
    const forbidden = path.find((part) => PROTOTYPE_KEYS.has(part)) ?? findPrototypeKeys(value)[0]?.path.split('.').at(-1);
    if (forbidden !== undefined) {
      throw new CliError(`--set ${assignment}: expected option names, got "${forbidden}", which would reach the object prototype`);
    }
    setPath(forStrategy(name), path, value);
  }
  return settings;
}
