/* global fetch */
// Load benchmark of the ctx proxy, loopback only: simulated agents send growing Anthropic conversations (tool calls
// with file and command output) through the proxy to a fake upstream on 127.0.0.1, and the same requests straight to
// the upstream as a baseline. Prints the latency the proxy adds (p50, p99, paired per request) and the process's
// peak memory (the proxy runs in its own process, bench/proxy-process.mjs). Stops by itself. Not a test: nothing is
// asserted.
//
//   npx turbo run build --filter @ctx/proxy
//   node apps/proxy/bench/load.mjs
//
// Environment (defaults in brackets): CTX_BENCH_REQUESTS [2000], CTX_BENCH_CONCURRENCY [50], CTX_BENCH_MAX_BODY_MB
// [3] (largest body an agent grows to), CTX_BENCH_PRESET [coding-agent], CTX_BENCH_WINDOW [200000],
// CTX_BENCH_TIME_LIMIT_S [600] (stops early, printing what it measured).
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const requests = Number(process.env.CTX_BENCH_REQUESTS ?? 2000);
const concurrency = Number(process.env.CTX_BENCH_CONCURRENCY ?? 50);
const maxBodyBytes = Number(process.env.CTX_BENCH_MAX_BODY_MB ?? 3) * 1024 * 1024;
const preset = process.env.CTX_BENCH_PRESET ?? 'coding-agent';
const window = Number(process.env.CTX_BENCH_WINDOW ?? 200_000);
const timeLimitMs = Number(process.env.CTX_BENCH_TIME_LIMIT_S ?? 600) * 1000;
const turnsPerAgent = Math.ceil(requests / concurrency);

/** A small deterministic random generator, so every run sends the same bodies. */
function random(seed) {
  // Scrambled, and the first outputs dropped: a plain linear congruential generator's first outputs hardly depend on
  // a small seed, which would give every agent the same sizes.
  let state = Math.imul(seed, 2654435761) >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  for (let skip = 0; skip < 8; skip += 1) next();
  return next;
}

const words = ['const', 'value', 'return', 'import', 'export', 'function', 'await', 'result', 'error', 'config', 'request', 'history', 'token', 'window', 'strategy'];

function outputOfSize(next, bytes) {
  const lines = [];
  let size = 0;
  let line = 1;
  while (size < bytes) {
    const text = `${String(line).padStart(5)}\t${Array.from({ length: 4 + Math.floor(next() * 8) }, () => words[Math.floor(next() * words.length)]).join(' ')};`;
    lines.push(text);
    size += text.length + 1;
    line += 1;
  }
  return lines.join('\n');
}

