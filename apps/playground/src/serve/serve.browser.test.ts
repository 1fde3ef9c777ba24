// End to end: the page of `ctx serve` in Debian's Chromium, driven by playwright-core (nothing downloads a browser).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResultRow } from '../commands/compare-command.js';
import { findCorpusDirectory } from '../corpus.js';
import { demoTranscriptPath } from '../demo-transcript.js';
import { ctx } from '../test-support/run-ctx.js';
import { startServeServer, type ServeServer } from './start-serve-server.js';

const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
if (!hasChromium) console.warn(`Skipping the ctx serve browser test: no Chromium at ${chromiumPath} (apt-get install -y chromium; .ci/run installs it).`);

const playground = fileURLToPath(new URL('../..', import.meta.url));
const webDirectory = join(playground, 'dist', 'web');
const artifacts = join(playground, 'test-artifacts');
const corpus = findCorpusDirectory();
const corpusSession = corpus === undefined ? undefined : join(corpus, 'claude-code', 'claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
if (corpusSession === undefined) console.warn('The ctx serve browser test uses the demo transcript: ../shared/corpus not found (set CTX_CORPUS).');
/** A recorded Claude Code session when the corpus is here, else the built-in demo. */
const transcript = corpusSession !== undefined && existsSync(corpusSession) ? corpusSession : demoTranscriptPath;
const strategies = ['high-density', 'truncation'];

describe.skipIf(!hasChromium)('ctx serve in Chromium', () => {
  let server: ServeServer;
  let browser: Browser;
  let sessions = '';

  beforeAll(async () => {
    expect(existsSync(join(webDirectory, 'index.html')), `the page is not built in ${webDirectory}: run npx turbo run build --filter @ctx/playground`).toBe(true);
    sessions = await mkdtemp(join(tmpdir(), 'ctx-serve-browser-'));
    server = await startServeServer({ plugins: [], webDirectory, sessionsDirectory: sessions });
    // playwright-core starts Chromium with a fresh temporary profile of its own.
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sessions !== '') await rm(sessions, { recursive: true, force: true });
  });

  it('should compare two strategies on a session, show the numbers of `ctx compare --json`, and open the diff of a replaced entry', async () => {
    const cli = await ctx('compare', transcript, '--json', '--runs', '1', '--strategies', strategies.join(','));
    const expected = (JSON.parse(cli.stdout) as { results: CompareResultRow[] }).results;
    expect(expected.map((row) => row.strategy)).toEqual(strategies);

    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.setInputFiles('[data-testid=file-input]', transcript);
    await expect.poll(() => page.textContent('[data-testid=chosen-transcript]')).toContain(basename(transcript));
    for (const checkbox of await page.locator('input[data-testid^=strategy-]').all()) await checkbox.setChecked(false);
    for (const name of strategies) await page.locator(`[data-testid=strategy-${name}]`).setChecked(true);
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=results-table]', { timeout: 30_000 });

    const shown: { strategy: string | null; text: string; fields: Record<string, unknown> }[] = [];
    for (const row of await page.locator('[data-testid=result-row]').all()) {
      const fields: Record<string, unknown> = {};
      for (const cell of await row.locator('[data-field][data-value]').all()) {
        fields[(await cell.getAttribute('data-field')) ?? ''] = JSON.parse((await cell.getAttribute('data-value')) ?? 'null') as unknown;
      }
      shown.push({ strategy: await row.getAttribute('data-strategy'), text: (await row.locator('[data-field=tokensAfter]').textContent()) ?? '', fields });
    }
    expect(shown.map((row) => row.strategy)).toEqual(strategies);
    shown.forEach((row, index) => {
      const cliRow = expected[index] as CompareResultRow;
      const { ms: _ms, ...figures } = row.fields;
      expect(figures).toEqual({
        outcome: cliRow.outcome,
        tokensAfter: cliRow.tokensAfter,
        reduction: cliRow.reduction,
        userTextsKept: cliRow.userTextsKept,
        fileStatesKept: cliRow.fileStatesKept,
        errorsKept: cliRow.errorsKept,
        validAnthropic: cliRow.validAnthropic,
        validOpenAI: cliRow.validOpenAI,
      });
      expect(row.text).toBe(`${cliRow.tokensBefore.toLocaleString('en-US')} → ${(cliRow.tokensAfter as number).toLocaleString('en-US')}`);
    });

    // The chart shows each epoch's tokens on request (one epoch: this session was never compacted).
    await page.getByRole('button', { name: 'Each epoch' }).click();
    await page.locator('[data-testid=token-chart]').getByText(/^Each epoch's tokens before and after each strategy: 1 epoch;/).waitFor();
    await page.getByRole('button', { name: 'Context size' }).click();

    // Truncation shortens entries in place: its history lists replaced entries with a diff.
    await page.locator('[data-testid=result-row][data-strategy=truncation]').click();
    await page.getByRole('button', { name: /^Replaced \(/ }).click();
    await page.locator('[data-testid=history-row][data-state=replaced]').first().click();
    const diff = page.locator('[data-testid=diff-view]');
    await diff.waitFor();
    expect(await diff.locator('del, ins').count()).toBeGreaterThan(0);
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'serve-browser.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});
