import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBrokenClaudeCodeSession } from './test-support/broken-claude-code-session.js';
import { ctx } from './test-support/run-ctx.js';
import { findCorpusDirectory } from './corpus.js';
import { demoTranscriptPath } from './demo-transcript.js';
import { readTranscriptFile } from './read-transcripts.js';


const createdDirectories: string[] = [];
const temporaryDirectory = async () => {
  const directory = await mkdtemp(join(tmpdir(), 'ctx-compress-'));
  createdDirectories.push(directory);
  return directory;
};
afterEach(async () => {
  await Promise.all(createdDirectories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

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
      code: 2,
      stderr: 'ctx: --budget expects a whole number of tokens from 0 to 100,000,000, got -5',
    });
    const written = await ctx('compress', demoTranscriptPath, '--strategy', 'top-down-truncation', '--out', '/nonexistent-dir/x.json');
    expect(written.stderr).toMatch(/^ctx: --out \/nonexistent-dir\/x\.json: cannot write \(ENOENT\)$/);
  });
});


describe('ctx compress --out', () => {
  const compress = (input: string, ...rest: string[]) => ctx('compress', input, '--strategy', 'top-down-truncation', ...rest);
  /** A copy of the demo session in a fresh directory: the user's data that must survive. */
  const userSession = async () => {
    const directory = await temporaryDirectory();
    const session = join(directory, 'session.json');
    await copyFile(demoTranscriptPath, session);
    return { directory, session, original: await readFile(session, 'utf8') };
  };

  it('should refuse an --out that is the input file, however it is spelled, and leave the input untouched', async () => {
    const { directory, session, original } = await userSession();
    await mkdir(join(directory, 'sub'));
    await symlink(session, join(directory, 'alias.json'));
    await link(session, join(directory, 'hard.json'));
    const spellings = [session, join(directory, 'sub', '..', 'session.json'), join(directory, 'alias.json'), join(directory, 'hard.json')];
    for (const out of spellings) {
      for (const extra of [[], ['--force']]) {
        const result = await compress(session, '--out', out, ...extra);
        expect(result.code, out).toBe(1);
        expect(result.stdout, out).toBe('');
        expect(result.stderr, out).toMatch(/^ctx: --out .*: expected a file other than the input .*session\.json/);
        expect(result.stderr.split('\n'), out).toHaveLength(1);
      }
    }
    const selected = await compress(`${session}#1`, '--out', session, '--force');
    expect(selected.code).toBe(1);
    expect(selected.stderr).toMatch(/expected a file other than the input/);
    expect(await readFile(session, 'utf8')).toBe(original);
  });

  it('should refuse to overwrite an existing file without --force, naming the file', async () => {
    const directory = await temporaryDirectory();
    const out = join(directory, 'keep.json');
    await writeFile(out, 'precious\n');
    const refused = await compress(demoTranscriptPath, '--out', out);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`ctx: --out ${out}: expected a new file, found an existing one; pass --force to replace it`);
    expect(await readFile(out, 'utf8')).toBe('precious\n');

    const forced = await compress(demoTranscriptPath, '--out', out, '--force');
    expect(forced.code).toBe(0);
    expect((JSON.parse(await readFile(out, 'utf8')) as { format: string }).format).toBe('ctx.conversation.v1');
    expect(await readdir(directory)).toEqual(['keep.json']);
  });

  it('should leave only the finished file in the directory (no temporary file)', async () => {
    const directory = await temporaryDirectory();
    const result = await compress(demoTranscriptPath, '--out', join(directory, 'out.json'));
    expect(result.code).toBe(0);
    expect(await readdir(directory)).toEqual(['out.json']);
  });

  it('should write ctx JSON for a .json name, which ctx inspect reads back', async () => {
    const directory = await temporaryDirectory();
    const out = join(directory, 'x.json');
    const result = await compress(demoTranscriptPath, '--out', out);
    expect(result.stdout).toMatch(/Wrote .*x\.json \(ctx\)/);
    const inspected = await ctx('inspect', out, '--json');
    expect(inspected.code).toBe(0);
    const [file] = (JSON.parse(inspected.stdout) as { files: { format: string; entries: number }[] }).files;
    expect(file?.format).toBe('ctx');
    expect(file?.entries).toBeGreaterThan(0);
    expect(file?.entries).toBeLessThan(104);
  });

  it('should take the format from a .<format>.json name', async () => {
    const directory = await temporaryDirectory();
    const out = join(directory, 'x.anthropic.json');
    expect((await compress(demoTranscriptPath, '--out', out)).code).toBe(0);
    expect((await readTranscriptFile(out))[0]?.format).toBe('anthropic-messages');
    const contradicted = await compress(demoTranscriptPath, '--out', join(directory, 'y.anthropic.json'), '--format', 'openai');
    expect(contradicted.code).toBe(1);
    expect(contradicted.stderr).toMatch(/^ctx: --out .*y\.anthropic\.json: the name says --format anthropic but --format openai was given/);
  });

  it('should refuse a .jsonl name, since every format writes one JSON document, and write nothing', async () => {
    const directory = await temporaryDirectory();
    for (const extra of [[], ['--format', 'anthropic'], ['--format', 'ctx', '--force']]) {
      const result = await compress(demoTranscriptPath, '--out', join(directory, 'x.jsonl'), ...extra);
      expect(result.code, extra.join(' ')).toBe(1);
      expect(result.stderr, extra.join(' ')).toMatch(/^ctx: --out .*x\.jsonl: expected a \.json name: every --format \(ctx, anthropic, openai, gemini, ai-sdk\) writes one JSON document, not JSON lines/);
    }
    const unknown = await compress(demoTranscriptPath, '--out', join(directory, 'x.txt'));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^ctx: --out .*x\.txt: cannot tell the format from the name; .*--format/);
    expect(await readdir(directory)).toEqual([]);
    // With an explicit --format, any name other than .jsonl is the user's choice.
    expect((await compress(demoTranscriptPath, '--out', join(directory, 'x.txt'), '--format', 'gemini')).code).toBe(0);
    expect((await readTranscriptFile(join(directory, 'x.txt')))[0]?.format).toBe('gemini-content');
  });
});

