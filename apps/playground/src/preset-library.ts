import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { builtInPresets, InvalidPresetError, parsePresetJson, presetToJson, type Preset } from '@ctx/presets';
import { CliError } from './cli-io.js';
import { UsageError } from './usage-error.js';
import { writeFileAtomically } from './write-file-atomically.js';

/** A preset the CLI can use, and where it comes from. */
export interface PresetEntry {
  readonly preset: Preset;
  /** `built-in`, or the file it was read from. */
  readonly origin: string;
}

/**
 * Where `ctx presets import` saves presets: `$CTX_PRESETS_DIR`, else `$XDG_CONFIG_HOME/ctx/presets`, else
 * `~/.config/ctx/presets`.
 */
export function presetsDirectory(): string {
  const explicit = process.env['CTX_PRESETS_DIR'];
  if (explicit !== undefined && explicit !== '') return explicit;
  const config = process.env['XDG_CONFIG_HOME'];
  return join(config !== undefined && config !== '' ? config : join(homedir(), '.config'), 'ctx', 'presets');
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('; ')
    // A heading line (`Invalid preset "x":`) runs on into its first issue, not `:;`.
    .replaceAll(':; ', ': ');
}

/** Reads one preset file; a file that is not a valid preset is a one-line `CliError` naming it. */
export async function readPresetFile(file: string): Promise<Preset> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot read the preset (${(error as NodeJS.ErrnoException).code ?? oneLine(error)})`, { cause: error });
  }
  try {
    return parsePresetJson(text);
  } catch (error) {
    if (InvalidPresetError.isInstance(error)) throw new CliError(`${file}: ${oneLine(error)}`, { cause: error });
    throw error;
  }
}

/**
 * Every preset: the built-in ones, then the saved ones (`*.json` in {@link presetsDirectory}, by name). A saved file
 * that cannot be used is reported in `problems`, not thrown, so one bad file does not hide the others.
 */
export async function listPresets(): Promise<{ presets: PresetEntry[]; problems: string[] }> {
  const presets: PresetEntry[] = Object.values(builtInPresets).map((preset) => ({ preset, origin: 'built-in' }));
  const problems: string[] = [];
  const directory = presetsDirectory();
  if (!existsSync(directory)) return { presets, problems };
  const files = (await readdir(directory)).filter((name) => name.endsWith('.json')).sort();
  for (const name of files) {
    const file = join(directory, name);
    try {
      const preset = await readPresetFile(file);
      if (Object.hasOwn(builtInPresets, preset.name)) {
        problems.push(`${file}: "${preset.name}" is a built-in preset's name, so the built-in one is used; rename the file and the preset`);
        continue;
      }
      if (`${preset.name}.json` !== name) {
        problems.push(`${file}: holds preset "${preset.name}"; a saved preset's file is named after it (${preset.name}.json)`);
        continue;
      }
      presets.push({ preset, origin: file });
    } catch (error) {
      problems.push(oneLine(error));
    }
  }
  return { presets, problems };
}

/**
 * Finds a preset by name (built-in or saved) or reads it from a `.json` file path.
 *
 * @throws `UsageError` naming the known presets when there is no such preset; `CliError` for a file that is not one.
 */
export async function findPreset(nameOrFile: string): Promise<PresetEntry> {
  if (nameOrFile.endsWith('.json') || nameOrFile.includes('/')) {
    return { preset: await readPresetFile(nameOrFile), origin: nameOrFile };
  }
  const { presets } = await listPresets();
  const found = presets.find((entry) => entry.preset.name === nameOrFile);
  if (found === undefined) {
    throw new UsageError(
      `unknown preset "${nameOrFile}"; known: ${presets.map((entry) => entry.preset.name).join(', ')} (or give the path of a preset .json file)`,
    );
  }
  return found;
}

/**
 * Saves a preset into {@link presetsDirectory} as `<name>.json`, atomically.
 *
 * @throws `CliError` when the name is a built-in preset's, or the file exists and `force` is not set.
 */
export async function savePreset(preset: Preset, options: { readonly force: boolean }): Promise<string> {
  if (Object.hasOwn(builtInPresets, preset.name)) {
    throw new CliError(`"${preset.name}" is a built-in preset; save yours under another name (--name my-${preset.name})`);
  }
  const directory = presetsDirectory();
  const file = join(directory, `${preset.name}.json`);
  if (existsSync(file) && !options.force) {
    throw new CliError(`a preset "${preset.name}" is already saved (${file}); add --force to replace it`);
  }
  await mkdir(directory, { recursive: true });
  await writeFileAtomically(file, [presetToJson(preset)]);
  return file;
}
