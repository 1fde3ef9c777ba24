import { runCli } from '../cli.js';

/** Runs the `ctx` command line in-process and returns its exit code and what it printed. */
export async function ctx(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(argv, { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text) });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}
