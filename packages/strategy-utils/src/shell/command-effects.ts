import { joinGlob, looksLikeFile } from '../path-patterns.js';
import type { FileAccess, LineRange, ToolCallKind, ToolCallSemantics } from '../tool-call-semantics.js';
import { parseCommandOptions, type OptionSpec, type ParsedOptions } from './command-options.js';
import { findDiffTargets } from './diff-targets.js';
import type { ShellWord } from './parse-shell-command.js';

/** An operand resolved against the working directory: a concrete path or a glob pattern. */
export type ResolvedOperand = { readonly path: string } | { readonly glob: string };

/** How a command changes what it reads from a pipe. */
export type StdinFilter =
  /** Keeps a slice of the lines (`head`, `tail`, `sed -n 'a,bp'`); no range when the slice is not fixed. */
  | { readonly type: 'range'; readonly range?: LineRange }
  /** Keeps the matching lines (`grep`). */
  | { readonly type: 'search' }
  /** Passes content through, maybe reordered (`cat`, `sort`, `cut`). */
  | { readonly type: 'content' }
  /** Turns it into something else (`wc`, `python`, `xargs`). */
  | { readonly type: 'opaque' };

/** What one simple command does. `neutral` commands (`cd`, `echo`, `mkdir`) touch no file content. */
export interface CommandEffect {
  readonly kind: ToolCallKind | 'neutral';
  readonly reads?: readonly FileAccess[];
  readonly writes?: readonly FileAccess[];
  readonly globs?: readonly string[];
  /** Set when the command reads a pipe instead of files. */
  readonly filter?: StdinFilter;
}

/** What a command handler knows about where it runs. */
export interface CommandScope {
  /** The working directory, or undefined after a `cd` to an unknown place. */
  readonly cwd: string | undefined;
  /** Resolves an operand; undefined for expansions, `-` (stdin), devices, or relative paths under an unknown cwd. */
  resolve(word: ShellWord): ResolvedOperand | undefined;
  /** Text fed on standard input by a here-document or here-string. */
  readonly stdinText: string | undefined;
  /** True when standard input is a pipe from the previous command. */
  readonly piped: boolean;
  /** Classifies a nested script (`bash -c '…'`) run in `cwd`. */
  nested(script: string, cwd: string | undefined): ToolCallSemantics;
  /** The same scope with another working directory (`git -C dir`). */
  withCwd(cwd: string | undefined): CommandScope;
}

type CommandHandler = (args: readonly ShellWord[], scope: CommandScope) => CommandEffect;

const neutral: CommandEffect = { kind: 'neutral' };
const opaque: CommandEffect = { kind: 'shell', filter: { type: 'opaque' } };

interface Operands {
  readonly paths: string[];
  readonly globs: string[];
  /** Operands whose value is unknown (`$F`, `$(…)`, a relative path under an unknown directory). */
  readonly unresolved: number;
}

function resolveOperands(words: readonly ShellWord[], scope: CommandScope): Operands {
  const paths: string[] = [];
  const globs: string[] = [];
  let unresolved = 0;
  for (const word of words) {
    const resolved = scope.resolve(word);
    if (resolved === undefined) {
      if (word.text !== '-') unresolved++;
      continue;
    }
    if ('path' in resolved) paths.push(resolved.path);
    else globs.push(resolved.glob);
  }
  return { paths, globs, unresolved };
}

/**
 * A reader that reads a file nobody can name is not a `read`: strategies must be able to trust that a `read`
 * lists every file whose content it shows, so it becomes an unknown command.
 */
function readerKind(kind: 'read' | 'search', operands: Operands): 'read' | 'search' | 'shell' {
  return operands.unresolved > 0 ? 'shell' : kind;
}

/** `cat`-like readers: every operand is read whole; no operand means a pipe (or here-document) passes through. */
function wholeFileReader(spec: OptionSpec = {}): CommandHandler {
  return (args, scope) => {
    const { operands } = parseCommandOptions(args, spec);
    if (operands.length === 0) return scope.piped ? { kind: 'neutral', filter: { type: 'content' } } : neutral;
    const resolved = resolveOperands(operands, scope);
    return { kind: readerKind('read', resolved), reads: resolved.paths.map((path) => ({ path, partial: false })), globs: resolved.globs };
  };
}

