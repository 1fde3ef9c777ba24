import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceDirectory = fileURLToPath(new URL('.', import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('@ctx/format-utils main entry', () => {
  it('should import no node: module outside the test-only entry point and tests', () => {
    const offenders = sourceFiles(sourceDirectory)
      .map((path) => relative(sourceDirectory, path))
      .filter((path) => !path.endsWith('.test.ts') && path !== 'testing.ts' && !path.startsWith('testing'))
      .filter((path) => /from ['"]node:|import\(['"]node:/.test(readFileSync(join(sourceDirectory, path), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('should not reach the test-only entry point from the main entry', () => {
    const offenders = sourceFiles(sourceDirectory)
      .map((path) => relative(sourceDirectory, path))
      .filter((path) => !path.endsWith('.test.ts') && !path.startsWith('testing'))
      .filter((path) => /from ['"]\.\/testing/.test(readFileSync(join(sourceDirectory, path), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
