import type { JsonValue } from '@ctx/core';
import { joinGlob } from '../path-patterns.js';
import { findDiffTargets } from '../shell/diff-targets.js';
import { emptySemantics } from '../tool-call-semantics.js';
import { asParameterObject, readString } from '../tool-parameters.js';
import type { ToolCallClassifier } from '../tool-semantics-registry.js';
import { fixedKind } from './classifier-builders.js';

function quoteArgument(argument: string): string {
  return /^[A-Za-z0-9_\-./=:@%+,]+$/.test(argument) ? argument : `'${argument.replaceAll("'", `'\\''`)}'`;
}

/** A command given as an argv array: `["bash", "-lc", script]` is the script; anything else is joined with quoting. */
function commandText(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (!Array.isArray(value)) return undefined;
  const argv = (value as readonly JsonValue[]).filter((item): item is string => typeof item === 'string');
  if (argv.length === 0) return undefined;
  const [program, flag, script] = argv;
  if (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(program ?? '') && /^-[a-z]*c$/.test(flag ?? '')) return script;
  return argv.map(quoteArgument).join(' ');
}

/** Codex `shell` / `local_shell` / `exec_command`: argv or string command, optional working directory. */
const shell: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const command = commandText(parameters?.['command'] ?? parameters?.['cmd']);
  if (command === undefined) return emptySemantics('shell');
  const directory = readString(parameters, 'workdir', 'working_directory', 'cwd');
  return context.classifyShellCommand(command, directory === undefined ? undefined : { cwd: directory });
};

/** Codex `apply_patch`: the envelope names every file it adds, updates, deletes or moves. */
const applyPatch: ToolCallClassifier = (call, context) => {
  const parameters = asParameterObject(call.parameters);
  const patch = readString(parameters, 'input', 'patch') ?? (typeof call.parameters === 'string' ? call.parameters : undefined);
  if (patch === undefined) return emptySemantics('edit');
  const writes = findDiffTargets(patch).map((target) => ({ path: joinGlob(context.workspaceRoot, target), partial: true }));
  return { ...emptySemantics('edit'), writes };
};

const viewImage: ToolCallClassifier = (call, context) => {
  const path = readString(asParameterObject(call.parameters), 'path');
  return path === undefined ? emptySemantics('read') : { ...emptySemantics('read'), reads: [{ path: context.resolvePath(path), partial: false }] };
};

/** OpenAI Codex CLI tools. */
export const codexToolClassifiers: readonly (readonly [string, ToolCallClassifier])[] = [
  ['shell', shell],
  ['local_shell', shell],
  ['exec_command', shell],
  ['apply_patch', applyPatch],
  ['update_plan', fixedKind('todo')],
  ['view_image', viewImage],
];
