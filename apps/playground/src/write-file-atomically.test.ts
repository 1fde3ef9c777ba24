import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomically } from './write-file-atomically.js';

describe('writeFileAtomically', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ctx-atomic-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('should replace the target with the complete contents and leave no temporary file', async () => {
    const target = join(directory, 'out.json');
    await writeFile(target, 'old\n');
    await writeFileAtomically(target, ['{"a":', '1}\n']);
    expect(await readFile(target, 'utf8')).toBe('{"a":1}\n');
    expect(await readdir(directory)).toEqual(['out.json']);
  });

  it("should keep a replaced file's permissions: a private file stays private", async () => {
    const target = join(directory, 'session.json');
    await writeFile(target, 'old\n');
    await chmod(target, 0o600);
    await writeFileAtomically(target, ['new\n']);
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readFile(target, 'utf8')).toBe('new\n');
  });

  it('should keep the old file and remove the temporary one when producing the contents fails midway', async () => {
    const target = join(directory, 'out.json');
    await writeFile(target, 'old\n');
    function* halfThenFail() {
      yield '{"half": ';
      throw new Error('encoder crashed');
    }
    await expect(writeFileAtomically(target, halfThenFail())).rejects.toThrow('encoder crashed');
    expect(await readFile(target, 'utf8')).toBe('old\n');
    expect(await readdir(directory)).toEqual(['out.json']);
  });

  it('should leave nothing behind when the target cannot be replaced', async () => {
    // A directory in the way makes the final rename fail, even for root.
    const target = join(directory, 'taken');
    await mkdir(join(target, 'inside'), { recursive: true });
    await expect(writeFileAtomically(target, ['new\n'])).rejects.toMatchObject({ code: expect.stringMatching(/^E/) as unknown });
    expect(await readdir(directory)).toEqual(['taken']);
    expect(await readdir(target)).toEqual(['inside']);
  });

  it('should fail with ENOENT for a directory that does not exist', async () => {
    await expect(writeFileAtomically(join(directory, 'missing', 'out.json'), ['x'])).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(directory)).toEqual([]);
  });
});
