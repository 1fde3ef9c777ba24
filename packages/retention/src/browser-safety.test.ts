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

describe('@ctx/retention', () => {
  it('should import no node: module and no test support outside tests', () => {
    const shipped = sourceFiles(sourceDirectory)
      .map((path) => relative(sourceDirectory, path))
      .filter((path) => !path.endsWith('.test.ts') && !path.startsWith('test-support'));
    expect(shipped).toContain('index.ts');
    const offenders = shipped.filter((path) =>
      /from ['"](node:|\.\/test-support)|import\(['"]node:/.test(readFileSync(join(sourceDirectory, path), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
