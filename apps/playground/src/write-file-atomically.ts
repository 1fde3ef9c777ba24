import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that a reader, or the user after a crash, sees either the old file or the complete new one:
 * the contents go to a temporary file beside the target (`.<name>.<pid>.<random>.tmp`, same directory so the
 * rename stays on one file system), which is flushed and then renamed over the target. A replaced file keeps its
 * permission bits (a private `0600` transcript stays private); a new file gets the default mode. On any failure — producing
 * the contents, writing, renaming — the temporary file is removed and the error is rethrown unchanged.
 *
 * @param target - The file to create or replace.
 * @param chunks - The contents, in order; an iterable so that an encoder failing midway leaves nothing behind.
 * @returns Resolves once the target holds the new contents.
 * @example
 * await writeFileAtomically('out.json', [`${JSON.stringify(value, null, 2)}\n`]);
 */
export async function writeFileAtomically(target: string, chunks: Iterable<string> | AsyncIterable<string>): Promise<void> {
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const existingMode = await stat(target).then(
    (info) => (info.isFile() ? info.mode & 0o7777 : undefined),
    () => undefined,
  );
  const handle = await open(temporary, 'wx', existingMode ?? 0o666);
  try {
    try {
      if (existingMode !== undefined) await handle.chmod(existingMode);
      for await (const chunk of chunks) await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
