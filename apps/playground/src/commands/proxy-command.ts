import type { RunningProxy } from '@ctx/proxy';
import type { CliIo } from '../cli-io.js';
import { UsageError } from '../usage-error.js';
import { waitForInterrupt } from '../wait-for-interrupt.js';

/** Options of `ctx proxy`, as parsed from the command line (numbers still as typed). */
export interface ProxyCommandOptions {
  /** `--upstream`: the provider's base URL, e.g. https://api.anthropic.com. */
  readonly upstream: string;
  /** `--preset`: a mechanical preset (built-in name or .json file). */
  readonly preset?: string;
  readonly port?: string;
  readonly host?: string;
  readonly window?: string;
  readonly stateless?: boolean;
  /** `--no-cache-aware` sets it to false: every compaction is applied, paying or not. */
  readonly cacheAware?: boolean;
  /** `--max-body`: bytes. */
  readonly maxBody?: string;
  /** `--timeout`: milliseconds to wait for the upstream's response headers. */
  readonly timeout?: string;
  /** `--max-conversations`: conversations kept in memory. */
  readonly maxConversations?: string;
}

function wholeNumber(option: string, text: string | undefined, minimum: number, maximum: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < minimum || value > maximum) {
    throw new UsageError(`${option} expects a whole number from ${minimum} to ${maximum}, got "${text}"`);
  }
  return value;
}

/**
 * `ctx proxy`: starts the compressing proxy in front of `--upstream`, prints where it listens and how to point
 * Claude Code or an OpenAI-compatible client at it, logs one line per request on stderr, and runs until interrupted
 * (Ctrl+C).
 *
 * @param options - The parsed options.
 * @param io - Where the address (stdout) and the per-request log (stderr) go.
 * @param stop - Resolves when the proxy should stop; by default on SIGINT or SIGTERM.
 * @returns The exit code: 0 once stopped.
 * @throws {@link UsageError} for an invalid option (exit code 2).
 */
export async function runProxyCommand(
  options: ProxyCommandOptions,
  io: CliIo,
  stop: (proxy: RunningProxy) => Promise<void> = waitForInterrupt,
): Promise<number> {
  const { startProxy, InvalidProxyOptionsError } = await import('@ctx/proxy');
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      upstream: options.upstream,
      preset: options.preset,
      port: wholeNumber('--port', options.port, 0, 65_535),
      host: options.host,
      window: wholeNumber('--window', options.window, 1_000, 100_000_000),
      stateless: options.stateless ?? false,
      cacheAware: options.cacheAware ?? true,
      maxBodyBytes: wholeNumber('--max-body', options.maxBody, 1, 2 ** 31),
      upstreamTimeoutMs: wholeNumber('--timeout', options.timeout, 1, 24 * 3_600_000),
      maxConversations: wholeNumber('--max-conversations', options.maxConversations, 1, 1_000_000),
      log: (line) => io.stderr(line),
    });
  } catch (error) {
    if (InvalidProxyOptionsError.isInstance(error)) throw new UsageError(`--${error.option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: ${error.message}`);
    throw error;
  }
  io.stdout(`ctx proxy: listening on ${proxy.url}, forwarding to ${options.upstream} (Ctrl+C stops it)`);
  io.stdout(`  Claude Code:  ANTHROPIC_BASE_URL=${proxy.url} claude`);
  io.stdout(`  OpenAI SDKs:  OPENAI_BASE_URL=${proxy.url}/v1`);
  io.stdout(`  statistics:   ${proxy.url}/ctx/stats`);
  await stop(proxy);
  await proxy.close();
  return 0;
}
