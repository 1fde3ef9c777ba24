// The LLM strategies through the CLI, against a real HTTP server on 127.0.0.1: an OpenAI-compatible fake that records
// each request and answers with scripted summaries and errors (issue 15's "done when").
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startFakeOpenAICompatibleServer, type FakeOpenAICompatibleServer } from '@ctx/summarizer-ai-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { findCorpusDirectory } from './corpus.js';
import { demoTranscriptPath } from './demo-transcript.js';

const corpus = findCorpusDirectory();
// A real Claude Code session when the corpus is here (it has a compaction and 400+ messages), else the demo.
const session = corpus === undefined ? demoTranscriptPath : join(corpus, 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl');

let server: FakeOpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function ctx(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(argv, { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text) });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

interface CompressJson {
  readonly tokensAfter: number;
  readonly valid: boolean;
  readonly newProblems: { readonly anthropic: readonly unknown[]; readonly openai: readonly unknown[] };
  readonly reports: readonly { readonly passes: readonly { readonly compressionMetadata?: { readonly counts?: Record<string, number> }; readonly warnings: readonly { type: string; message: string }[] }[]; readonly decision?: { readonly allowedTokens: number } }[];
}

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('ctx with a summarizer (--summarizer-url, --summarizer-model)', () => {
  it('should compress a session with one-shot into a provider-valid history that fits, reporting the summarizer usage', async () => {
    server = await startFakeOpenAICompatibleServer(() => ({
      summary: 'The user asked to build the spotter dashboard; the API routes exist; next: the failing websocket test.',
      usage: { inputTokens: 41_000, outputTokens: 90, cacheReadTokens: 12_000 },
    }));
    const result = await ctx('compress', session, '--strategy', 'one-shot', '--summarizer-url', server.url, '--summarizer-model', 'qwen3', '--json');

    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as CompressJson;
    expect(report.newProblems).toEqual({ anthropic: [], openai: [] });
    const [turn] = report.reports;
    expect(report.tokensAfter).toBeLessThanOrEqual(turn?.decision?.allowedTokens ?? 0);
    expect(turn?.passes[0]?.compressionMetadata?.counts).toMatchObject({ summarizerInputTokens: 41_000, summarizerOutputTokens: 90, summarizerCacheReadTokens: 12_000 });
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]?.body as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe('qwen3');
    expect(body.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('<task_context>') as string });
  });

  it('should still fit when the summarizer is down, and say it used the mechanical summary', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const result = await ctx('compress', session, '--strategy', 'one-shot', '--summarizer-url', url, '--summarizer-model', 'qwen3');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/warning \(fallback\): used a mechanical summary .*failed \(connection-failed\)/);
    expect(result.stdout).toContain('Valid request: Anthropic yes, OpenAI yes');
  }, 30_000);

  it('should send the key from CTX_SUMMARIZER_API_KEY and never print it', async () => {
    server = await startFakeOpenAICompatibleServer([{ status: 401, body: { error: { message: 'invalid key sk-live-secret-42' } } }]);
    const previous = process.env.CTX_SUMMARIZER_API_KEY;
    process.env.CTX_SUMMARIZER_API_KEY = 'sk-live-secret-42';
    try {
      const result = await ctx('compress', session, '--strategy', 'one-shot', '--summarizer-url', server.url, '--summarizer-model', 'm', '--json');
      expect(server.requests[0]?.headers.authorization).toBe('[redacted]');
      expect(`${result.stdout}\n${result.stderr}`).not.toContain('sk-live-secret-42');
      expect(result.stdout).toContain('request-rejected');
    } finally {
      if (previous === undefined) delete process.env.CTX_SUMMARIZER_API_KEY;
      else process.env.CTX_SUMMARIZER_API_KEY = previous;
    }
  });

  it('should summarize with --summarizer anthropic:<model> through the Anthropic Messages API (ANTHROPIC_BASE_URL on loopback)', async () => {
    const received: { path: string; key: string | undefined; body: { model: string; system?: unknown; max_tokens: number } }[] = [];
    const anthropic: Server = createHttpServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ path: request.url ?? '', key: request.headers['x-api-key'] as string | undefined, body: JSON.parse(text) as never });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'msg_fake',
            type: 'message',
            role: 'assistant',
            model: 'claude-haiku-4-5',
            content: [{ type: 'text', text: 'The user builds a date parser; the tests pass; time zones are next.' }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 9_000, output_tokens: 40, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 500 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => anthropic.listen(0, '127.0.0.1', resolve));
    const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-7';
    process.env.ANTHROPIC_BASE_URL = `http://127.0.0.1:${(anthropic.address() as { port: number }).port}/v1`;
    try {
      const result = await ctx('compress', demoTranscriptPath, '--strategy', 'one-shot', '--summarizer', 'anthropic:claude-haiku-4-5', '--json');
      expect(result.code, result.stderr).toBe(0);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ path: '/v1/messages', key: 'sk-ant-test-7', body: { model: 'claude-haiku-4-5' } });
      const report = JSON.parse(result.stdout) as CompressJson;
      expect(report.reports[0]?.passes[0]?.compressionMetadata?.counts).toMatchObject({
        summarizerInputTokens: expect.any(Number) as number,
        summarizerOutputTokens: 40,
        summarizerCacheReadTokens: 2_000,
        summarizerCacheWriteTokens: 500,
      });
      expect(result.stdout).not.toContain('sk-ant-test-7');
    } finally {
      for (const [name, value] of [['ANTHROPIC_API_KEY', saved.key], ['ANTHROPIC_BASE_URL', saved.url]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await new Promise<void>((resolve) => anthropic.close(() => resolve()));
    }
  });

  it('should run each LLM strategy of compare once, each with one summary request', async () => {
    server = await startFakeOpenAICompatibleServer(() => ({ summary: 'A short summary of the work so far.' }));
    const result = await ctx('compare', demoTranscriptPath, '--strategies', 'one-shot,middle-out,native', '--runs', '3', '--summarizer-url', server.url, '--summarizer-model', 'm', '--json');
    expect(result.code, result.stderr).toBe(0);
    const rows = (JSON.parse(result.stdout) as { results: { strategy: string; outcome: string }[] }).results;
    expect(rows.map((row) => [row.strategy, row.outcome])).toEqual([
      ['one-shot', 'applied'],
      ['middle-out', 'applied'],
      ['native', 'applied'],
    ]);
    expect(server.requests).toHaveLength(3);
  });

  it('should list the LLM strategies as skipped with the reason in compare without a summarizer, and exit 0', async () => {
    const result = await ctx('compare', demoTranscriptPath, '--strategies', 'one-shot,top-down-truncation', '--json');
    expect(result.code).toBe(0);
    const rows = (JSON.parse(result.stdout) as { results: { strategy: string; outcome: string; reason?: string }[] }).results;
    expect(rows.find((row) => row.strategy === 'one-shot')).toMatchObject({ outcome: 'no-op', reason: 'missing-summarizer' });
  });

  it('should refuse compress with an LLM strategy and no summarizer, naming the flags (usage error, exit 2)', async () => {
    const result = await ctx('compress', demoTranscriptPath, '--strategy', 'middle-out');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'ctx: middle-out summarizes with a model and no summarizer was given: add --summarizer-url <OpenAI-compatible base URL> --summarizer-model <id> (key in CTX_SUMMARIZER_API_KEY), or --summarizer anthropic:<model> (key in ANTHROPIC_API_KEY)',
    );
  });

  it.each([
    [['--summarizer-url', 'http://127.0.0.1:1/v1'], 'ctx: --summarizer-url needs --summarizer-model <id>'],
    [['--summarizer-model', 'm'], 'ctx: --summarizer-model needs --summarizer-url <OpenAI-compatible base URL>'],
    [['--summarizer-url', 'ftp://host/v1', '--summarizer-model', 'm'], 'ctx: --summarizer-url expects an http:// or https:// base URL, got ftp: (ftp://host/v1)'],
    [['--summarizer', 'openai:gpt-5'], 'ctx: --summarizer expects anthropic:<model>, e.g. anthropic:claude-haiku-4-5, got openai:gpt-5'],
    [['--summarizer-window', '10', '--summarizer-url', 'http://127.0.0.1:1/v1', '--summarizer-model', 'm'], 'ctx: --summarizer-window expects a whole number of tokens from 1,000 to 100,000,000, got 10'],
  ])('should refuse %j as a usage error', async (flags, message) => {
    const result = await ctx('compress', demoTranscriptPath, '--strategy', 'one-shot', ...flags);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(message);
  });
});
