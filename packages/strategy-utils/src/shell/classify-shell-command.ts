import { normalizeToolPath } from '../normalize-tool-path.js';
import { hasGlobSyntax } from '../path-patterns.js';
import type { FileAccess, LineRange, ToolCallKind, ToolCallSemantics } from '../tool-call-semantics.js';
import {
  commandHandlers,
  stdinFileCommands,
  unknownCommandEffect,
  type CommandEffect,
  type CommandScope,
  type ResolvedOperand,
  type StdinFilter,
} from './command-effects.js';
import { parseShellCommand, type ShellRedirect, type ShellSimpleCommand, type ShellWord } from './parse-shell-command.js';
import { classifySweAgentCommand, sweAgentCommandNames } from './swe-agent-commands.js';

/** Where a shell command runs. */
export interface ShellCommandOptions {
  /** The session's working directory: relative paths resolve against it (spec 000 BR-PRUNE-006). */
  readonly workspaceRoot: string;
  /** The directory the command starts in, absolute or relative to `workspaceRoot`. @default workspaceRoot */
  readonly cwd?: string;
  /** The file SWE-agent's editor has open, for `edit`, `insert`, `goto` and `scroll_*` text actions. */
  readonly openFile?: string;
}

type EffectKind = ToolCallKind | 'neutral';

interface Accumulated {
  kind: EffectKind;
  reads: FileAccess[];
  writes: FileAccess[];
  globs: string[];
}

const assignmentPattern = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
const keywords = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', '}', 'time', 'coproc']);
const skippedStatements = new Set(['for', 'select', 'case', 'function']);
/**
 * Wrappers that run the rest of the line as the command, with the letters of their short options that take a value.
 * A map, as every table looked up by a name from a command line: an object would answer `toString` or `constructor`.
 */
const wrapperOptionValues: ReadonlyMap<string, string> = new Map<string, string>([
  ['sudo', 'ugCDhpRrTt'],
  ['env', 'uCS'],
  ['nohup', ''],
  ['command', ''],
  ['builtin', ''],
  ['exec', 'a'],
  ['nice', 'n'],
  ['stdbuf', 'ioe'],
  ['ionice', 'cnp'],
  ['xvfb', ''],
  ['caffeinate', 'tw'],
]);

function combineKinds(first: EffectKind, second: EffectKind): EffectKind {
  if (first === 'neutral') return second;
  if (second === 'neutral' || first === second) return first;
  const modifies = (kind: EffectKind) => kind === 'write' || kind === 'edit';
  if (modifies(first) && modifies(second)) return 'edit';
  return 'shell';
}

/** Drops leading assignments, keywords and wrappers (`sudo`, `env`, `timeout 10`): what remains is the command. */
function effectiveWords(words: readonly ShellWord[]): readonly ShellWord[] | undefined {
  let index = 0;
  while (index < words.length) {
    const text = (words[index] as ShellWord).text;
    if (skippedStatements.has(text)) return undefined;
    if (keywords.has(text) || assignmentPattern.test(text)) {
      index++;
      continue;
    }
    if (text === 'timeout') {
      index++;
      while (index < words.length && (words[index] as ShellWord).text.startsWith('-')) index++;
      index++;
      continue;
    }
    const optionValues = wrapperOptionValues.get(text);
    if (optionValues !== undefined) {
      index++;
      while (index < words.length) {
        const option = (words[index] as ShellWord).text;
        if (!option.startsWith('-') || option === '-') break;
        const letter = option[1] ?? '';
        index += option.length === 2 && optionValues.includes(letter) ? 2 : 1;
      }
      continue;
    }
    break;
  }
  return words.slice(index);
}

function applyRange(base: LineRange | undefined, slice: LineRange): LineRange {
  const start = base?.start ?? 1;
  const sliceStart = start + slice.start - 1;
  const sliceEnd = slice.end === undefined ? undefined : start + slice.end - 1;
  const end =
    base?.end === undefined ? sliceEnd : sliceEnd === undefined ? base.end : Math.min(base.end, sliceEnd);
  return end === undefined ? { start: sliceStart } : { start: sliceStart, end: Math.max(sliceStart, end) };
}

