import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertCompressionStrategy, type CompressionStrategy } from '@ctx/core';
import { CliError } from './cli-io.js';
import { strategyCatalog } from './strategy-catalog.js';
import { UsageError } from './usage-error.js';

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

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** Every line of the message, trimmed, on one line. */
function flatMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}

const expectedPackage = 'expected a package folder whose package.json names its module in "exports" or "main", or the path of a module file';

/**
 * The module file of a plugin package folder: `exports` (`.` with `import`, `node` or `default`), else `main`, else
 * `index.js`.
 *
 * @param specifier - What the user wrote, for the messages.
 * @throws {@link CliError} naming the file when there is no package.json, it is not JSON, or the entry is missing.
 */
function packageEntry(packageDirectory: string, specifier: string): string {
  const manifestPath = join(packageDirectory, 'package.json');
  if (!existsSync(manifestPath)) {
    throw new CliError(`--plugin ${specifier}: no package.json in ${packageDirectory}; ${expectedPackage}`);
  }
  let manifest: { exports?: unknown; main?: unknown };
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('expected a JSON object');
    manifest = parsed;
  } catch (error) {
    throw new CliError(`--plugin ${specifier}: ${manifestPath} is not a valid package.json (${firstLine(error)}); ${expectedPackage}`, { cause: error });
  }
  const root: unknown =
    typeof manifest.exports === 'object' && manifest.exports !== null && '.' in manifest.exports
      ? (manifest.exports as Record<string, unknown>)['.']
      : manifest.exports;
  let entry: string | undefined;
  let from: string;
  if (typeof root === 'string') {
    entry = root;
    from = '"exports"';
  } else if (typeof root === 'object' && root !== null) {
    const conditions = root as Record<string, unknown>;
    entry = ['import', 'node', 'default'].map((condition) => conditions[condition]).find((target) => typeof target === 'string');
    from = '"exports"';
    if (entry === undefined) {
      throw new CliError(
        `--plugin ${specifier}: ${manifestPath} "exports" has no "import", "node" or "default" entry for "."; expected one naming the ES module to load`,
      );
    }
  } else if (typeof manifest.main === 'string') {
    entry = manifest.main;
    from = '"main"';
  } else {
    entry = 'index.js';
    from = 'the default (no "exports" or "main")';
  }
  const path = join(packageDirectory, entry);
  if (!existsSync(path) || statSync(path).isDirectory()) {
    throw new CliError(
      `--plugin ${specifier}: the entry point ${path} (from ${from} in ${manifestPath}) is not a file; build the package, or point "exports" or "main" at its module`,
    );
  }
  return path;
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
    return statSync(path).isDirectory() ? packageEntry(path, specifier) : path;
  }
  const packageDirectory = findInstalledPackage(specifier, cwd) ?? findInstalledPackage(specifier, import.meta.dirname);
  if (packageDirectory === undefined) {
    // `--plugin packages/my-strategy` means the folder beside the user, not a package named that: accept it when no
    // installed package of that name exists.
    const path = resolve(cwd, specifier);
    if (existsSync(path)) return statSync(path).isDirectory() ? packageEntry(path, specifier) : path;
    throw new CliError(`--plugin ${specifier}: package not found (install it, or give a path to the module)`);
  }
  return packageEntry(packageDirectory, specifier);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function sourcesFromModule(module: Record<string, unknown>, origin: string): StrategySource[] {
  const candidates: [string, unknown][] = Object.entries(module).filter(
    ([name, value]) => name === 'default' || (isFactoryName(name) && typeof value === 'function'),
  );
  const sources: StrategySource[] = [];
  for (const [exportName, value] of candidates) {
    if (value === undefined) continue;
    const notAStrategy = (what: string, cause?: unknown) =>
      new CliError(`--plugin ${origin}: export "${exportName}" ${what}; expected a strategy factory (a function returning a strategy) or a strategy object`, { cause });
    let create: (settings?: Readonly<Record<string, unknown>>) => CompressionStrategy;
    if (typeof value === 'function') {
      create = (settings) => {
        const strategy = (value as Factory)(settings);
        assertCompressionStrategy(strategy);
        return strategy;
      };
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      try {
        assertCompressionStrategy(value);
      } catch (error) {
        // A CommonJS module's `module.exports` arrives as the default export beside its named factories: skip it.
        if (exportName === 'default' && candidates.length > 1) continue;
        throw notAStrategy(`is not a strategy (${flatMessage(error)})`, error);
      }
      const strategy = value;
      create = (settings) => {
        if (settings !== undefined && Object.keys(settings).length > 0) {
          throw new CliError(`strategy "${strategy.name}" from ${origin} is an object, not a factory: it takes no settings`);
        }
        return strategy;
      };
    } else {
      throw notAStrategy(`is ${describeValue(value)}`);
    }
    let name: string;
    try {
      name = create().name;
    } catch (error) {
      throw notAStrategy(`is not a strategy factory: called without settings, it threw ${flatMessage(error)}`, error);
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
      const description = error instanceof Error ? `${error.name}: ${firstLine(error)}` : String(error);
      throw new CliError(`--plugin ${specifier}: importing ${entry} failed (${description}); expected an ES module that loads without errors`, {
        cause: error,
      });
    }
    sources.push(...sourcesFromModule(module, specifier));
  }
  return sources;
}

/**
 * The sources as the factories a preset's steps are created from (`createPresetStrategy`), by name; when two sources
 * share a name the first wins, as for `--strategies` (built-in before plugins).
 *
 * @param sources - Built-in, installed and plugin sources, in that order.
 */
export function strategyFactories(sources: readonly Pick<StrategySource, 'name' | 'create'>[]): Record<string, StrategySource['create']> {
  const factories: Record<string, StrategySource['create']> = {};
  for (const source of sources) if (!Object.hasOwn(factories, source.name)) factories[source.name] = source.create;
  return factories;
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
 * @throws `UsageError` naming the unknown strategy and the known ones.
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
      throw new UsageError(`unknown strategy "${name}"; known strategies: ${known.map((candidate) => candidate.name).join(', ')}`);
    }
    selected.push(fromPackage[0]);
  }
  return selected;
}
