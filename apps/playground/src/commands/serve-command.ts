import { spawn } from 'node:child_process';
import type { CliIo } from '../cli-io.js';
import { startServeServer, type ServeServer } from '../serve/start-serve-server.js';
import { UsageError } from '../usage-error.js';
import { waitForInterrupt } from '../wait-for-interrupt.js';

/** Options of `ctx serve`, as parsed from the command line. */
export interface ServeCommandOptions {
  /** `--port`: 0 picks a free port. */
  readonly port?: string;
  readonly plugin: readonly string[];
  /** False with `--no-open`. */
  readonly open: boolean;
}

/** Parses `--port`: a whole number from 0 (any free port) to 65535. */
export function parseServePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(port) || port > 65_535) {
    throw new UsageError(`--port expects a whole number from 0 (any free port) to 65535, got "${text}"`);
  }
  return port;
}

/** Opens the page in the user's browser; nothing happens where no opener exists (a server, a container). */
function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser to open: the URL is printed anyway.
  }
}

/**
 * `ctx serve`: serves the playground page on 127.0.0.1, prints its address, opens it in the browser (unless
 * `--no-open`), and runs until the process is interrupted (Ctrl+C).
 *
 * @param options - The parsed options.
 * @param io - Where the address is printed.
 * @param stop - Resolves when the server should stop; by default on SIGINT or SIGTERM.
 * @returns The exit code: 0 once stopped.
 */
export async function runServeCommand(
  options: ServeCommandOptions,
  io: CliIo,
  stop: (server: ServeServer) => Promise<void> = waitForInterrupt,
): Promise<number> {
  const port = parseServePort(options.port);
  const server = await startServeServer({ plugins: options.plugin, port });
  io.stdout(`ctx serve: the playground is at ${server.url} (Ctrl+C stops it)`);
  if (options.open) openInBrowser(server.url);
  await stop(server);
  await server.close();
  return 0;
}
