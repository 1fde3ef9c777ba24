import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctx } from './test-support/run-ctx.js';
import { findCorpusDirectory } from './corpus.js';
import { demoTranscriptPath } from './demo-transcript.js';
import { readTranscriptFile } from './read-transcripts.js';


const temporaryDirectory = () => mkdtemp(join(tmpdir(), 'ctx-compress-'));

describe('ctx compress', () => {
  it('should print the per-pass report with tokens, percent, time, warnings, retention and validity', async () => {
    const { code, stdout, stderr } = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Transcript: .*demo-session\.json \(ctx, whole session\) · 104 entries/);
    expect(stdout).toMatch(/Compression \(top-down-truncation\): [\d,]+ → [\d,]+ tokens \(-\d+%\), 104 → \d+ entries, [\d.]+ ms/);
    expect(stdout).toMatch(/warning \(lossy\): dropped the \d+ oldest entries/);
    expect(stdout).toMatch(/Retention: user texts \d+% \(\d+\/\d+\), file states \d+% \(\d+\/\d+\), errors \d+% \(\d+\/\d+\), thinking \d+%/);
    expect(stdout).toMatch(/Valid request: Anthropic yes, OpenAI yes/);
  });

  it('should write every output format so that it reads back as the same history', async () => {
    const directory = await temporaryDirectory();
    const formats = { ctx: 'ctx', anthropic: 'anthropic-messages', openai: 'openai-chat', gemini: 'gemini-content', 'ai-sdk': 'ai-sdk-model-messages' };
    const callIds: Record<string, string[]> = {};
    for (const [format, detected] of Object.entries(formats)) {
      const out = join(directory, `out-${format}.json`);
      const result = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--out', out, '--format', format, '--json');
      expect(result.code, format).toBe(0);
      const [reread] = await readTranscriptFile(out);
      expect(reread?.format, format).toBe(detected);
      // Codecs group entries their own way (one OpenAI tool message per result); the tool calls are the same.
      callIds[format] = (reread?.conversation.history ?? []).flatMap((entry) =>
        entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.name] : [])),
      );
      expect(callIds[format]?.length, format).toBeGreaterThan(0);
      expect(callIds[format], format).toEqual(callIds.ctx);
    }
  });

  it('should compress to an explicit --budget', async () => {
    const { stdout } = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--budget', '10000', '--json');
    const report = JSON.parse(stdout) as { tokensAfter: number; budget: number };
    expect(report.budget).toBe(10_000);
    expect(report.tokensAfter).toBeLessThanOrEqual(10_000);
  });

  it('should validate strategy settings from --set and --config with one line naming the option', async () => {
    const bad = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--set', 'top-down-truncation.minEntriesKept=0');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^ctx: Invalid settings for strategy "top-down-truncation": +minEntriesKept: Expected an integer ≥ 1/);
    expect(bad.stderr.split('\n')).toHaveLength(1);

    const unknown = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--set', 'magic.level=9');
    expect(unknown.stderr).toMatch(/^ctx: --set magic\.level=9: expected <strategy>\.<option>=<value> with a known strategy/);

    const config = join(await temporaryDirectory(), 'settings.json');
    await writeFile(config, JSON.stringify({ 'top-down-truncation': { minEntriesKept: 100 } }));
    const configured = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--config', config, '--json');
    // At least 100 entries kept (plus the omission notice when the cut falls before an assistant turn).
    expect((JSON.parse(configured.stdout) as { entriesAfter: number }).entriesAfter).toBeGreaterThanOrEqual(100);
  });

  it('should reject bad arguments with one line and a non-zero exit', async () => {
    expect((await ctx('compress', demoTranscriptPath)).code).toBe(2);
    expect(await ctx('compress', '/nowhere.json', '--strategy', 'top-down-truncation')).toMatchObject({
      code: 1,
      stderr: 'ctx: /nowhere.json: no such file or directory',
    });
    expect((await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--format', 'xml')).code).toBe(2);
    expect((await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--epoch', 'first')).code).toBe(2);
    expect(await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--budget', '-5')).toMatchObject({
      code: 1,
      stderr: 'ctx: --budget expects a whole number of tokens, got -5',
    });
    const written = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--out', '/nonexistent-dir/x.json');
    expect(written.stderr).toMatch(/^ctx: --out \/nonexistent-dir\/x\.json: cannot write \(ENOENT\)$/);
  });
});

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping ctx compress corpus tests: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('ctx compress on the recorded corpus', () => {
  it('should compress every corpus conversation with the reference strategy into files that re-import', async () => {
    const manifest = JSON.parse(await readFile(join(corpus as string, 'manifest.json'), 'utf8')) as { file: string }[];
    const directory = await temporaryDirectory();
    for (const { file } of manifest) {
      const path = join(corpus as string, file);
      const sessions = await readTranscriptFile(path);
      for (const session of sessions) {
        const target = sessions.length > 1 ? session.label : path;
        const out = join(directory, 'out.json');
        const result = await ctx('compress', target, '--strategy', 'top-down-truncation', '--out', out, '--format', 'anthropic', '--json');
        expect(result.stderr, target).toBe('');
        expect(result.code, target).toBe(0);
        const [reread] = await readTranscriptFile(out);
        expect(reread?.format, target).toBe('anthropic-messages');
      }
    }
  }, 300_000);

  it('should read only the last epoch of a compacted session with --epoch last', async () => {
    const path = join(corpus as string, 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl');
    const report = async (epoch: string) =>
      JSON.parse((await ctx('compress', path, '--strategy', 'top-down-truncation', '--epoch', epoch, '--json')).stdout) as { entriesBefore: number };
    expect((await report('last')).entriesBefore).toBeLessThan((await report('all')).entriesBefore);
  });
});