describe('ctx compress on input with malformed lines', () => {
  const compress = (input: string, ...rest: string[]) => ctx('compress', input, '--strategy', 'top-down-truncation', ...rest);

  it('should list each malformed line with its number after the report and still exit 0', async () => {
    const { path } = await writeBrokenClaudeCodeSession(await temporaryDirectory());
    const { code, stdout } = await compress(path);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Valid request: .*\n\n⚠ .*session\.jsonl: 2 malformed lines skipped\n {2}line 3: .*\n {2}line 4: /);
  });

  it('should put every warning with its line number in --json and keep stdout JSON alone', async () => {
    const { path, brokenLines } = await writeBrokenClaudeCodeSession(await temporaryDirectory());
    const { code, stdout, stderr } = await compress(path, '--json');
    expect(code).toBe(0);
    const { warnings } = JSON.parse(stdout) as { warnings: { type: string; line: number | null; message: string }[] };
    expect(warnings.filter((warning) => warning.type === 'malformed').map((warning) => warning.line)).toEqual(brokenLines);
    expect(stderr).toMatch(/^ctx: .*session\.jsonl: 2 malformed lines skipped \(lines 3, 4\)/);
  });

  it('should refuse malformed lines with --strict: exit 1, one line, nothing printed or written', async () => {
    const directory = await temporaryDirectory();
    const { path } = await writeBrokenClaudeCodeSession(directory);
    const out = join(directory, 'out.json');
    const { code, stdout, stderr } = await compress(path, '--strict', '--out', out);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`ctx: ${path}: expected no malformed lines with --strict, found 2 malformed lines (first at line 3); repair the file or run without --strict`);
    expect(await readdir(directory)).toEqual(['session.jsonl']);
  });

  it('should print every count of a large transcript with thousands separators', async () => {
    const history = Array.from({ length: 1200 }, (_, index) => ({
      speaker: index % 2 === 0 ? 'human' : 'ai',
      blocks: [{ type: 'text', text: `message ${index} ${'word '.repeat(20)}` }],
    }));
    const path = join(await temporaryDirectory(), 'large.json');
    await writeFile(path, JSON.stringify({ format: 'ctx.conversation.v1', history }));
    const { stdout } = await compress(path);
    expect(stdout).toMatch(/^Transcript: .*large\.json \(ctx, whole session\) · 1,200 entries · \d{1,3},\d{3} request tokens = \d{1,3},\d{3} history \+ 0 system and tools$/m);
    expect(stdout).toMatch(/^Result: \d{1,3},\d{3} → [\d,]+ request tokens \(\d+% removed; history \d{1,3},\d{3} → [\d,]+, system and tools 0\), 1,200 → [\d,]+ entries$/m);
    expect(stdout).toMatch(/Retention: user texts \d+% \([\d,]+\/600\)/);
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
        const result = await ctx('compress', target, '--strategy', 'top-down-truncation', '--out', out, '--format', 'anthropic', '--force', '--json');
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
