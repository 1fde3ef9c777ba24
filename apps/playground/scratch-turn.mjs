import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { HistoryService, createCompressionOrchestrator, createCountingTokenizer, createTokenCounter } from '@ctx/core';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import { createTokenizer } from './dist/tokenizers.js';
import { findBenchSessions } from './dist/bench/bench-sessions.js';
import { measureTokenizationPass } from './dist/bench/tokenization-pass.js';
import { resolveStrategies } from './dist/resolve-strategies.js';
const [name, idx, n] = process.argv.slice(2);
const tokenizer = await createTokenizer('gpt-tokenizer');
const { sessions } = await findBenchSessions([], Number(idx) + 1);
const session = sessions[Number(idx)];
const window = Math.min(200000, measureTokenizationPass(session, tokenizer).tokens);
const [create] = await resolveStrategies({ plugin: [], set: [], strategies: name }).catch(() => resolveStrategies({ plugin: [], set: [], presets: name }));
const isTurnEnd = (h, i) => h[i + 1] === undefined || h[i + 1].speaker === 'ai';
const inspector = new Session(); inspector.connect();
await inspector.post('Profiler.enable'); await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
const profiles = [];
for (let r = 0; r < Number(n); r++) {
  const entries = session.history.map((e) => structuredClone(e));
  const counting = createCountingTokenizer(tokenizer);
  const history = new HistoryService({ tokenCounter: createTokenCounter(counting.tokenizer), system: session.system, tools: session.tools });
  const orchestrator = createCompressionOrchestrator({ history, strategies: [create()], contextLimit: window, calibration: false, workspaceRoot: inferWorkspaceRoot(session.history) });
  const lastTurnStart = entries.findLastIndex((e, i) => i === 0 || isTurnEnd(entries, i - 1)); // first entry of last turn
  for (const [index, entry] of entries.entries()) {
    if (index === lastTurnStart && r > 0) await inspector.post('Profiler.start');
    const t0 = index === lastTurnStart ? performance.now() : 0;
    history.add(entry);
    if (!isTurnEnd(entries, index)) continue;
    await history.waitForTokenUpdates();
    const tk = counting.stats().milliseconds;
    await orchestrator.ensureCompressionBeforeSend();
    if (index === entries.length - 1) {
      if (r > 0) { const { profile } = await inspector.post('Profiler.stop'); profiles.push(profile); }
      console.log('last turn entries', lastTurnStart, '..', index);
    }
  }
  orchestrator.dispose();
}
writeFileSync('/tmp/prof/turn-profiles.json', JSON.stringify(profiles));
