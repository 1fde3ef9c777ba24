#!/usr/bin/env node
// Output fingerprints: proof that a change left every mechanical strategy's output as it was (issue 18's rule for
// performance work). Replays the 15 largest corpus conversations through HistoryService and the orchestrator with
// every mechanical strategy and built-in preset, twice each: one-shot (every entry added, one check before a model
// call, window half the conversation's tokens) and turn by turn (a check before every model call, window 60% of
// them, at most 200,000). Each replay's fingerprint hashes what every check applied, the history after it and its
// token count, so any change to an output, a token count or a pass outcome changes it.
//
//   npm run fingerprints -- save before.json    # on the code before the change
//   npm run fingerprints -- check before.json   # after it: "N same, N changed[, N new]", exit 1 when any changed
//
// Needs the corpus (../shared/corpus or CTX_CORPUS) and built packages (the npm script builds first).
/* global structuredClone */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { HistoryService, createCompressionOrchestrator, createTokenCounter } from '@ctx/core';
import { builtInPresets } from '@ctx/presets';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import { findBenchSessions } from '../dist/bench/bench-sessions.js';
import { resolveStrategies } from '../dist/resolve-strategies.js';
import { createTokenizer } from '../dist/tokenizers.js';

const [mode, file] = process.argv.slice(2);
if ((mode !== 'save' && mode !== 'check') || file === undefined) {
  console.error('usage: output-fingerprints.mjs save|check <file.json>');
  process.exit(2);
}

/** The fingerprints `save` wrote, read before the minute of replays: a wrong file fails at once, in one line. */
function readSaved(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    console.error(`output-fingerprints: cannot read ${path} (${error.code ?? error.message}); write it first with \`save ${path}\``);
    process.exit(2);
  }
  let saved;
  try {
    saved = JSON.parse(text);
  } catch (error) {
    console.error(`output-fingerprints: ${path} is not what \`save\` writes (expected JSON; ${error.message.replace(/\s+/g, ' ')})`);
    process.exit(2);
  }
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved) || Object.values(saved).some((value) => typeof value !== 'string')) {
    console.error(`output-fingerprints: ${path} is not what \`save\` writes (expected an object of fingerprint strings)`);
    process.exit(2);
  }
  return saved;
}
const before = mode === 'check' ? readSaved(file) : undefined;

const tokenizer = await createTokenizer('gpt-tokenizer');
const noOptions = { plugin: [], set: [] };
const strategies = [];
for (const create of [
  ...(await resolveStrategies(noOptions)),
  ...(await resolveStrategies({ ...noOptions, presets: Object.keys(builtInPresets).join(',') })),
]) {
  const probe = create();
  if (!probe.requiresLLM && !strategies.some((strategy) => strategy.name === probe.name)) strategies.push({ name: probe.name, create });
}
const { sessions, source } = await findBenchSessions([], 15);
if (source !== 'corpus') {
  console.error('output-fingerprints: the corpus was not found (../shared/corpus or CTX_CORPUS); fingerprints need it');
  process.exit(2);
}

/** One replay's fingerprint: every check's applied passes, the history after it and its token count. */
async function fingerprint(session, create, window, turnByTurn) {
  const history = new HistoryService({ tokenCounter: createTokenCounter(tokenizer), system: session.system, tools: session.tools });
  const orchestrator = createCompressionOrchestrator({
    history,
    strategies: [create()],
    contextLimit: window,
    calibration: false,
    workspaceRoot: inferWorkspaceRoot(session.history),
  });
  const hash = createHash('sha256');
  try {
    const entries = session.history.map((entry) => structuredClone(entry));
    for (const [index, entry] of entries.entries()) {
      history.add(entry);
      const last = index === entries.length - 1;
      if (!last && (!turnByTurn || entries[index + 1].speaker !== 'ai')) continue;
      await history.waitForTokenUpdates();
      const report = await orchestrator.ensureCompressionBeforeSend();
      hash.update(JSON.stringify(report.passes.map((pass) => [pass.pass, pass.strategy, pass.outcome])));
      hash.update(JSON.stringify(history.getAll()));
      hash.update(String(history.getTotalTokens()));
    }
  } catch (error) {
    hash.update(`error ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    orchestrator.dispose();
  }
  return hash.digest('hex').slice(0, 16);
}

const fingerprints = {};
for (const session of sessions) {
  const probe = new HistoryService({ tokenCounter: createTokenCounter(tokenizer), system: session.system, tools: session.tools });
  try {
    probe.addAll(session.history.map((entry) => structuredClone(entry)));
  } catch (error) {
    console.log(`skipped ${session.label}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    continue;
  }
  await probe.waitForTokenUpdates();
  const tokens = probe.getTotalTokens();
  for (const { name, create } of strategies) {
    fingerprints[`${name} one-shot ${session.label}`] = await fingerprint(session, create, Math.floor(tokens * 0.5), false);
    fingerprints[`${name} turn by turn ${session.label}`] = await fingerprint(session, create, Math.min(200_000, Math.floor(tokens * 0.6)), true);
  }
}

if (mode === 'save') {
  writeFileSync(file, `${JSON.stringify(fingerprints, null, 1)}\n`);
  console.log(`${Object.keys(fingerprints).length} fingerprints saved to ${file}`);
} else {
  // A replay the saved file lacks (a session that could not be replayed before) is new, not changed.
  const added = Object.keys(fingerprints).filter((key) => !(key in before));
  const changed = Object.keys(fingerprints).filter((key) => key in before && before[key] !== fingerprints[key]);
  const missing = Object.keys(before).filter((key) => !(key in fingerprints));
  const same = Object.keys(fingerprints).length - changed.length - added.length;
  console.log(`${same} same, ${changed.length} changed${added.length > 0 ? `, ${added.length} new` : ''}${missing.length > 0 ? `, ${missing.length} no longer replayed` : ''}`);
  for (const key of [...changed, ...missing].slice(0, 40)) console.log(`  ${key}`);
  process.exitCode = changed.length + missing.length === 0 ? 0 : 1;
}
