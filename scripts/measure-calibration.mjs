#!/usr/bin/env node
// Measures, on the recorded Claude Code sessions, how far our token estimate of each model call is from the input
// the provider reported, before and after calibration, and writes the figures into the "Calibration" section of
// packages/core/README.md, so the published numbers are the ones anyone gets by running `npm run calibration`.
// Usage: node scripts/measure-calibration.mjs   (CTX_CORPUS: corpus location; CTX_CALIBRATION_SESSIONS: only the
// first N conversations, for a quick look — the README is then left alone)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const corpus = process.env.CTX_CORPUS || fileURLToPath(new URL('../../shared/corpus', import.meta.url));
const sessionsDirectory = join(corpus, 'claude-code');
const readme = `${root}packages/core/README.md`;
const start = '<!-- calibration:start -->';
const end = '<!-- calibration:end -->';
const limitText = process.env.CTX_CALIBRATION_SESSIONS;
const limit = limitText === undefined || limitText === '' ? undefined : Number(limitText);

if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
  console.error(`CTX_CALIBRATION_SESSIONS: expected a whole number ≥ 1, got ${JSON.stringify(limitText)}`);
  process.exit(1);
}
if (!existsSync(sessionsDirectory)) {
  console.log(`Calibration not measured: no Claude Code sessions at ${sessionsDirectory} (set CTX_CORPUS to the corpus).`);
  process.exit(0);
}

const playground = `${root}apps/playground/dist/calibration/`;
const { loadClaudeCodeSessions } = await import(`${playground}load-claude-code-sessions.js`);
const { measureCalibration, underCountTolerance } = await import(`${playground}measure-calibration.js`);
const { createCalibrationTokenizers } = await import(`${playground}calibration-tokenizers.js`);

const startedAt = performance.now();
const sessions = await loadClaudeCodeSessions(sessionsDirectory, limit === undefined ? {} : { limit });
const results = [];
for (const { tokenizer, dispose } of await createCalibrationTokenizers()) {
  try {
    results.push(await measureCalibration(sessions, tokenizer));
  } finally {
    dispose();
  }
}
const seconds = (performance.now() - startedAt) / 1000;

const [reference] = results;
if (reference === undefined || reference.calls === 0) {
  console.log(`Calibration not measured: no model call with recorded usage in ${sessionsDirectory}.`);
  process.exit(0);
}

const percent = (fraction, digits = 1) => `${(fraction * 100).toFixed(digits)}%`;
const integer = new Intl.NumberFormat('en-US');
const round = (value) => integer.format(Math.round(value));
const ratio = (value) => `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)}×`;
const count = (predicate) => reference.perSession.filter(predicate).length;
const mainSessions = count((session) => session.kind === 'session');
const subagents = count((session) => session.kind === 'subagent');
const compactions = reference.perSession.reduce((sum, session) => sum + session.compactions, 0);
const overhead = reference.hiddenOverhead;
const byMode = (result, name) => result.modes.find((mode) => mode.mode === name);
const latest = byMode(reference, 'latest-ratio');
const none = byMode(reference, 'none');
const orchestrator = byMode(reference, 'orchestrator');
const today = new Date().toISOString().slice(0, 10);

