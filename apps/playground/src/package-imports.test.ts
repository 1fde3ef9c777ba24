import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packagesDirectory = fileURLToPath(new URL('../../../packages/', import.meta.url));

/** The built entry point of every package in `packages/`. */
const entryPoints = readdirSync(packagesDirectory)
  .map((name) => join(packagesDirectory, name))
  .filter((directory) => existsSync(join(directory, 'package.json')))
  .map((directory) => ({
    name: (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name: string }).name,
    entry: join(directory, 'dist', 'index.js'),
  }))
  .filter(({ entry }) => existsSync(entry));

describe('importing a package', () => {
  // The first `Intl.NumberFormat` of a process loads locale data (about 14 ms on Node 20): a formatter created when a
  // module loads makes every import of the package pay it, even when nothing is ever formatted.
  it('should create no number formatter until a count is written', () => {
    const script = `
      let created = 0;
      const NumberFormat = Intl.NumberFormat;
      Intl.NumberFormat = new Proxy(NumberFormat, { construct(target, args) { created++; return new target(...args); } });
      const createdBy = {};
      for (const { name, entry } of ${JSON.stringify(entryPoints)}) {
        const before = created;
        await import(entry);
        if (created > before) createdBy[name] = created - before;
      }
      const core = await import(${JSON.stringify(join(packagesDirectory, 'core', 'dist', 'index.js'))});
      // Whole numbers are grouped without a formatter; a fraction needs one.
      const written = core.formatCount(1234567);
      const createdForWhole = created;
      const writtenFraction = core.formatCount(1234.5);
      console.log(JSON.stringify({ createdBy, written, createdForWhole, writtenFraction, createdToWrite: created }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as {
      createdBy: Record<string, number>;
      written: string;
      createdForWhole: number;
      writtenFraction: string;
      createdToWrite: number;
    };
    expect(entryPoints.length).toBeGreaterThan(20);
    expect(result.createdBy).toEqual({});
    expect(result.written).toBe('1,234,567');
    expect(result.createdForWhole).toBe(0);
    // The spy sees formatters: the first fraction written creates one.
    expect(result.writtenFraction).toBe('1,234.5');
    expect(result.createdToWrite).toBe(1);
  });
});