/** A reader whose output is a slice of each file: `head`, `tail`, `sed -n`. */
function rangedRead(operands: readonly ShellWord[], scope: CommandScope, range: LineRange | undefined): CommandEffect {
  if (operands.length === 0) return scope.piped ? { kind: 'neutral', filter: { type: 'range', range } } : neutral;
  const resolved = resolveOperands(operands, scope);
  return {
    kind: readerKind('read', resolved),
    reads: resolved.paths.map((path) => (range === undefined ? { path, partial: true } : { path, lineRange: range, partial: true })),
    globs: resolved.globs,
  };
}

const head: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args, {
    shortWithValue: 'nc',
    longWithValue: ['lines', 'bytes'],
    numericShorthand: true,
  });
  const count = parsed.options.get('n') ?? parsed.options.get('lines') ?? '10';
  const byBytes = parsed.options.has('c') || parsed.options.has('bytes');
  const range = !byBytes && typeof count === 'string' && /^\d+$/.test(count) ? { start: 1, end: Number(count) } : undefined;
  return rangedRead(parsed.operands, scope, range);
};

const tail: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args, {
    shortWithValue: 'ncs',
    longWithValue: ['lines', 'bytes', 'pid', 'sleep-interval'],
    numericShorthand: true,
  });
  let operands = parsed.operands;
  let count = parsed.options.get('n') ?? parsed.options.get('lines');
  // Obsolete `tail +20 file` form.
  const first = operands[0];
  if (count === undefined && first !== undefined && /^\+\d+$/.test(first.text)) {
    count = first.text;
    operands = operands.slice(1);
  }
  const range = typeof count === 'string' && /^\+\d+$/.test(count) ? { start: Math.max(1, Number(count.slice(1))) } : undefined;
  return rangedRead(operands, scope, range);
};

/** `bat -r 10:20` / `--line-range 10:` prints a slice; without it, the whole file. */
const bat: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args, { shortWithValue: 'lrmH', longWithValue: ['language', 'line-range', 'style', 'theme'] });
  const rangeOption = parsed.options.get('r') ?? parsed.options.get('line-range');
  if (typeof rangeOption !== 'string') return wholeFileReader({ shortWithValue: 'lrmH', longWithValue: ['language', 'line-range', 'style', 'theme'] })(args, scope);
  const match = /^(\d*):(\d*)$/.exec(rangeOption);
  const start = Math.max(1, Number(match?.[1] ?? '') || 1);
  const end = match?.[2] === undefined || match[2] === '' ? undefined : Number(match[2]);
  return rangedRead(parsed.operands, scope, match === null ? undefined : end === undefined ? { start } : { start, end: Math.max(start, end) });
};

const sedRangePattern = /^\s*(\d+)\s*(?:,\s*(\d+|\$|\+\d+)\s*)?p\s*$/;

/** The line range a `sed -n` script prints, when it is one fixed range (`10,20p`, `5p`, `10,$p`, `10,+5p`). */
function sedPrintRange(scripts: readonly string[]): { kind: 'range'; range?: LineRange } | { kind: 'other' } {
  const commands: string[] = [];
  for (const script of scripts) {
    // Most scripts are one command (`-n '10,20p'`): no split.
    const parts = script.includes(';') || script.includes('\n') ? script.split(/[;\n]/) : [script];
    for (const part of parts) if (part.trim() !== '') commands.push(part);
  }
  if (commands.length === 0) return { kind: 'other' };
  const ranges: LineRange[] = [];
  for (const command of commands) {
    const match = sedRangePattern.exec(command);
    if (match === null) return { kind: 'other' };
    const start = Number(match[1]);
    const endText = match[2];
    if (endText === undefined) ranges.push({ start, end: start });
    else if (endText === '$') ranges.push({ start });
    else if (endText.startsWith('+')) ranges.push({ start, end: start + Number(endText.slice(1)) });
    else ranges.push({ start, end: Math.max(start, Number(endText)) });
  }
  return ranges.length === 1 ? { kind: 'range', range: ranges[0] } : { kind: 'range' };
}