/** Applies a pipe filter (`| head -20`, `| grep x`) to what the pipeline produced so far. */
function applyFilter(state: Accumulated, filter: StdinFilter): void {
  if (state.kind === 'neutral') {
    state.kind = 'shell';
    return;
  }
  if (filter.type === 'opaque') {
    state.kind = 'shell';
    return;
  }
  if (state.kind !== 'read') return;
  if (filter.type === 'search') {
    state.kind = 'search';
    state.reads = state.reads.map((read) => ({ path: read.path, partial: true }));
  } else if (filter.type === 'range') {
    const range = filter.range;
    state.reads = state.reads.map((read) =>
      range === undefined ? { path: read.path, partial: true } : { path: read.path, lineRange: applyRange(read.lineRange, range), partial: true },
    );
  }
}

function isStdout(redirect: ShellRedirect): boolean {
  return redirect.operator === '&>' || redirect.operator === '&>>' || redirect.fd === undefined || redirect.fd === 1;
}

/**
 * Classifies a shell command line: which files it reads and writes (with line ranges where the command says so),
 * and what kind of result it produces. Understands `cd dir && …` (later relative paths resolve in `dir`; a
 * subshell's `cd` ends with it), `;`/`&&`/`||`/`&`/newlines, pipes (`nl -ba f | sed -n '10,20p'` reads lines
 * 10–20 of `f`), quotes, here-documents (their bodies are content, never commands), redirections (`> f` writes,
 * `>> f` appends, `2>&1` and `/dev/*` are ignored), `bash -c '…'`, and SWE-agent's own commands (`open`, `edit
 * 10:20`, `create`, …) when a command line is one of them.
 *
 * The kind is `read` only when every command reads files whose content reaches the result (`cat`, `head`, `sed
 * -n`, `nl`, SWE-agent `open`); `search`, `list`, `write` and `edit` likewise; commands such as `cd`, `echo` and
 * `mkdir` do not count; any mix, and any unknown program, gives `shell`. Files named only by scripts
 * (`python fix.py`), by variables (`cat $F`), or by a patch read from a file (`git apply fix.diff`) are unknown
 * and not reported. Never throws; linear in the length of the command.
 *
 * @param command - The command line as the agent wrote it.
 * @param options - Working directory and SWE-agent editor state.
 * @returns The semantics, with `command` set to `command`.
 * @example
 * ```ts
 * classifyShellCommand("cd src && sed -n '10,20p' app.ts", { workspaceRoot: '/repo' });
 * // { kind: 'read', reads: [{ path: '/repo/src/app.ts', lineRange: { start: 10, end: 20 }, partial: true }], … }
 * ```
 */
export function classifyShellCommand(command: string, options: ShellCommandOptions): ToolCallSemantics {
  const startDirectory = normalizeToolPath(options.cwd ?? '', options.workspaceRoot);
  const sweAgent = classifySweAgentLine(command, startDirectory, options.openFile);
  if (sweAgent !== undefined) return sweAgent;
  const state = classifyScript(command, startDirectory, options, 0);
  return {
    kind: state.kind === 'neutral' ? 'shell' : state.kind,
    reads: distinctAccesses(state.reads),
    writes: distinctAccesses(state.writes),
    globs: [...new Set(state.globs)],
    command,
  };
}

