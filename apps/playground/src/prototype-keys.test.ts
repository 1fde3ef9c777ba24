import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTranscriptPath } from './demo-transcript.js';
import { ctx } from './test-support/run-ctx.js';

const compare = (...options: string[]) => ctx('compare', demoTranscriptPath, '--runs', '1', '--strategies', 'top-down-truncation', ...options);

describe('settings never reach Object.prototype (issue 14, security)', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ctx-proto-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it.each(['__proto__', 'constructor', 'prototype'])('should refuse --set with a "%s" option path, and leave Object.prototype alone', async (key) => {
    const { code, stderr } = await compare('--set', `top-down-truncation.${key}.polluted=true`);
    expect(code).toBe(1);
    expect(stderr).toContain(`got "${key}", which would reach the object prototype`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('should refuse a --set value whose JSON holds a __proto__ key', async () => {
    const { code, stderr } = await compare('--set', 'top-down-truncation.minEntriesKept={"__proto__":{"polluted":true}}');
    expect(code).toBe(1);
    expect(stderr).toMatch(/got "__proto__", which would reach the object prototype/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('should refuse a --config file with a __proto__ key under a strategy, naming where', async () => {
    const config = join(directory, 'settings.json');
    await writeFile(config, '{"top-down-truncation": {"__proto__": {"polluted": true}, "minEntriesKept": 3}}');
    const { code, stderr } = await compare('--config', config);
    expect(code).toBe(1);
    expect(stderr).toContain(`--config ${config}: top-down-truncation.__proto__: Expected a setting name, got "__proto__"`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