const sed: CommandHandler = (args, scope) => {
  const scripts: string[] = [];
  let quiet = false;
  let inPlace = false;
  let scriptFromOption = false;
  const rest: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    const text = word.text;
    if (text === '--') {
      for (const operand of args.slice(index + 1)) rest.push(operand);
      break;
    }
    if (text === '-n' || text === '--quiet' || text === '--silent') quiet = true;
    else if (text === '-i' || text.startsWith('--in-place')) {
      inPlace = true;
      // BSD sed: `-i ''` takes the backup suffix as the next word.
      if (text === '-i' && args[index + 1]?.text === '') index++;
    } else if (/^-i./.test(text)) inPlace = true;
    else if (text === '-e' || text === '--expression' || text === '-f' || text === '--file') {
      const value = args[index + 1];
      if (value !== undefined && (text === '-e' || text === '--expression')) scripts.push(value.text);
      scriptFromOption = true;
      index++;
    } else if (text.startsWith('--expression=')) {
      scripts.push(text.slice('--expression='.length));
      scriptFromOption = true;
    } else if (text.startsWith('--file=')) scriptFromOption = true;
    else if (text.startsWith('--')) continue;
    else if (/^-[a-zA-Z]+$/.test(text)) {
      // A cluster such as `-ne`, `-Ei`, `-nE`.
      if (text.includes('n')) quiet = true;
      if (text.includes('i')) inPlace = true;
      if (text.endsWith('e') || text.endsWith('f')) {
        const value = args[index + 1];
        if (value !== undefined && text.endsWith('e')) scripts.push(value.text);
        scriptFromOption = true;
        index++;
      }
    } else rest.push(word);
  }
  if (!scriptFromOption) {
    const script = rest.shift();
    if (script !== undefined) scripts.push(script.text);
  }
  if (inPlace) {
    const { paths } = resolveOperands(rest, scope);
    return { kind: 'edit', writes: paths.map((path) => ({ path, partial: true })) };
  }
  const printed = quiet ? sedPrintRange(scripts) : undefined;
  if (rest.length === 0) {
    if (!scope.piped) return neutral;
    if (printed === undefined) return { kind: 'neutral', filter: { type: 'content' } };
    return printed.kind === 'range'
      ? { kind: 'neutral', filter: { type: 'range', range: printed.range } }
      : { kind: 'neutral', filter: { type: 'search' } };
  }
  if (printed?.kind === 'range') return rangedRead(rest, scope, printed.range);
  const resolved = resolveOperands(rest, scope);
  // A script that is not a fixed range prints matching lines (`-n '/re/p'`) or a transformed file.
  return {
    kind: readerKind(quiet ? 'search' : 'read', resolved),
    reads: resolved.paths.map((path) => ({ path, partial: true })),
    globs: resolved.globs,
  };
};

interface SearchSpec extends OptionSpec {
  /** Searches directories recursively without a flag (rg, ag, ack, git grep). */
  readonly alwaysRecursive?: boolean;
  /** Options whose value is a file-name glob that narrows a recursive search (`--include`, `-g`). */
  readonly includeOptions?: readonly string[];
  /** Options that replace the positional pattern (`-e`, `-f`). */
  readonly patternOptions?: readonly string[];
}

function searchTool(spec: SearchSpec): CommandHandler {
  return (args, scope) => {
    const parsed: ParsedOptions = parseCommandOptions(args, spec);
    const { options } = parsed;
    if (options.has('files')) {
      // `rg --files [paths]` lists instead of searching.
      const roots = parsed.operands.length === 0 ? [scope.cwd] : resolveOperands(parsed.operands, scope).paths;
      return { kind: 'list', globs: roots.filter((root) => root !== undefined).map((root) => joinGlob(root, '**')) };
    }
    const recursive =
      spec.alwaysRecursive === true ||
      options.has('r') ||
      options.has('R') ||
      options.has('recursive') ||
      options.has('dereference-recursive');
    const patternGiven = (spec.patternOptions ?? ['e', 'f', 'regexp', 'file']).some((name) => options.has(name));
    const operands = patternGiven ? parsed.operands : parsed.operands.slice(1);
    const includes = (spec.includeOptions ?? [])
      .flatMap((name) => parsed.repeated.get(name) ?? [])
      .filter((pattern) => !pattern.startsWith('!'));
    const treeGlobs = (root: string) =>
      includes.length === 0 ? [joinGlob(root, '**')] : includes.map((pattern) => joinGlob(root, `**/${pattern}`));
    if (operands.length === 0) {
      if (scope.piped) return { kind: 'neutral', filter: { type: 'search' } };
      if (recursive && scope.cwd !== undefined) return { kind: 'search', globs: treeGlobs(scope.cwd) };
      return { kind: 'search' };
    }
    const reads: FileAccess[] = [];
    const globs: string[] = [];
    let unresolved = 0;
    for (const operand of operands) {
      const resolved = scope.resolve(operand);
      if (resolved === undefined) {
        if (operand.text !== '-') unresolved++;
        continue;
      }
      if ('glob' in resolved) globs.push(...(recursive && !looksLikeFile(resolved.glob) ? treeGlobs(resolved.glob) : [resolved.glob]));
      else if (recursive && !looksLikeFile(resolved.path)) globs.push(...treeGlobs(resolved.path));
      else reads.push({ path: resolved.path, partial: true });
    }
    return { kind: unresolved > 0 ? 'shell' : 'search', reads, globs };
  };
}

