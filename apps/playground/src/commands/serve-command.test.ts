import { describe, expect, it } from 'vitest';
import { ctx } from '../test-support/run-ctx.js';
import { parseServePort, runServeCommand } from './serve-command.js';

describe('runServeCommand', () => {
  it('should print the address on 127.0.0.1, serve the page and the API there, and stop when asked', async () => {
    const stdout: string[] = [];
    let seen: { page: number; info: number; strategies: number } | undefined;
    const code = await runServeCommand({ plugin: [], open: false }, { stdout: (text) => stdout.push(text), stderr: () => undefined }, async (server) => {
      const page = await fetch(server.url);
      const info = await fetch(new URL('api/info', server.url));
      seen = { page: page.status, info: info.status, strategies: ((await info.json()) as { strategies: unknown[] }).strategies.length };
    });
    expect(code).toBe(0);
    expect(stdout.join('\n')).toMatch(/^ctx serve: the playground is at http:\/\/127\.0\.0\.1:\d+\/ \(Ctrl\+C stops it\)$/);
    expect(seen).toEqual({ page: 200, info: 200, strategies: expect.any(Number) as number });
    expect(seen?.strategies).toBeGreaterThan(5);
  });
});

describe('parseServePort', () => {
  it('should accept 0 (any free port) to 65535', () => {
    expect(parseServePort(undefined)).toBe(0);
    expect(parseServePort('8080')).toBe(8080);
  });

  it('should refuse anything else as a usage error (exit 2) naming the option', async () => {
    expect(() => parseServePort('70000')).toThrow('--port expects a whole number from 0 (any free port) to 65535, got "70000"');
    expect(await ctx('serve', '--port', 'abc', '--no-open')).toMatchObject({ code: 2, stderr: 'ctx: --port expects a whole number from 0 (any free port) to 65535, got "abc"' });
  });
});
