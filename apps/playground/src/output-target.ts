import { lstat, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { CliError } from './cli-io.js';
import { outputFormats, type OutputFormat } from './output-formats.js';

/** Where `ctx compress --out` writes and in which format, once the path has been checked. */
export interface OutputTarget {
  /** The `--out` path as the user gave it. */
  readonly path: string;
  /** The format to write: `--format`, else the one the name implies. */
  readonly format: OutputFormat;
  /** Whether a file already exists there (only possible with `--force`). */
  readonly replaces: boolean;
}

/** What {@link resolveOutputTarget} decides from. */
export interface OutputTargetRequest {
  /** The `--out` path. */
  readonly out: string;
  /** The transcript file being read (without a `#<line>` selector). */
  readonly input: string;
  /** `--format` when the user gave it; otherwise the name decides. */
  readonly format?: OutputFormat;
  /** `--force`: replace an existing file. @default false */
  readonly force?: boolean;
}

const formatList = outputFormats.join(', ');

function isOutputFormat(value: string): value is OutputFormat {
  return (outputFormats as readonly string[]).includes(value);
}

/**
 * Decides the format of `--out` from its name and `--format`. Every format writes one JSON document, so:
 * `x.json` is `ctx`, `x.<format>.json` (e.g. `x.anthropic.json`) is that format, `x.jsonl` is refused whatever
 * `--format` says (ctx would read it back as JSON lines), and any other name needs an explicit `--format`.
 *
 * @param out - The `--out` path.
 * @param explicit - `--format`, when given.
 * @returns The format to write.
 * @throws CliError when the name contradicts `--format`, is `.jsonl`, or says nothing and `--format` is absent.
 * @example
 * outputFormatFor('out.anthropic.json'); // 'anthropic'
 */
export function outputFormatFor(out: string, explicit?: OutputFormat): OutputFormat {
  const extension = extname(out).toLowerCase();
  if (extension === '.jsonl') {
    throw new CliError(
      `--out ${out}: expected a .json name: every --format (${formatList}) writes one JSON document, not JSON lines; name the file .json`,
    );
  }
  if (extension !== '.json') {
    if (explicit !== undefined) return explicit;
    throw new CliError(
      `--out ${out}: cannot tell the format from the name; name it .json (ctx) or .<format>.json (${outputFormats.map((format) => `.${format}.json`).join(', ')}), or pass --format`,
    );
  }
  const inner = extname(basename(out, extname(out))).slice(1).toLowerCase();
  const named = isOutputFormat(inner) ? inner : undefined;
  if (explicit !== undefined && named !== undefined && explicit !== named) {
    throw new CliError(`--out ${out}: the name says --format ${named} but --format ${explicit} was given; rename the file or drop --format`);
  }
  return explicit ?? named ?? 'ctx';
}

async function statIfPresent(path: string, follow: boolean) {
  try {
    return await (follow ? stat(path) : lstat(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Checks `--out` before anything runs, so that `ctx compress` never destroys the user's data: it refuses the input
 * file itself under any spelling (`..`, a symbolic or hard link — compared by device and inode, even with
 * `--force`), refuses an existing file without `--force`, and decides the format with {@link outputFormatFor}.
 *
 * @param request - The `--out` path, the input file, `--format` and `--force`.
 * @returns The checked target.
 * @throws CliError with one line saying what was expected and what was found.
 */
export async function resolveOutputTarget(request: OutputTargetRequest): Promise<OutputTarget> {
  const { out, input, force = false } = request;
  const format = outputFormatFor(out, request.format);
  const [outputStat, inputStat] = await Promise.all([statIfPresent(out, true), statIfPresent(input, true)]);
  if (outputStat !== undefined && inputStat !== undefined && outputStat.dev === inputStat.dev && outputStat.ino === inputStat.ino) {
    throw new CliError(`--out ${out}: expected a file other than the input ${input}, found the same file; ctx never overwrites the transcript it reads`);
  }
  // lstat: a dangling symbolic link is still something the user made.
  const existing = await statIfPresent(out, false);
  if (existing !== undefined && !force) {
    throw new CliError(`--out ${out}: expected a new file, found an existing one; pass --force to replace it`);
  }
  return { path: out, format, replaces: existing !== undefined };
}