const grepSpec: SearchSpec = {
  shortWithValue: 'efmABCdD',
  longWithValue: [
    'regexp',
    'file',
    'max-count',
    'after-context',
    'before-context',
    'context',
    'include',
    'exclude',
    'exclude-dir',
    'exclude-from',
    'devices',
    'directories',
    'label',
    'binary-files',
  ],
  includeOptions: ['include'],
};

const ripgrepSpec: SearchSpec = {
  shortWithValue: 'efgtTmABCjMr',
  longWithValue: [
    'regexp',
    'file',
    'glob',
    'iglob',
    'type',
    'type-not',
    'type-add',
    'max-count',
    'after-context',
    'before-context',
    'context',
    'threads',
    'max-columns',
    'replace',
    'max-depth',
    'max-filesize',
    'sort',
    'sortr',
    'color',
    'colors',
    'pre',
    'engine',
    'encoding',
    'ignore-file',
    'path-separator',
    'context-separator',
  ],
  alwaysRecursive: true,
  includeOptions: ['g', 'glob', 'iglob'],
};

const agSpec: SearchSpec = {
  shortWithValue: 'ABCGgmp',
  longWithValue: ['after', 'before', 'context', 'file-search-regex', 'ignore', 'max-count', 'path-to-ignore', 'depth'],
  alwaysRecursive: true,
  patternOptions: [],
};

const ls: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args, { shortWithValue: 'IwT', longWithValue: ['ignore', 'hide', 'width'] });
  const suffix = parsed.options.has('R') || parsed.options.has('recursive') ? '**' : '*';
  if (parsed.operands.length === 0) return scope.cwd === undefined ? { kind: 'list' } : { kind: 'list', globs: [joinGlob(scope.cwd, suffix)] };
  const { paths, globs } = resolveOperands(parsed.operands, scope);
  return { kind: 'list', globs: [...paths.map((path) => (looksLikeFile(path) ? path : joinGlob(path, suffix))), ...globs] };
};

const tree: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args, { shortWithValue: 'LIPo', longWithValue: ['filelimit', 'timefmt', 'charset'] });
  const roots = parsed.operands.length === 0 ? (scope.cwd === undefined ? [] : [scope.cwd]) : resolveOperands(parsed.operands, scope).paths;
  return { kind: 'list', globs: roots.map((root) => joinGlob(root, '**')) };
};

const findActions = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);
const findNameTests = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename']);

const find: CommandHandler = (args, scope) => {
  const roots: ShellWord[] = [];
  let index = 0;
  // Leading options (-L, -H, -P) come before the roots.
  while (index < args.length && /^-[HLP]$/.test((args[index] as ShellWord).text)) index++;
  while (index < args.length) {
    const text = (args[index] as ShellWord).text;
    if (text.startsWith('-') || text === '(' || text === '!' || text === '\\(') break;
    roots.push(args[index] as ShellWord);
    index++;
  }
  const namePatterns: string[] = [];
  let acts = false;
  for (; index < args.length; index++) {
    const text = (args[index] as ShellWord).text;
    if (findActions.has(text)) acts = true;
    if (findNameTests.has(text)) {
      const value = args[index + 1]?.text;
      if (value !== undefined && !value.includes('/')) namePatterns.push(value);
    }
  }
  const resolvedRoots = roots.length === 0 ? (scope.cwd === undefined ? [] : [scope.cwd]) : resolveOperands(roots, scope).paths;
  const suffixes = namePatterns.length === 0 ? ['**'] : namePatterns.map((pattern) => `**/${pattern}`);
  const globs = resolvedRoots.flatMap((root) => suffixes.map((suffix) => joinGlob(root, suffix)));
  return { kind: acts ? 'shell' : 'list', globs };
};

