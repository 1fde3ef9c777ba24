import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createProxyApp } from './create-proxy-app.js';
import { isLoopbackHost, type ProxyOptions } from './proxy-options.js';
import type { ProxyStatsSnapshot } from './proxy-stats.js';

/** A running proxy. */
export interface RunningProxy {
  /** Where it listens, e.g. `http://127.0.0.1:8787`. */
  readonly url: string;
  /** The port it listens on (useful with `port: 0`). */
  readonly port: number;
  /** What it has done so far. */
  readonly stats: () => ProxyStatsSnapshot;
  /** Stops listening and closes open connections. */
  readonly close: () => Promise<void>;
}

/**
 * Starts the proxy on `host:port` (127.0.0.1:8787 by default) and resolves once it listens. Prints a warning
 * through `log` when it listens on an address other machines can reach.
 *
 * @throws {@link InvalidProxyOptionsError} for invalid options (see {@link createProxyApp}).
 * @example
 * ```ts
 * const proxy = await startProxy({ upstream: 'https://api.anthropic.com', preset: 'coding-agent' });
 * // ANTHROPIC_BASE_URL=http://127.0.0.1:8787 claude
 * await proxy.close();
 * ```
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const app = await createProxyApp(options);
  const { host, port, log } = app.options;
  if (!isLoopbackHost(host)) {
    log(
      `ctx proxy: WARNING: listening on ${host}, not on a loopback address: anyone who can reach this machine can send requests through the proxy with the keys your clients send, and read what they send. Use --host 127.0.0.1 unless you mean it.`,
    );
  }
  return new Promise<RunningProxy>((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      server.off('error', reject);
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${shownHost}:${info.port}`,
        port: info.port,
        stats: app.stats,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
