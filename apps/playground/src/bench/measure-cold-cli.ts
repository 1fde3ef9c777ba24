import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median } from '../calibration/summary-statistics.js';

/** Wall times of fresh node processes, in milliseconds (median of the runs). */
export interface ColdCliTimes {
  /** `node bin/ctx.js compress <session> --strategy truncation`: the bin, without npx's own start-up. */
  readonly compress: number;
  /** A node process that only reads, parses and tokenizes the same session once. */
  readonly lowerBound: number;
  /** `node bin/ctx.js --help`. */
  readonly help: number;
  /** `node -e 0`: node's own start-up, for reference. */
  readonly node: number;
}

const playgroundRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = `${playgroundRoot}bin/ctx.js`;
const builtCli = `${playgroundRoot}dist/cli.js`;

/**
 * What the lower-bound process runs: the playground's own reader (format detection, parse, validation) and the
 * default tokenizer over every entry, nothing else. Built modules only, so it measures what the bin loads.
 */
const lowerBoundScript = `
const { pathToFileURL } = await import('node:url');
const dist = (name) => pathToFileURL(process.argv[2] + 'dist/' + name).href;
const { readTranscriptFile } = await import(dist('read-transcripts.js'));
const { createTokenizer } = await import(dist('tokenizers.js'));
const { createTokenCounter } = await import('@ctx/core');
const [transcript] = await readTranscriptFile(process.argv[1]);
const counter = createTokenCounter(await createTokenizer('gpt-tokenizer'));
const { history, system, tools } = transcript.conversation;
process.stdout.write(String(counter.countEntries(history) + counter.countOverhead(system, tools)));
`;

/** Why the cold CLI cannot be measured here, or undefined when it can (the playground is built). */
export function coldCliUnavailable(): string | undefined {
  return existsSync(builtCli) ? undefined : `the playground is not built (${builtCli} is missing): run the build first`;
}

function timeProcess(args: readonly string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: playgroundRoot, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const elapsed = performance.now() - started;
  if (run.status !== 0) {
    const reason = (run.stderr || run.error?.message || '').split('\n')[0] ?? '';
    throw new Error(`Expected \`node ${args.slice(0, 2).join(' ')} …\` to exit with 0, got ${String(run.status)}: ${reason}`);
  }
  return elapsed;
}

/**
 * Times cold processes on `file`, alternating them run by run so that a busy machine slows each alike: the `ctx`
 * bin compressing it with truncation, the lower bound (read + parse + tokenize once), `ctx --help` and bare node.
 *
 * @param file - The session file (the largest of the run).
 * @param runs - Runs of each; the median is reported.
 * @throws When a process fails.
 */
export function measureColdCli(file: string, runs: number): ColdCliTimes {
  const samples = { compress: [] as number[], lowerBound: [] as number[], help: [] as number[], node: [] as number[] };
  for (let index = 0; index < Math.max(1, runs); index++) {
    samples.node.push(timeProcess(['-e', '0']));
    samples.help.push(timeProcess([bin, '--help']));
    samples.lowerBound.push(timeProcess(['--input-type=module', '-e', lowerBoundScript, file, playgroundRoot]));
    samples.compress.push(timeProcess([bin, 'compress', file, '--strategy', 'truncation']));
  }
  return { compress: median(samples.compress), lowerBound: median(samples.lowerBound), help: median(samples.help), node: median(samples.node) };
}