const fd: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args, { shortWithValue: 'edtEcjx', longWithValue: ['extension', 'type', 'exclude', 'max-depth', 'exec'] });
  const acts = parsed.options.has('x') || parsed.options.has('exec') || parsed.options.has('X') || parsed.options.has('exec-batch');
  const roots = parsed.operands.length <= 1 ? (scope.cwd === undefined ? [] : [scope.cwd]) : resolveOperands(parsed.operands.slice(1), scope).paths;
  return { kind: acts ? 'shell' : 'list', globs: roots.map((root) => joinGlob(root, '**')) };
};

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `cp` and `mv`: the last operand (or `-t dir`) is the destination; a directory destination gets each source's name. */
function copyOrMove(mode: 'copy' | 'move'): CommandHandler {
  return (args, scope) => {
    const parsed = parseCommandOptions(args, {
      shortWithValue: 'tS',
      longWithValue: ['target-directory', 'suffix', 'backup', 'reflink', 'sparse', 'preserve', 'no-preserve', 'context'],
    });
    const targetOption = parsed.options.get('t') ?? parsed.options.get('target-directory');
    const operands = [...parsed.operands];
    const destinationWord = typeof targetOption === 'string' ? { text: targetOption, dynamic: false, glob: false } : operands.pop();
    if (destinationWord === undefined || operands.length === 0) return { kind: 'write' };
    const destination = scope.resolve(destinationWord);
    const sources = operands.map((word) => scope.resolve(word)).filter((resolved) => resolved !== undefined);
    const reads: FileAccess[] = [];
    const writes: FileAccess[] = [];
    const globs: string[] = [];
    const intoDirectory =
      typeof targetOption === 'string' ||
      operands.length > 1 ||
      destinationWord.text.endsWith('/') ||
      (!parsed.options.has('T') &&
        destination !== undefined &&
        'path' in destination &&
        !looksLikeFile(destination.path) &&
        sources.some((source) => 'path' in source && looksLikeFile(source.path)));
    for (const source of sources) {
      if ('glob' in source) {
        if (mode === 'copy') globs.push(source.glob);
        continue;
      }
      if (mode === 'copy') reads.push({ path: source.path, partial: false });
      else writes.push({ path: source.path, partial: false });
      if (destination !== undefined && 'path' in destination) {
        const target = intoDirectory ? joinGlob(destination.path, baseName(source.path)) : destination.path;
        writes.push({ path: target, partial: false });
      }
    }
    return { kind: 'write', reads, writes, globs };
  };
}

const remove: CommandHandler = (args, scope) => {
  const { paths } = resolveOperands(parseCommandOptions(args).operands, scope);
  return { kind: 'write', writes: paths.map((path) => ({ path, partial: false })) };
};

const touch: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args, { shortWithValue: 'drt', longWithValue: ['date', 'reference', 'time'] });
  const { paths } = resolveOperands(parsed.operands, scope);
  // touch creates an empty file or only updates its times: part of the file's state, not its whole content.
  return { kind: 'write', writes: paths.map((path) => ({ path, partial: true })) };
};

const tee: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args);
  const append = parsed.options.has('a') || parsed.options.has('append');
  const { paths } = resolveOperands(parsed.operands, scope);
  return { kind: 'write', writes: paths.map((path) => ({ path, partial: append })) };
};

function patchWrites(text: string | undefined, stripCount: number | undefined, base: string | undefined): FileAccess[] {
  if (text === undefined || base === undefined) return [];
  return findDiffTargets(text, stripCount).map((target) => ({ path: joinGlob(base, target), partial: true }));
}