const lines = [
  start,
  '',
  `Measured by \`npm run calibration\` (\`scripts/measure-calibration.mjs\`) on ${today}, over the Claude Code transcripts`,
  `of \`../shared/corpus/claude-code\`: ${reference.sessions} conversations (${mainSessions} sessions and ${subagents} subagent conversations, inline`,
  `sidechains included; Claude Code's own compaction requests are left out, their input is not in the files) with`,
  `${integer.format(reference.calls)} model calls (records sharing a \`message.id\` count once) and ${compactions} compactions. For each call, *real* is the`,
  `input the provider reported (\`input_tokens + cache_creation_input_tokens + cache_read_input_tokens\`) and *ours* the`,
  `tokenizer's count of the entries sent with it, counted as \`HistoryService\` counts them. Each call is predicted from`,
  `the usage of the earlier calls of its conversation only, as it runs live.`,
  '',
  '| tokenizer | real ÷ ours: median | p10 | p90 | first call of a conversation: median |',
  '|---|---|---|---|---|',
  ...results.map(
    (result) =>
      `| ${result.tokenizer} | ${ratio(result.ratio.median)} | ${ratio(result.ratio.p10)} | ${ratio(result.ratio.p90)} | ${ratio(result.hiddenOverhead.firstCallMedianRatio)} |`,
  ),
  '',
  `Error of the predicted request size (mean of \`|predicted − real| ÷ real\` over the calls) and the calls predicted more`,
  `than ${percent(underCountTolerance, 0)} under their real size (the ones that overflow a window):`,
  '',
  `| prediction | ${results.map((result) => `${result.tokenizer}: mean error | under-counted`).join(' | ')} |`,
  `|---|${results.map(() => '---|---|').join('')}`,
  ...reference.modes.map(
    (mode) =>
      `| ${mode.description} | ${results
        .map((result) => {
          const row = byMode(result, mode.mode);
          return `${percent(row.meanAbsolutePercentageError)} | ${integer.format(row.underCounts)} (${percent(row.underCountShare)})`;
        })
        .join(' | ')} |`,
  ),
  '',
  `**Hidden overhead.** Claude Code sends a system prompt and tool definitions that the session file does not record,`,
  `so *ours* leaves them out and the factor absorbs them: that is why a conversation's first call, a short prompt`,
  `(median ${round(overhead.firstCallMedianEstimated)} tokens of ours) that the provider counted as ${round(overhead.firstCallMedianActual)} (median), has a ratio in the hundreds,`,
  `and why the median ratio is far above what the tokenizers alone differ by. Estimated with ${reference.tokenizer} by fitting *real ≈ a × ours + b* by least squares over`,
  `the calls of each conversation with at least 5 calls (${overhead.sessions} of them) and taking the medians: **b ≈ ${round(overhead.medianIntercept)}`,
  `tokens** (p10–p90 over conversations ${round(overhead.interceptP10)}–${round(overhead.interceptP90)}) is the hidden overhead, and **a ≈ ${overhead.medianSlope.toFixed(2)}** is`,
  `Claude's tokens per ${reference.tokenizer} token on the recorded content alone.`,
  '',
  `What this means: without calibration every call is under-counted (mean error ${percent(none.meanAbsolutePercentageError)}). With \`latest-ratio\` the`,
  `median error is ${percent(latest.medianAbsolutePercentageError, 2)} and the mean ${percent(latest.meanAbsolutePercentageError)}. Of its ${integer.format(latest.underCounts)} under-counts, ${integer.format(latest.underCountsWithoutUsage)} are the first call of a`,
  `conversation or after a compaction (no usage yet: only the initial factor can guess) and ${integer.format(latest.underCountsAfterCappedRatio)} follow a call whose`,
  `ratio was above the factor's cap of 5 — early in a conversation, when the hidden overhead dwarfs the history.`,
  `The orchestrator's estimate also never goes under the last real count plus what was added since (calibrated),`,
  `which leaves ${integer.format(orchestrator.underCounts)} under-counts, ${integer.format(orchestrator.underCountsWithoutUsage)} of them on calls with no usage before them; the price is over-estimates early in`,
  `a conversation (growth scaled by the capped factor). Giving the history service the system prompt and tools (its`,
  `\`system\` and \`tools\` options) puts the overhead in *ours* instead of in the factor.`,
  '',
  `<details><summary>Per conversation (${reference.tokenizer})</summary>`,
  '',
  '| conversation | kind | calls | compactions | real ÷ ours: median | first call | fit a / b | mean error: none / latest-ratio / orchestrator |',
  '|---|---|---|---|---|---|---|---|',
  ...reference.perSession.map((session) => {
    const fit = session.fit === undefined ? '—' : `${session.fit.slope.toFixed(2)} / ${round(session.fit.intercept)}`;
    const errors = ['none', 'latest-ratio', 'orchestrator'].map((name) => percent(session.meanAbsolutePercentageError[name])).join(' / ');
    return `| ${session.name} | ${session.kind} | ${session.calls} | ${session.compactions} | ${ratio(session.medianRatio)} | ${ratio(session.firstCallRatio)} | ${fit} | ${errors} |`;
  }),
  '',
  '</details>',
  '',
  end,
];

// The readable table for the terminal.
const table = (rows) => {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows.map((row) => row.map((cell, column) => String(cell).padEnd(widths[column])).join('  ')).join('\n');
};
console.log(
  `${reference.sessions} conversations, ${integer.format(reference.calls)} calls, ${compactions} compactions (${sessionsDirectory}), ${seconds.toFixed(1)} s\n`,
);
console.log(
  table([
    ['tokenizer', 'real÷ours median', 'p10', 'p90', 'prediction', 'mean error', 'median error', `under-counted >${percent(underCountTolerance, 0)}`],
    ...results.flatMap((result) =>
      result.modes.map((mode, index) => [
        index === 0 ? result.tokenizer : '',
        index === 0 ? ratio(result.ratio.median) : '',
        index === 0 ? ratio(result.ratio.p10) : '',
        index === 0 ? ratio(result.ratio.p90) : '',
        mode.mode,
        percent(mode.meanAbsolutePercentageError),
        percent(mode.medianAbsolutePercentageError, 2),
        `${mode.underCounts} (${percent(mode.underCountShare)})`,
      ]),
    ),
  ]),
);
console.log(
  `\nhidden overhead (${reference.tokenizer}, fit real ≈ a × ours + b per conversation, ${overhead.sessions} conversations): b ≈ ${round(overhead.medianIntercept)} tokens (p10–p90 ${round(overhead.interceptP10)}–${round(overhead.interceptP90)}), a ≈ ${overhead.medianSlope.toFixed(2)}`,
);

if (limit !== undefined) {
  console.log(`\nOnly the first ${limit} conversations (CTX_CALIBRATION_SESSIONS): packages/core/README.md left as it is.`);
  process.exit(0);
}
const text = readFileSync(readme, 'utf8');
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from === -1 || to === -1) {
  console.error(`packages/core/README.md has no ${start} … ${end} section`);
  process.exit(1);
}
writeFileSync(readme, `${text.slice(0, from)}${lines.join('\n')}${text.slice(to + end.length)}`);
console.log(`\npackages/core/README.md: calibration figures for ${integer.format(reference.calls)} calls written`);