/** The request bodies of one agent, turn by turn (made one at a time): each turn adds a tool call and its output. */
function* agentBodies(agent) {
  const next = random(agent + 1);
  // Tool output per turn so that the last turn reaches about maxBodyBytes for the largest agents.
  const perTurn = (maxBodyBytes / turnsPerAgent) * (0.3 + 0.7 * next());
  const messages = [{ role: 'user', content: [{ type: 'text', text: `Agent ${agent}: fix the failing tests in package ${agent % 7}.` }] }];
  for (let turn = 0; turn < turnsPerAgent; turn += 1) {
    const id = `toolu_${agent}_${turn}`;
    const tool = next() < 0.5 ? 'Read' : 'Bash';
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${turn}: looking at the next file.` },
        { type: 'tool_use', id, name: tool, input: tool === 'Read' ? { file_path: `/repo/src/file-${turn % 23}.ts` } : { command: `npm test -- ${turn}` } },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: outputOfSize(next, perTurn * (0.5 + next())) }] });
    const last = messages.at(-1);
    const withBreakpoint = [...messages.slice(0, -1), { ...last, content: [{ ...last.content[0], cache_control: { type: 'ephemeral' } }] }];
    yield JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, system: 'You are a coding agent.', messages: withBreakpoint });
  }
}

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

const upstream = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"id":"msg_bench","type":"message","role":"assistant","content":[{"type":"text","text":"ok"}]}');
  });
});
// Providers keep idle connections open for a minute or more; Node's default of 5 s, with this process busy making
// bodies, would close connections just as the proxy reuses them.
upstream.keepAliveTimeout = 60_000;
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;
// The proxy runs in its own process, as it does for real: its latency and memory are not the load generator's.
const child = spawn(process.execPath, [...(process.env.CTX_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CTX_BENCH_PROFILE}`] : []), fileURLToPath(new URL('./proxy-process.mjs', import.meta.url))], {
  env: { ...process.env, CTX_BENCH_UPSTREAM: upstreamUrl, CTX_BENCH_PRESET: preset, CTX_BENCH_WINDOW: String(window), CTX_BENCH_CONVERSATIONS: String(concurrency * 2) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Whatever happens to the benchmark, the proxy does not outlive it.
process.on('exit', () => child.kill());
const childLines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const { url: proxyUrl } = JSON.parse((await childLines.next()).value);

const deadline = performance.now() + timeLimitMs;
const largest = { bytes: 0 };
const failures = [];

/** Sends every agent's turns in order (agents in parallel) to `base`; returns the latency of each request by id. */
async function run(base, label) {
  const latencies = new Map();
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, agent) => {
      let turn = 0;
      for (const body of agentBodies(agent)) {
        if (sent >= requests || performance.now() >= deadline) break;
        sent += 1;
        largest.bytes = Math.max(largest.bytes, body.length);
        const begin = performance.now();
        try {
          const response = await fetch(`${base}/v1/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': 'bench', 'x-ctx-conversation': `agent-${agent}` },
            body,
          });
          await response.arrayBuffer();
          if (response.status === 200) latencies.set(`${agent}:${turn}`, performance.now() - begin);
          else failures.push(`${label}: status ${response.status}`);
        } catch (error) {
          failures.push(`${label}: ${error.cause?.code ?? error.message}`);
        }
        turn += 1;
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

const direct = await run(upstreamUrl, 'direct');
const viaProxy = await run(proxyUrl, 'proxy');
const stats = await (await fetch(`${proxyUrl}/ctx/stats`)).json();
child.kill('SIGTERM');
const { peakRss, peakHeap, logLines, addedMs } = JSON.parse((await childLines.next()).value);
await new Promise((resolve) => upstream.close(resolve));

const paired = [...viaProxy.latencies].filter(([id]) => direct.latencies.has(id)).map(([id, ms]) => ms - direct.latencies.get(id));
const format = (ms) => `${ms.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(`ctx proxy load benchmark (loopback, preset ${preset}, window ${window.toLocaleString('en-US')})`);
console.log(`requests: ${viaProxy.latencies.size} through the proxy, ${direct.latencies.size} direct; ${concurrency} concurrent agents; bodies up to ${mb(largest.bytes)}`);
console.log(`direct:      p50 ${format(percentile([...direct.latencies.values()], 0.5))}, p99 ${format(percentile([...direct.latencies.values()], 0.99))} (${direct.seconds.toFixed(1)} s)`);
console.log(`via proxy:   p50 ${format(percentile([...viaProxy.latencies.values()], 0.5))}, p99 ${format(percentile([...viaProxy.latencies.values()], 0.99))} (${viaProxy.seconds.toFixed(1)} s)`);
console.log(`added by the proxy (paired per request, end to end): p50 ${format(percentile(paired, 0.5))}, p99 ${format(percentile(paired, 0.99))}`);
console.log(`added by the proxy before forwarding (its own log, queueing in the proxy included): p50 ${format(percentile(addedMs, 0.5))}, p99 ${format(percentile(addedMs, 0.99))}`);
console.log(`peak memory of the proxy process: rss ${mb(peakRss)}, heap ${mb(peakHeap)}`);
if (failures.length > 0) console.log(`failed requests: ${failures.length} (${[...new Set(failures)].slice(0, 5).join(', ')})`);
console.log(
  `proxy: ${stats.compressed} compressed, ${stats.unchanged} unchanged, ${stats.failedOpen} failed open; tokens ${stats.tokensBefore.toLocaleString('en-US')} → ${stats.tokensAfter.toLocaleString('en-US')}; cache prefix kept on ${stats.cachePrefix.rate === null ? '—' : `${Math.round(stats.cachePrefix.rate * 100)}%`} (${Math.round((stats.cachePrefix.rateOutsideCompactions ?? 0) * 100)}% outside compactions); ${logLines} log lines`,
);
