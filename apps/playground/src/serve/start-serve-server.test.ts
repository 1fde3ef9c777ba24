import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCorpusDirectory } from '../corpus.js';
import { demoTranscriptPath } from '../demo-transcript.js';
import { ctx } from '../test-support/run-ctx.js';
import type { CompareRequest, CompareResponse, CompareResultRow, ErrorResponse, ServeInfo } from './serve-api.js';
import { startServeServer, type ServeServer } from './start-serve-server.js';

// A third-party strategy package as an outside author writes it: plain ESM, no ctx imports.
const pluginSource = `
export function createKeepLastTurnsStrategy(settings = {}) {
  const turns = settings.turns ?? 1;
  if (!Number.isInteger(turns) || turns < 1) throw new Error('turns: Expected an integer >= 1, got ' + turns);
  return {
    specificationVersion: 'v1',
    name: 'keep-last-turns',
    description: 'Keeps the last user turns.',
    requiresLLM: false,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    settings: { turns },
    async compress(context) {
      const starts = context.history.flatMap((entry, index) => (entry.speaker === 'human' && index > 0 ? [index] : []));
      const start = starts.at(-turns);
      if (start === undefined) return { type: 'no-op', reason: 'too-few-compressible' };
      const newHistory = context.history.slice(start);
      return { type: 'applied', newHistory, metadata: { originalMessageCount: context.history.length, compressedMessageCount: newHistory.length, strategyUsed: 'keep-last-turns', llmCallMade: false } };
    },
  };
}
`;

const corpus = findCorpusDirectory();
const corpusSession = corpus === undefined ? undefined : join(corpus, 'claude-code', 'claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
if (corpus === undefined) console.warn('Skipping the ctx serve corpus comparison: ../shared/corpus not found (set CTX_CORPUS).');

let server: ServeServer;
let directory = '';
let pluginFile = '';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'ctx-serve-test-'));
  pluginFile = join(directory, 'keep-last-turns.js');
  await writeFile(pluginFile, pluginSource);
  // An empty projects folder: the tests never list the user's own sessions.
  await mkdir(join(directory, 'projects', '-home-dev-app'), { recursive: true });
  server = await startServeServer({ plugins: [pluginFile], sessionsDirectory: join(directory, 'projects') });
});

afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

