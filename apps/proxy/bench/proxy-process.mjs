/* global setInterval, clearInterval */
// The proxy under load, in its own process (as it runs for real), started by load.mjs: prints {"url"} once it
// listens and, on SIGTERM, {"peakRss", "peakHeap", "logLines", "addedMs"} before it exits.
import { startProxy } from '../dist/index.js';

let logLines = 0;
/** The time the proxy itself added before forwarding each request, as its log line says. */
const addedMs = [];
const proxy = await startProxy({
  upstream: process.env.CTX_BENCH_UPSTREAM,
  port: 0,
  preset: process.env.CTX_BENCH_PRESET,
  window: Number(process.env.CTX_BENCH_WINDOW),
  maxConversations: Number(process.env.CTX_BENCH_CONVERSATIONS),
  log: (line) => {
    logLines += 1;
    const added = / · \+(\d+) ms/.exec(line);
    if (added !== null) addedMs.push(Number(added[1]));
    // Failures are worth seeing; the per-request lines are only counted.
    if (/ 50\d /.test(line) || line.includes('forwarded unchanged:')) process.stderr.write(`${line}\n`);
  },
});
let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
}, 25);
process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
process.on('SIGTERM', () => {
  clearInterval(sampler);
  process.stdout.write(`${JSON.stringify({ peakRss, peakHeap, logLines, addedMs })}\n`, () => {
    void proxy.close().then(() => process.exit(0));
  });
});
