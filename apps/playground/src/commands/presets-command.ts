import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createPresetStrategy, presetToJson, type Preset } from '@ctx/presets';
import { CliError, type CliIo } from '../cli-io.js';
import { findPreset, listPresets, presetsDirectory, readPresetFile, savePreset } from '../preset-library.js';
import { builtInStrategySources, strategyFactories } from '../strategy-sources.js';
import { UsageError } from '../usage-error.js';
import { outputColumns, wrapText } from '../wrap-text.js';
import { writeFileAtomically } from '../write-file-atomically.js';

/** What `ctx presets …` was asked to do. */
export type PresetsCommandOptions =
  | { readonly action: 'list'; readonly json: boolean }
  | { readonly action: 'show'; readonly name: string; readonly json: boolean }
  | { readonly action: 'export'; readonly name: string; readonly out?: string; readonly force: boolean }
  | { readonly action: 'import'; readonly file: string; readonly name?: string; readonly force: boolean };

const kebabCase = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Strategies a preset names that no installed package provides (`--plugin` ones are only known when loaded). */
function missingStrategies(preset: Preset): string[] {
  const installed = new Set(builtInStrategySources().map((source) => source.name));
  return preset.strategies.map((step) => step.strategy).filter((name) => !installed.has(name));
}

/**
 * Whether running the preset calls a model (any of its steps, with the preset's settings, `requiresLLM`); undefined
 * when that cannot be told here: a step is not installed, or the preset's settings are rejected.
 */
function presetNeedsModel(preset: Preset): boolean | undefined {
  if (missingStrategies(preset).length > 0) return undefined;
  try {
    return createPresetStrategy(preset, { factories: strategyFactories(builtInStrategySources()) }).requiresLLM;
  } catch {
    return undefined;
  }
}

function describePreset(preset: Preset, origin: string, width: number): string[] {
  const missing = missingStrategies(preset);
  const needsModel = presetNeedsModel(preset);
  const lines = [
    ...wrapText(`${preset.name} — ${origin}`, { width }),
    ...wrapText(preset.description, { width, indent: '  ' }),
    ...wrapText(`runs: ${preset.strategies.map((step) => step.strategy).join(' → ')}${preset.threshold === undefined ? '' : ` · threshold ${preset.threshold}`}`, { width, indent: '  ' }),
  ];
  if (needsModel !== undefined) {
    lines.push(...wrapText(needsModel ? 'model: needed — pass a summarizer (--summarizer-url with --summarizer-model, or --summarizer anthropic:<model>)' : 'model: none (mechanical, no model calls)', { width, indent: '  ' }));
  }
  if (missing.length > 0) lines.push(...wrapText(`not installed: ${missing.join(', ')} (load with --plugin)`, { width, indent: '  ' }));
  return lines;
}

/**
 * `ctx presets [list|show|export|import]`: the presets `--preset` / `--presets` accept. Built-in presets come with
 * `@ctx/presets`; imported ones are validated and saved as `<name>.json` in the presets directory
 * (`$CTX_PRESETS_DIR`, else `$XDG_CONFIG_HOME/ctx/presets`, else `~/.config/ctx/presets`).
 */
export async function runPresetsCommand(options: PresetsCommandOptions, io: CliIo): Promise<number> {
  const width = outputColumns(io.columns);
  switch (options.action) {
    case 'list': {
      const { presets, problems } = await listPresets();
      if (options.json) {
        io.stdout(
          JSON.stringify({ presets: presets.map((entry) => ({ ...entry.preset, origin: entry.origin, requiresLLM: presetNeedsModel(entry.preset) ?? null })), problems }, null, 2),
        );
      } else {
        io.stdout(
          [
            ...presets.map((entry) => describePreset(entry.preset, entry.origin, width).join('\n')),
            `Saved presets live in ${presetsDirectory()}; use one with ctx compress FILE --preset NAME or ctx compare --presets a,b.`,
          ].join('\n\n'),
        );
      }
      for (const problem of problems) io.stderr(`ctx: skipped a saved preset: ${problem}`);
      return problems.length === 0 ? 0 : 1;
    }
    case 'show': {
      const { preset, origin } = await findPreset(options.name);
      if (options.json) {
        io.stdout(presetToJson(preset).trimEnd());
        return 0;
      }
      const steps = preset.strategies.flatMap((step, index) => [
        `  ${index + 1}. ${step.strategy}`,
        ...(step.settings === undefined || Object.keys(step.settings).length === 0
          ? ['     (default settings)']
          : JSON.stringify(step.settings, null, 2)
              .split('\n')
              .map((line) => `     ${line}`)),
      ]);
      io.stdout([...describePreset(preset, origin, width), '', 'Steps, in order:', ...steps].join('\n'));
      return 0;
    }
    case 'export': {
      const { preset } = await findPreset(options.name);
      const json = presetToJson(preset);
      if (options.out === undefined) {
        io.stdout(json.trimEnd());
        return 0;
      }
      const target = resolve(options.out);
      if (existsSync(target) && !options.force) throw new CliError(`--out ${options.out} exists; add --force to replace it`);
      await writeFileAtomically(target, [json]);
      io.stderr(`ctx: wrote preset "${preset.name}" to ${options.out}`);
      return 0;
    }
    case 'import': {
      if (options.name !== undefined && !kebabCase.test(options.name)) {
        throw new UsageError(`--name expects a kebab-case name such as "my-agent", got "${options.name}"`);
      }
      const read = await readPresetFile(options.file);
      const preset = options.name === undefined ? read : { ...read, name: options.name };
      const file = await savePreset(preset, { force: options.force });
      const missing = missingStrategies(preset);
      io.stdout(`Saved preset "${preset.name}" to ${file}; use it with --preset ${preset.name}`);
      if (missing.length > 0) io.stderr(`ctx: note: preset "${preset.name}" names strategies not installed here: ${missing.join(', ')} (load them with --plugin)`);
      return 0;
    }
  }
}