function stripOption(value: string | true | undefined): number | undefined {
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

const patch: CommandHandler = (args, scope) => {
  const parsed = parseCommandOptions(args, {
    shortWithValue: 'pidoBDFgrVYz',
    longWithValue: ['strip', 'input', 'directory', 'output', 'reject-file', 'prefix', 'suffix', 'fuzz'],
  });
  const directoryOption = parsed.options.get('d') ?? parsed.options.get('directory');
  const base =
    typeof directoryOption === 'string' ? scope.resolve({ text: directoryOption, dynamic: false, glob: false }) : undefined;
  const root = base !== undefined && 'path' in base ? base.path : scope.cwd;
  const writes: FileAccess[] = [];
  const reads: FileAccess[] = [];
  const [original, patchFile] = parsed.operands;
  const output = parsed.options.get('o') ?? parsed.options.get('output');
  if (typeof output === 'string') {
    const resolved = scope.resolve({ text: output, dynamic: false, glob: false });
    if (resolved !== undefined && 'path' in resolved) writes.push({ path: resolved.path, partial: false });
  } else if (original !== undefined) {
    const resolved = scope.resolve(original);
    if (resolved !== undefined && 'path' in resolved) writes.push({ path: resolved.path, partial: true });
  } else {
    writes.push(...patchWrites(scope.stdinText, stripOption(parsed.options.get('p') ?? parsed.options.get('strip')), root));
  }
  const input = parsed.options.get('i') ?? parsed.options.get('input');
  for (const source of [typeof input === 'string' ? { text: input, dynamic: false, glob: false } : undefined, patchFile]) {
    const resolved = source === undefined ? undefined : scope.resolve(source);
    if (resolved !== undefined && 'path' in resolved) reads.push({ path: resolved.path, partial: false });
  }
  return { kind: 'edit', reads, writes };
};

const perl: CommandHandler = (args, scope) => {
  let inPlace = false;
  let scriptGiven = false;
  const operands: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const text = (args[index] as ShellWord).text;
    if (/^-[a-zA-Z0-9]*i/.test(text) && !text.startsWith('--')) inPlace = true;
    if (/^-[a-zA-Z]*[eE]$/.test(text)) {
      scriptGiven = true;
      index++;
      continue;
    }
    if (text.startsWith('-')) continue;
    operands.push(args[index] as ShellWord);
  }
  if (!inPlace) return opaque;
  const { paths } = resolveOperands(scriptGiven ? operands : operands.slice(1), scope);
  return { kind: 'edit', writes: paths.map((path) => ({ path, partial: true })) };
};

const shellInterpreter: CommandHandler = (args, scope) => {
  for (let index = 0; index < args.length; index++) {
    const text = (args[index] as ShellWord).text;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(text)) {
      const script = args[index + 1];
      if (script === undefined || script.dynamic) return opaque;
      return effectOf(scope.nested(script.text, scope.cwd));
    }
    if (!text.startsWith('-')) return opaque;
  }
  // `bash <<'EOF' … EOF` runs the here-document as a script.
  return scope.stdinText === undefined ? opaque : effectOf(scope.nested(scope.stdinText, scope.cwd));
};

function effectOf(semantics: ToolCallSemantics): CommandEffect {
  return { kind: semantics.kind, reads: semantics.reads, writes: semantics.writes, globs: semantics.globs, filter: { type: 'opaque' } };
}

const gitCommands: ReadonlyMap<string, CommandHandler> = new Map<string, CommandHandler>([
  ['apply', (args, scope) => {
    const parsed = parseCommandOptions(args, { shortWithValue: 'pC', longWithValue: ['directory', 'exclude', 'include'] });
    const { options } = parsed;
    if (['check', 'stat', 'numstat', 'summary', 'cached'].some((name) => options.has(name))) return opaque;
    const stripCount = stripOption(options.get('p')) ?? 1;
    const reads = resolveOperands(parsed.operands, scope).paths.map((path) => ({ path, partial: false }));
    return { kind: 'edit', reads, writes: patchWrites(scope.stdinText, stripCount, scope.cwd) };
  }],
  ['checkout', (args, scope) => {
    const separator = args.findIndex((word) => word.text === '--');
    const parsed = parseCommandOptions(args, { shortWithValue: 'bB' });
    if (parsed.options.has('b') || parsed.options.has('B')) return opaque;
    // Without `--`, only operands that look like files are paths; the rest are branches or commits.
    const candidates = separator === -1 ? parsed.operands.filter((word) => looksLikeFile(word.text)) : args.slice(separator + 1);
    const { paths } = resolveOperands(candidates, scope);
    return paths.length === 0 ? opaque : { kind: 'write', writes: paths.map((path) => ({ path, partial: false })) };
  }],
  ['restore', (args, scope) => {
    const parsed = parseCommandOptions(args, { shortWithValue: 's', longWithValue: ['source'] });
    const staged = parsed.options.has('S') || parsed.options.has('staged');
    const worktree = parsed.options.has('W') || parsed.options.has('worktree');
    if (staged && !worktree) return opaque;
    const { paths } = resolveOperands(parsed.operands, scope);
    return { kind: 'write', writes: paths.map((path) => ({ path, partial: false })) };
  }],
  ['rm', (args, scope) => {
    const parsed = parseCommandOptions(args);
    if (parsed.options.has('cached')) return opaque;
    const { paths } = resolveOperands(parsed.operands, scope);
    return { kind: 'write', writes: paths.map((path) => ({ path, partial: false })) };
  }],
  ['mv', (args, scope) => copyOrMove('move')(args, scope)],
  ['grep', searchTool({ ...grepSpec, alwaysRecursive: true })],
]);

