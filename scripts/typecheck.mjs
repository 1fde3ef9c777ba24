#!/usr/bin/env node
// Type-checks every workspace package the way its own `typecheck` script does (`tsc -p <config> --noEmit`, each
// config with its own options), in one process: the programs share the files they all read (TypeScript's libraries,
// @types/node, zod's and the built packages' declarations), parsed and bound once instead of once per package.
// Run one `tsc` per package (turbo run typecheck), the check took 164 s of a 2-core CI machine and 5 minutes of CPU,
// about half of it parsing and binding the same declaration files once per config (32 of them).
// Usage: node scripts/typecheck.mjs (after the build: the packages' tests import each other's built declarations).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const workspaceParents = ['packages', 'apps', 'tooling'];

/** The configs a package's `typecheck` script checks, in its order (`tsc -p <config> --noEmit`, joined by `&&`). */
function configsOf(packageDirectory) {
  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
  const script = manifest.scripts?.typecheck;
  if (script === undefined) return [];
  return script.split('&&').map((command) => {
    const match = /^\s*tsc -p (\S+) --noEmit\s*$/.exec(command);
    if (match === null) {
      const expected = 'expected its typecheck script to be `tsc -p <config> --noEmit` commands joined by &&';
      throw new Error(`${relative(root, packageDirectory)}: ${expected}, found ${JSON.stringify(script)}`);
    }
    return join(packageDirectory, match[1]);
  });
}

const configs = workspaceParents.flatMap((parent) =>
  existsSync(join(root, parent))
    ? readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, 'package.json')))
        .flatMap((entry) => configsOf(join(root, parent, entry.name)))
    : [],
);

// Parsed and bound files, shared by every program that reads the same file with the same settings: a source file's
// syntax tree and binding depend only on its text and on the settings TypeScript's language service groups its shared
// files by (its document registry's key: language version, module settings, strictness, …), never on the program
// around it.
const sourceFiles = new Map();
const registry = ts.createDocumentRegistry();
const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
let problems = 0;
const started = performance.now();

for (const configPath of configs) {
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(`${relative(root, configPath)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    },
  });
  if (parsed === undefined) throw new Error(`could not read ${relative(root, configPath)}`);
  const host = ts.createCompilerHost(parsed.options);
  const readSourceFile = host.getSourceFile.bind(host);
  const settingsKey = registry.getKeyForCompilationSettings(parsed.options);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const options =
      typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const key = `${fileName}|${options.languageVersion}|${options.impliedNodeFormat ?? ''}|${settingsKey}`;
    if (!shouldCreateNewSourceFile && sourceFiles.has(key)) return sourceFiles.get(key);
    const file = readSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    if (file !== undefined) sourceFiles.set(key, file);
    return file;
  };
  const { fileNames: rootNames, options, projectReferences } = parsed;
  const program = ts.createProgram({ rootNames, options, projectReferences, host });
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  problems += diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error).length;
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  if (diagnostics.length > 0) process.stdout.write(format(diagnostics, formatHost));
  const files = program.getRootFileNames().length;
  process.stdout.write(`${diagnostics.length === 0 ? '✓' : '✗'} ${relative(root, configPath)}: ${files} files\n`);
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`typecheck: ${configs.length} configs, ${problems} error${problems === 1 ? '' : 's'} (${seconds} s)\n`);
process.exitCode = problems === 0 ? 0 : 1;
