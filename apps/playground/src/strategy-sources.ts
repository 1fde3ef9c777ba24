import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertCompressionStrategy, type CompressionStrategy } from '@ctx/core';
import { CliError } from './cli-io.js';
import { strategyCatalog } from './strategy-catalog.js';

/** Where a strategy comes from and how to create it with settings. */
export interface StrategySource {
  readonly name: string;
  /** The package (or plugin path) that provides it. */
  readonly origin: string;
  /** Creates a fresh strategy; settings are validated by the strategy's own factory. */
  readonly create: (settings?: Readonly<Record<string, unknown>>) => CompressionStrategy;
}

type Factory = (settings?: unknown) => unknown;

function isFactoryName(name: string): boolean {
  return /^create[A-Z0-9].*Strategy$/.test(name);
}

function packageEntry(packageDirectory: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {
    exports?: unknown;
    main?: string;
  };
  const root: unknown =
    typeof manifest.exports === 'object' && manifest.exports !== null && '.' in manifest.exports
      ? (manifest.exports as Record<string, unknown>)['.']
      : manifest.exports;
  if (typeof root === 'string') return join(packageDirectory, root);
  if (typeof root === 'object' && root !== null) {
    const conditions = root as Record<string, unknown>;
    for (const condition of ['import', 'node', 'default']) {
      const target = conditions[condition];
      if (typeof target === 'string') return join(packageDirectory, target);
    }
  }
  return join(packageDirectory, manifest.main ?? 'index.js');
}

/** Finds `node_modules/<name>` from `directory` upward, like Node's resolution for the user's project. */
function findInstalledPackage(name: string, directory: string): string | undefined {
  let current = directory;
  for (;;) {
    const candidate = join(current, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith('.') || isAbsolute(specifier) || specifier.includes('\\');
}

/** The file a plugin specifier points at: a module file, a package directory, or an installed package name. */
function resolvePluginEntry(specifier: string, cwd: string): string {
  if (isPathSpecifier(specifier)) {
    const path = resolve(cwd, specifier);
    if (!existsSync(path)) throw new CliError(`--plugin ${specifier}: no such file or directory`);
    return statSync(path).isDirectory() ? packageEntry(path) : path;
  }
  const packageDirectory = findInstalledPackage(specifier, cwd) ?? findInstalledPackage(specifier, import.meta.dirname);
  if (packageDirectory === undefined) {
    // `--plugin packages/my-strategy` means the folder beside the user, not a package named that: accept it when no
    // installed package of that name exists.
    const path = resolve(cwd, specifier);
    if (existsSync(path)) return statSync(path).isDirectory() ? packageEntry(path) : path;
    throw new CliError(`--plugin ${specifier}: package not found (install it, or give a path to the module)`);
  }
  return packageEntry(packageDirectory);
}

function sourcesFromModule(module: Record<string, unknown>, origin: string): StrategySource[] {
  const candidates: [string, unknown][] = Object.entries(module).filter(
    ([name, value]) => name === 'default' || (isFactoryName(name) && typeof value === 'function'),
  );
  const sources: StrategySource[] = [];
  for (const [exportName, value] of candidates) {
    let create: (settings?: Readonly<Record<string, unknown>>) => CompressionStrategy;
    if (typeof value === 'function') {
      create = (settings) => {
        const strategy = (value as Factory)(settings);
        assertCompressionStrategy(strategy);
        return strategy;
      };
    } else if (typeof value === 'object' && value !== null) {
      assertCompressionStrategy(value);
      const strategy = value;
      create = (settings) => {
        if (settings !== undefined && Object.keys(settings).length > 0) {
          throw new CliError(`strategy "${strategy.name}" from ${origin} is an object, not a factory: it takes no settings`);
        }
        return strategy;
      };
    } else {
      continue;
    }
    let name: string;
    try {
      name = create().name;
    } catch (error) {
      throw new CliError(`--plugin ${origin}: export "${exportName}" is not a strategy factory: ${(error as Error).message.split('\n').join(' ')}`);
    }
    sources.push({ name, origin, create });
  }
  if (sources.length === 0) {
    throw new CliError(
      `--plugin ${origin}: exports no strategy; expected a default export or a named create…Strategy factory`,
    );
  }
  return sources;
}

/**
 * Loads third-party strategies: each specifier is a module path, a package directory, or the name of a package
 * installed in the current project. The module's default export and every `create…Strategy` export are taken as
 * strategy factories (or strategy objects).
 *
 * @throws {@link CliError} with one line when a plugin cannot be found or exports no valid strategy.
 */
export async function loadPlugins(specifiers: readonly string[], cwd = process.cwd()): Promise<StrategySource[]> {
  const sources: StrategySource[] = [];
  for (const specifier of specifiers) {
    const entry = resolvePluginEntry(specifier, cwd);
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
    } catch (error) {
      throw new CliError(`--plugin ${specifier}: cannot load ${entry}: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
    sources.push(...sourcesFromModule(module, specifier));
  }
  return sources;
}

/** The strategies this playground ships with. */
export function builtInStrategySources(): StrategySource[] {
  return strategyCatalog.map((entry) => ({
    name: entry.name,
    origin: entry.packageName,
    create: (settings) => entry.create(settings),
  }));
}

/**
 * Picks strategies by name from the known sources; a name that is not known is looked up as an installed
 * `@ctx/strategy-<name>` package.
 *
 * @param names - The names in order; undefined means every known strategy.
 * @throws {@link CliError} naming the unknown strategy and the known ones.
 */
export async function selectStrategySources(
  names: readonly string[] | undefined,
  known: readonly StrategySource[],
): Promise<StrategySource[]> {
  if (names === undefined) return [...known];
  const selected: StrategySource[] = [];
  for (const name of names) {
    const source = known.find((candidate) => candidate.name === name);
    if (source !== undefined) {
      selected.push(source);
      continue;
    }
    const installed = findInstalledPackage(`@ctx/strategy-${name}`, process.cwd());
    const fromPackage =
      installed === undefined ? [] : (await loadPlugins([installed])).filter((candidate) => candidate.name === name);
    if (fromPackage[0] === undefined) {
      throw new CliError(`unknown strategy "${name}"; known strategies: ${known.map((candidate) => candidate.name).join(', ')}`);
    }
    selected.push(fromPackage[0]);
  }
  return selected;
}
