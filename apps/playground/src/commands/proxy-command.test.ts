import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { runProxyCommand } from './proxy-command.js';

describe('runProxyCommand', () => {
  it('should print where it listens, compress-forward requests, and log one line per request', async () => {
    const bodies: string[] = [];
    const upstream = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        bodies.push(body);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id":"msg_1","type":"message","content":[]}');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    const stdout: string[] = [];
    const stderr: string[] = [];
    const exitCode = await runProxyCommand(
      { upstream: `http://127.0.0.1:${port}`, port: '0', preset: 'speed' },
      { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text) },
      async (proxy) => {
        const response = await fetch(`${proxy.url}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': 'sk-never-logged' },
          body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(response.status).toBe(200);
      },
    );
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    expect(exitCode).toBe(0);
    expect(stdout[0]).toMatch(/^ctx proxy: listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout.join('\n')).toContain('ANTHROPIC_BASE_URL=http://127.0.0.1:');
    expect(bodies).toHaveLength(1);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/POST \/v1\/messages 200 claude-sonnet-4-5 .* tokens .* speed: under threshold/);
    expect(stderr.join('\n')).not.toContain('sk-never-logged');
  });
});

describe('ctx proxy', () => {
  it('should refuse a preset that needs a model with a usage error (exit code 2)', async () => {
    const stderr: string[] = [];
    const exitCode = await runCli(['proxy', '--upstream', 'http://127.0.0.1:9', '--preset', 'quality', '--port', '0'], {
      stdout: () => undefined,
      stderr: (text) => stderr.push(text),
    });
    expect(exitCode).toBe(2);
    expect(stderr.join('\n')).toMatch(/--preset: .*needs a summarizer/);
  });
});