/** Drops repeated identical accesses (`sed -i … f; sed -i … f` edits `f` once as far as anyone can tell). */
function distinctAccesses(accesses: readonly FileAccess[]): FileAccess[] {
  if (accesses.length < 2) return [...accesses];
  const seen = new Set<string>();
  return accesses.filter((access) => {
    const key = `${access.path}\u0000${access.partial}\u0000${access.lineRange?.start ?? ''}\u0000${access.lineRange?.end ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A command whose first line is a lone SWE-agent command (`edit 10:20` followed by the new text, `open f 12`). */
function classifySweAgentLine(command: string, cwd: string, openFile: string | undefined): ToolCallSemantics | undefined {
  const trimmed = command.trimStart();
  const newline = trimmed.indexOf('\n');
  const firstLine = newline === -1 ? trimmed : trimmed.slice(0, newline);
  const firstWord = /^\S+/.exec(firstLine)?.[0];
  if (firstWord === undefined || !sweAgentCommandNames.has(firstWord)) return undefined;
  const items = parseShellCommand(firstLine);
  const only = items[0];
  if (items.length !== 1 || only?.type !== 'pipeline' || only.commands.length !== 1) return undefined;
  const simple = only.commands[0] as ShellSimpleCommand;
  if (simple.redirects.length > 0) return undefined;
  return classifySweAgentCommand(simple.words, openFile === undefined ? { cwd } : { cwd, openFile }, command);
}

/** Nested scripts (`bash -c`) deeper than this are treated as unknown programs. */
const maximumNesting = 4;

function classifyScript(script: string, startDirectory: string | undefined, options: ShellCommandOptions, depth: number): Accumulated {
  const total: Accumulated = { kind: 'neutral', reads: [], writes: [], globs: [] };
  let cwd = startDirectory;
  const subshellDirectories: (string | undefined)[] = [];
  const directoryStack: (string | undefined)[] = [];

  const resolveIn = (directory: string | undefined) => (word: ShellWord): ResolvedOperand | undefined => {
    if (word.dynamic || word.text === '' || word.text === '-') return undefined;
    const absolute = /^(?:\/|~|[A-Za-z]:[\\/]|\\\\)/.test(word.text);
    if (!absolute && directory === undefined) return undefined;
    const path = normalizeToolPath(word.text, directory ?? '/');
    if (path === '/dev' || path.startsWith('/dev/') || path.startsWith('/proc/')) return undefined;
    return word.glob || hasGlobSyntax(word.text) ? { glob: path } : { path };
  };

  const makeScope = (directory: string | undefined, stdinText: string | undefined, piped: boolean): CommandScope => ({
    cwd: directory,
    resolve: resolveIn(directory),
    stdinText,
    piped,
    nested: (nestedScript, nestedDirectory) => {
      if (depth >= maximumNesting) return { kind: 'shell', reads: [], writes: [], globs: [] };
      const nested = classifyScript(nestedScript, nestedDirectory, options, depth + 1);
      return { kind: nested.kind === 'neutral' ? 'shell' : nested.kind, reads: nested.reads, writes: nested.writes, globs: nested.globs };
    },
    withCwd: (other) => makeScope(other, stdinText, piped),
  });

  const changeDirectory = (words: readonly ShellWord[]): boolean => {
    const name = words[0]?.text;
    if (name !== 'cd' && name !== 'pushd' && name !== 'popd') return false;
    if (name === 'popd') {
      cwd = directoryStack.pop();
      return true;
    }
    const target = words.slice(1).find((word) => !/^-[LPe@]+$/.test(word.text));
    if (name === 'pushd') directoryStack.push(cwd);
    if (target === undefined || target.text === '~') cwd = '~';
    else if (target.text === '-' || target.dynamic) cwd = undefined;
    else {
      const resolved = resolveIn(cwd)(target);
      cwd = resolved !== undefined && 'path' in resolved ? resolved.path : undefined;
    }
    return true;
  };

  for (const item of parseShellCommand(script)) {
    if (item.type === 'subshell-start') {
      subshellDirectories.push(cwd);
      continue;
    }
    if (item.type === 'subshell-end') {
      // An unbalanced `)` (a `case` pattern) changes nothing.
      if (subshellDirectories.length > 0) cwd = subshellDirectories.pop();
      continue;
    }
    const pipeline: Accumulated = { kind: 'neutral', reads: [], writes: [], globs: [] };
    const single = item.commands.length === 1;
    item.commands.forEach((simple, position) => {
      const words = effectiveWords(simple.words);
      if (words === undefined) {
        pipeline.kind = combineKinds(pipeline.kind, 'shell');
        return;
      }
      if (single && simple.redirects.length === 0 && changeDirectory(words)) return;
      applyCommand(pipeline, words, simple.redirects, position > 0, cwd, makeScope, resolveIn(cwd));
    });
    total.kind = combineKinds(total.kind, pipeline.kind);
    appendAll(total.reads, pipeline.reads);
    appendAll(total.writes, pipeline.writes);
    appendAll(total.globs, pipeline.globs);
  }
  return total;
}

function applyCommand(
  pipeline: Accumulated,
  words: readonly ShellWord[],
  redirects: readonly ShellRedirect[],
  piped: boolean,
  cwd: string | undefined,
  makeScope: (directory: string | undefined, stdinText: string | undefined, piped: boolean) => CommandScope,
  resolve: (word: ShellWord) => ResolvedOperand | undefined,
): void {
  const name = words[0]?.text ?? '';
  const program = name.slice(name.lastIndexOf('/') + 1);
  let args = words.slice(1);
  const extraReads: FileAccess[] = [];
  const writes: FileAccess[] = [];
  let stdinText: string | undefined;
  let stdinFromFile = false;
  let stdoutToFile = false;

  for (const redirect of redirects) {
    const target = redirect.target;
    switch (redirect.operator) {
      case '<<':
      case '<<-':
        stdinText = redirect.heredoc;
        break;
      case '<<<':
        stdinText = target === undefined ? undefined : `${target.text}\n`;
        break;
      case '<':
      case '<>': {
        if (target === undefined) break;
        stdinFromFile = true;
        if (stdinFileCommands.has(program)) args = [...args, target];
        else {
          const resolved = resolve(target);
          if (resolved !== undefined && 'path' in resolved) extraReads.push({ path: resolved.path, partial: false });
        }
        break;
      }
      case '<&':
        break;
      case '>&':
        // `2>&1` duplicates a descriptor; `>& file` (csh style) writes the file.
        if (target === undefined || /^\d+-?$|^-$/.test(target.text)) break;
        stdoutToFile ||= isStdout(redirect);
        pushWrite(writes, resolve(target), false);
        break;
      default: {
        if (target === undefined) break;
        const resolved = resolve(target);
        if (resolved === undefined) break;
        stdoutToFile ||= isStdout(redirect);
        pushWrite(writes, resolved, redirect.operator === '>>' || redirect.operator === '&>>');
      }
    }
  }

  const handler = commandHandlers.get(program);
  const readsPipe = piped && !stdinFromFile && stdinText === undefined;
  const scope = makeScope(cwd, stdinText, readsPipe);
  const effect: CommandEffect = program === '' ? { kind: 'neutral' } : handler === undefined ? unknownCommandEffect : handler(args, scope);

  if (piped && effect.filter !== undefined && readsPipe) applyFilter(pipeline, effect.filter);
  else pipeline.kind = combineKinds(pipeline.kind, stdoutToFile ? redirectedKind(effect.kind) : effect.kind);
  if (stdoutToFile && piped && effect.filter !== undefined) pipeline.kind = redirectedKind(pipeline.kind);

  appendAll(pipeline.reads, effect.reads ?? []);
  appendAll(pipeline.reads, extraReads);
  appendAll(pipeline.writes, effect.writes ?? []);
  appendAll(pipeline.writes, writes);
  appendAll(pipeline.globs, effect.globs ?? []);
}

/** `target.push(...source)` without spreading: a command with a hundred thousand words must not overflow the stack. */
function appendAll<T>(target: T[], source: readonly T[]): void {
  for (const item of source) target.push(item);
}

function pushWrite(writes: FileAccess[], resolved: ResolvedOperand | undefined, append: boolean): void {
  if (resolved !== undefined && 'path' in resolved) writes.push({ path: resolved.path, partial: append });
}

/** A command whose output goes to a file shows nothing in the result: readers become writers (`cat a > b`). */
function redirectedKind(kind: EffectKind): EffectKind {
  return kind === 'read' || kind === 'search' || kind === 'list' || kind === 'neutral' ? 'write' : kind;
}
