import { InvalidProxyOptionsError } from './invalid-proxy-options-error.js';

/** Options of the proxy, as the `ctx proxy` command and {@link startProxy} take them. */
export interface ProxyOptions {
  /**
   * Where requests go: the provider's base URL (`https://api.anthropic.com`, `https://api.openai.com`), or any
   * compatible server. A path in it is kept as a prefix of every forwarded path, except a final `/v1`, which
   * clients already send.
   */
  readonly upstream: string;
  /**
   * The preset compressing every request: a built-in name (`coding-agent`, `speed`, `balanced`; `quality` and `cost`
   * need a model and are refused) or the path of a preset JSON file.
   * @default 'coding-agent'
   */
  readonly preset?: string;
  /**
   * Port to listen on; 0 picks a free one.
   * @default 8787
   */
  readonly port?: number;
  /**
   * Address to listen on. Anything other than a loopback address exposes the proxy (and every key sent through
   * it) to the network: the proxy then prints a warning.
   * @default '127.0.0.1'
   */
  readonly host?: string;
  /** The model's context window in tokens; by default looked up from the request's `model` (see `knownModelWindows`). */
  readonly window?: number;
  /**
   * Keep no state between requests: every request is compressed from scratch. Conversation state is what keeps the
   * provider's prompt cache working, so leave this off unless state cannot be kept.
   * @default false
   */
  readonly stateless?: boolean;
  /**
   * Plan compactions with the prompt cache in mind: for models `@ctx/cost-anthropic` or `@ctx/cost-openai` prices,
   * a rewrite of messages already sent whose saving does not pay for the cache writes it causes is declined while
   * the request still fits (see `@ctx/core`'s cache-aware planning).
   * @default true
   */
  readonly cacheAware?: boolean;
  /**
   * Largest request body accepted, in bytes; larger requests are answered 413 in the provider's error shape.
   * @default 33554432 (32 MiB)
   */
  readonly maxBodyBytes?: number;
  /**
   * How long to wait for the upstream's response headers, in milliseconds, before answering 504. A streamed
   * response that has started is not cut.
   * @default 600000 (10 minutes, as the providers' SDKs)
   */
  readonly upstreamTimeoutMs?: number;
  /**
   * Conversations kept in memory; the least recently used one is forgotten beyond this (its next request starts
   * it again from scratch).
   * @default 256
   */
  readonly maxConversations?: number;
  /** Where the per-request log lines go. @default one line on stderr each */
  readonly log?: (line: string) => void;
}

/** {@link ProxyOptions} with every default filled in. */
export interface ResolvedProxyOptions {
  readonly upstream: URL;
  readonly preset: string;
  readonly port: number;
  readonly host: string;
  readonly window: number | undefined;
  readonly stateless: boolean;
  readonly cacheAware: boolean;
  readonly maxBodyBytes: number;
  readonly upstreamTimeoutMs: number;
  readonly maxConversations: number;
  readonly log: (line: string) => void;
}

function requireInteger(option: string, value: number | undefined, minimum: number, maximum: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    throw new InvalidProxyOptionsError({
      option,
      message: `Expected \`${option}\` to be a whole number from ${minimum} to ${maximum}, got \`${String(value)}\`; pass a value in that range or leave it out for the default.`,
    });
  }
  return value;
}

/**
 * Validates the options and fills in the defaults.
 *
 * @throws {@link InvalidProxyOptionsError} naming the option, what was expected, and what was found.
 */
export function resolveProxyOptions(options: ProxyOptions): ResolvedProxyOptions {
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
  } catch (error) {
    throw new InvalidProxyOptionsError({
      option: 'upstream',
      message: `Expected \`upstream\` to be an http(s) URL such as https://api.anthropic.com, got \`${options.upstream}\`; pass the provider's base URL.`,
      cause: error,
    });
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') {
    throw new InvalidProxyOptionsError({
      option: 'upstream',
      message: `Expected \`upstream\` to use http or https, got \`${upstream.protocol}\`; pass the provider's base URL, e.g. https://api.anthropic.com.`,
    });
  }
  if (upstream.username !== '' || upstream.password !== '') {
    throw new InvalidProxyOptionsError({
      option: 'upstream',
      message: 'Expected `upstream` without credentials in it, got a URL with a user name or password; let the client send its key in its headers (the proxy passes them through).',
    });
  }
  const preset = options.preset ?? 'coding-agent';
  if (preset.trim() === '') {
    throw new InvalidProxyOptionsError({ option: 'preset', message: 'Expected `preset` to name a preset, got an empty string; pass e.g. `coding-agent`.' });
  }
  return {
    upstream,
    preset,
    port: requireInteger('port', options.port, 0, 65_535, 8787),
    host: options.host ?? '127.0.0.1',
    window: options.window === undefined ? undefined : requireInteger('window', options.window, 1_000, 100_000_000, 0),
    stateless: options.stateless ?? false,
    cacheAware: options.cacheAware ?? true,
    maxBodyBytes: requireInteger('maxBodyBytes', options.maxBodyBytes, 1, 2 ** 31, 32 * 1024 * 1024),
    upstreamTimeoutMs: requireInteger('upstreamTimeoutMs', options.upstreamTimeoutMs, 1, 24 * 3_600_000, 600_000),
    maxConversations: requireInteger('maxConversations', options.maxConversations, 1, 1_000_000, 256),
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}

/** True for addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