const git: CommandHandler = (args, scope) => {
  let index = 0;
  let cwd = scope.cwd;
  while (index < args.length && (args[index] as ShellWord).text.startsWith('-')) {
    const text = (args[index] as ShellWord).text;
    if (text === '-C' || text === '-c' || text === '--git-dir' || text === '--work-tree') {
      const value = args[index + 1];
      if (text === '-C' && value !== undefined) {
        const resolved = scope.resolve(value);
        cwd = resolved !== undefined && 'path' in resolved ? resolved.path : undefined;
      }
      index += 2;
    } else index++;
  }
  const subcommand = args[index]?.text;
  const handler = subcommand === undefined ? undefined : gitCommands.get(subcommand);
  if (handler === undefined) return opaque;
  return handler(args.slice(index + 1), cwd === scope.cwd ? scope : scope.withCwd(cwd));
};

const contentFilter: CommandHandler = (args, scope) => {
  const { operands } = parseCommandOptions(args, { shortWithValue: 'dfkt' });
  return scope.piped && operands.length === 0 ? { kind: 'neutral', filter: { type: 'content' } } : opaque;
};

const neutralCommands = [
  'echo',
  'printf',
  'pwd',
  'true',
  'false',
  ':',
  'mkdir',
  'chmod',
  'chown',
  'sleep',
  'export',
  'set',
  'unset',
  'alias',
  'clear',
  'which',
  'type',
  'test',
  '[',
  '[[',
  ']]',
  'exit',
  'return',
  'date',
  'whoami',
  'shift',
  'wait',
  'ulimit',
  'umask',
  'read',
  'done',
  'fi',
  'esac',
  'break',
  'continue',
];

/** Handlers by command name (the last path segment of the program, so `/bin/cat` is `cat`). */
export const commandHandlers: ReadonlyMap<string, CommandHandler> = new Map<string, CommandHandler>([
  ...neutralCommands.map((name): [string, CommandHandler] => [name, () => neutral]),
  ['cat', wholeFileReader()],
  ['tac', wholeFileReader()],
  ['bat', bat],
  ['batcat', bat],
  ['less', wholeFileReader()],
  ['more', wholeFileReader()],
  ['nl', wholeFileReader({ shortWithValue: 'bdfhilnsvw' })],
  ['head', head],
  ['tail', tail],
  ['sed', sed],
  ['gsed', sed],
  ['grep', searchTool(grepSpec)],
  ['egrep', searchTool(grepSpec)],
  ['fgrep', searchTool(grepSpec)],
  ['rg', searchTool(ripgrepSpec)],
  ['ag', searchTool(agSpec)],
  ['ack', searchTool(agSpec)],
  ['ls', ls],
  ['tree', tree],
  ['find', find],
  ['fd', fd],
  ['fdfind', fd],
  ['cp', copyOrMove('copy')],
  ['mv', copyOrMove('move')],
  ['rm', remove],
  ['unlink', remove],
  ['touch', touch],
  ['tee', tee],
  ['patch', patch],
  ['perl', perl],
  ['bash', shellInterpreter],
  ['sh', shellInterpreter],
  ['zsh', shellInterpreter],
  ['dash', shellInterpreter],
  ['git', git],
  ...['sort', 'uniq', 'cut', 'tr', 'column', 'fold', 'fmt', 'rev', 'paste', 'expand', 'unexpand'].map(
    (name): [string, CommandHandler] => [name, contentFilter],
  ),
]);

/** Commands that read a file given as `< file` the way they read a file operand. */
export const stdinFileCommands: ReadonlySet<string> = new Set([
  'cat',
  'tac',
  'nl',
  'less',
  'more',
  'head',
  'tail',
  'sed',
  'gsed',
  'grep',
  'egrep',
  'fgrep',
  'bat',
  'batcat',
]);

/** Effect of a command nobody described: runs something, output unknown. */
export const unknownCommandEffect: CommandEffect = opaque;