async function post(body: unknown, contentType = 'application/json'): Promise<{ status: number; json: unknown }> {
  const response = await fetch(new URL('api/compare', server.url), {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** What `ctx compare --json` printed, without the time (it is measured, so it differs run to run). */
function withoutTime(rows: readonly CompareResultRow[]): Omit<CompareResultRow, 'ms'>[] {
  return rows.map(({ ms: _ms, ...row }) => row);
}

describe('startServeServer', () => {
  it('should answer POST /api/compare with exactly the rows `ctx compare --json` prints, settings included', async () => {
    const cli = await ctx('compare', demoTranscriptPath, '--json', '--runs', '1', '--strategies', 'high-density,truncation', '--set', 'truncation.preserveRecentCount=3');
    const expected = (JSON.parse(cli.stdout) as { results: CompareResultRow[] }).results;
    const { status, json } = await post({
      source: { kind: 'demo' },
      strategies: ['high-density', 'truncation'],
      presets: [],
      settings: { truncation: { preserveRecentCount: 3 } },
    } satisfies CompareRequest);
    expect(status).toBe(200);
    expect(withoutTime((json as CompareResponse).results)).toEqual(withoutTime(expected));
  });

  it.skipIf(corpusSession === undefined)('should give the same rows for an uploaded corpus session as `ctx compare --json` on the file, named as the user named it', async () => {
    const file = corpusSession as string;
    const cli = await ctx('compare', file, '--json', '--runs', '1', '--strategies', 'lossless,sliding-window', '--presets', 'balanced', '--window', '20000');
    const expected = (JSON.parse(cli.stdout) as { results: CompareResultRow[] }).results.map((row) => ({ ...row, file: 'session.jsonl' }));
    const { status, json } = await post({
      source: { kind: 'upload', name: 'session.jsonl', text: await readFile(file, 'utf8') },
      strategies: ['lossless', 'sliding-window'],
      presets: ['balanced'],
      window: 20_000,
    } satisfies CompareRequest);
    expect(status).toBe(200);
    const response = json as CompareResponse;
    expect(withoutTime(response.results)).toEqual(withoutTime(expected));
    // The page's chart ends where the table does: the last turn's context is the request after the strategy.
    response.details.forEach((detail, index) => {
      expect(detail.cumulativeAfter.at(-1)).toBe(response.results[index]?.tokensAfter);
    });
    expect(response.transcript.cumulativeBefore.at(-1)).toBe(response.results[0]?.tokensBefore);
  });

  it.skipIf(corpus === undefined)('should mark where the agent compacted: the turns its epochs start at', async () => {
    // A 1.6 MB Claude Code session in which Claude Code compacted once.
    const file = join(corpus ?? '', 'claude-code', 'vsla', '0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl');
    const { status, json } = await post({
      source: { kind: 'upload', name: 'compacted.jsonl', text: await readFile(file, 'utf8') },
      strategies: ['top-down-truncation'],
      presets: [],
    } satisfies CompareRequest);
    expect(status).toBe(200);
    const { transcript } = json as CompareResponse;
    const turns = transcript.perTurnBefore.length;
    expect(transcript.epochStarts[0]).toBe(0);
    expect(transcript.epochStarts.length).toBeGreaterThan(1);
    for (const [index, start] of transcript.epochStarts.entries()) {
      if (index > 0) expect(start).toBeGreaterThan(transcript.epochStarts[index - 1] as number);
      expect(start).toBeLessThan(turns);
    }
    // The epoch starts at the turn whose entries hold the compaction summary.
    const summaryTurn = transcript.entries.find((entry) => entry.speaker === 'human' && /continued from a previous conversation/i.test(entry.text))?.turn;
    expect(transcript.epochStarts).toContain(summaryTurn);
    const demo = await post({ source: { kind: 'demo' }, strategies: ['top-down-truncation'], presets: [] } satisfies CompareRequest);
    expect((demo.json as CompareResponse).transcript.epochStarts).toEqual([0]);
  });

  it('should say what each pass did to each entry, with the replacement text', async () => {
    const { json } = await post({ source: { kind: 'demo' }, strategies: ['truncation', 'sliding-window'], presets: [] } satisfies CompareRequest);
    const [truncation, slidingWindow] = (json as CompareResponse).details;
    const replaced = truncation?.changes.find((change) => change.state === 'replaced');
    expect(replaced?.events[0]).toMatchObject({ pass: 'compression', strategy: 'truncation', action: 'replaced' });
    expect(replaced?.replacement?.text.length).toBeGreaterThan(0);
    expect(slidingWindow?.changes.some((change) => change.state === 'removed' && change.events[0]?.strategy === 'sliding-window')).toBe(true);
    expect(slidingWindow?.attribution).toBe('passes');
  });

  it('should list --plugin strategies like built-in ones, with their settings, and run them', async () => {
    const info = (await (await fetch(new URL('api/info', server.url))).json()) as ServeInfo;
    expect(info.strategies.map((strategy) => strategy.name)).toEqual(expect.arrayContaining(['high-density', 'truncation', 'keep-last-turns']));
    expect(info.strategies.find((strategy) => strategy.name === 'keep-last-turns')).toMatchObject({ origin: pluginFile, defaultSettings: { turns: 1 } });
    expect(info.strategies.find((strategy) => strategy.name === 'truncation')?.settingsJsonSchema).toMatchObject({ type: 'object' });
    expect(info.recentSessions).toEqual([]);
    const { status, json } = await post({ source: { kind: 'demo' }, strategies: ['keep-last-turns'], presets: [], settings: { 'keep-last-turns': { turns: 2 } } });
    expect(status).toBe(200);
    expect((json as CompareResponse).results[0]).toMatchObject({ strategy: 'keep-last-turns', outcome: 'applied' });
  });

  it.each([
    ['a body that is not JSON', '{"source":', /Expected a JSON body/],
    ['no strategy', { source: { kind: 'demo' }, strategies: [], presets: [] }, /at least one strategy or preset/],
    ['an unknown strategy', { source: { kind: 'demo' }, strategies: ['nope'], presets: [] }, /unknown strategy "nope"; known strategies: lossless, /],
    ['a setting the strategy rejects', { source: { kind: 'demo' }, strategies: ['truncation'], settings: { truncation: { preserveRecentCount: -1 } } }, /preserveRecentCount/],
    ['a window out of range', { source: { kind: 'demo' }, strategies: ['truncation'], window: -5 }, /window/],
    ['a file that is not a transcript', { source: { kind: 'upload', name: 'notes.json', text: 'hello' }, strategies: ['truncation'] }, /^notes\.json: not valid JSON/],
    ['a session the server did not list', { source: { kind: 'recent', path: '/etc/passwd' }, strategies: ['truncation'] }, /Expected one of the recent sessions/],
    ['an unknown source kind', { source: { kind: 'url' }, strategies: ['truncation'] }, /source\.kind/],
  ])('should answer %s with status 400 and a JSON error saying what to fix', async (_case, body, message) => {
    const { status, json } = await post(body);
    expect(status).toBe(400);
    expect((json as ErrorResponse).error.message).toMatch(message);
  });

  it('should refuse a request that is not JSON, and one for another host', async () => {
    expect((await post('source=demo', 'application/x-www-form-urlencoded')).status).toBe(400);
    // What a page on another site reaches through DNS rebinding: our port, its Host name (fetch cannot set Host).
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const url = new URL('api/info', server.url);
      request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'attacker.example' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
  });
});
