import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAbsoluteToolPath, normalizeBySegments, normalizeToolPath } from './normalize-tool-path.js';
import { propertyRuns } from '@ctx/test-properties';

describe('normalizeToolPath', () => {
  it('should resolve relative paths against the workspace root (BR-PRUNE-006)', () => {
    expect(normalizeToolPath('src/a.ts', '/repo')).toBe('/repo/src/a.ts');
    expect(normalizeToolPath('./src/a.ts', '/repo/')).toBe('/repo/src/a.ts');
  });

  it('should keep absolute paths independent of the workspace root', () => {
    expect(normalizeToolPath('/etc/hosts', '/repo')).toBe('/etc/hosts');
  });

  it('should not fold case (BR-PRUNE-005)', () => {
    expect(normalizeToolPath('README.md', '/Repo')).toBe('/Repo/README.md');
    expect(normalizeToolPath('Readme.md', '/Repo')).not.toBe(normalizeToolPath('README.md', '/Repo'));
  });

  it('should resolve `.` and `..` segments', () => {
    expect(normalizeToolPath('src/../lib/./a.ts', '/repo')).toBe('/repo/lib/a.ts');
    expect(normalizeToolPath('../other/a.ts', '/repo/packages/x')).toBe('/repo/packages/other/a.ts');
  });

  it('should stay at the root when `..` climbs above it, as path.resolve does', () => {
    expect(normalizeToolPath('../../../a.ts', '/repo')).toBe('/a.ts');
    expect(normalizeToolPath('/..', '/repo')).toBe('/');
  });

  it('should collapse duplicate slashes and drop trailing slashes', () => {
    expect(normalizeToolPath('//repo///src//a.ts', '/x')).toBe('/repo/src/a.ts');
    expect(normalizeToolPath('src/', '/repo')).toBe('/repo/src');
  });

  it('should resolve an empty path to the workspace root (EC-052)', () => {
    expect(normalizeToolPath('', '/repo/')).toBe('/repo');
  });

  it('should keep Windows drive paths absolute with forward slashes and the drive letter as written', () => {
    expect(normalizeToolPath('C:\\repo\\src\\..\\a.ts', '/x')).toBe('C:/repo/a.ts');
    expect(normalizeToolPath('c:/repo/a.ts', '/x')).toBe('c:/repo/a.ts');
  });

  it('should resolve relative paths under a Windows workspace root with either separator', () => {
    expect(normalizeToolPath('src\\a.ts', 'C:\\repo')).toBe('C:/repo/src/a.ts');
    expect(normalizeToolPath('src/a.ts', 'C:\\repo')).toBe('C:/repo/src/a.ts');
  });

  it('should keep UNC paths absolute', () => {
    expect(normalizeToolPath('\\\\server\\share\\a.txt', '/x')).toBe('//server/share/a.txt');
  });

  it('should keep home paths as written, since the home directory is unknown', () => {
    expect(normalizeToolPath('~/.ssh/../.ssh/config', '/repo')).toBe('~/.ssh/config');
    expect(normalizeToolPath('~', '/repo')).toBe('~');
  });

  it('should treat a relative workspace root as relative to /', () => {
    expect(normalizeToolPath('a.ts', 'repo')).toBe('/repo/a.ts');
  });

  it('should be idempotent and always return an absolute path', () => {
    const segment = fc.constantFrom('a', 'B', '.', '..', '', 'src', 'x.ts', '~', 'C:');
    const path = fc.array(segment, { maxLength: 8 }).map((segments) => segments.join('/'));
    fc.assert(
      fc.property(path, fc.constantFrom('/repo', '/', 'C:\\work', '/a/b/'), (candidate, root) => {
        const normalized = normalizeToolPath(candidate, root);
        expect(isAbsoluteToolPath(normalized)).toBe(true);
        expect(normalizeToolPath(normalized, '/elsewhere')).toBe(normalized);
      }),
    );
  });
});

describe('normalizeToolPath on already normalized paths', () => {
  // The common case (an absolute path as written, a plain relative path under a normalized root) skips splitting:
  // it must give what resolving segment by segment gives, for every path and root.
  const piece = fc.constantFrom('a', 'src', 'x.ts', '.', '..', '...', '', '/', '//', '\\', '~', 'C:', ':', ' ', '.git');
  const text = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
  const root = fc.oneof(fc.constantFrom('/repo', '/', '/a/b/', 'C:\\work', '', 'repo', '~/w', '/r//s'), text);

  it('should give what resolving segment by segment gives, for any path and workspace root', () => {
    fc.assert(
      fc.property(text, root, (path, workspaceRoot) => {
        expect(normalizeToolPath(path, workspaceRoot)).toBe(normalizeBySegments(path, workspaceRoot));
      }),
      { numRuns: propertyRuns(2_000) },
    );
  });

  it('should return an absolute POSIX path as written, and join a plain relative one to the root', () => {
    expect(normalizeToolPath('/repo/lib/a.ts', '/x')).toBe('/repo/lib/a.ts');
    expect(normalizeToolPath('lib/a.ts', '/repo')).toBe('/repo/lib/a.ts');
    expect(normalizeToolPath('lib/a.ts', '/')).toBe('/lib/a.ts');
    expect(normalizeToolPath('lib/a.ts', '/repo/')).toBe('/repo/lib/a.ts');
    expect(normalizeToolPath('/repo/lib/', '/x')).toBe('/repo/lib');
  });
});

describe('isAbsoluteToolPath', () => {
  it('should recognize POSIX, Windows drive, UNC and home paths', () => {
    expect(['/a', 'C:\\a', 'd:/a', '\\\\srv\\s', '~/a', '~'].map(isAbsoluteToolPath)).toEqual([true, true, true, true, true, true]);
  });

  it('should reject relative paths', () => {
    expect(['a', './a', '../a', 'src/x.ts', ''].map(isAbsoluteToolPath)).toEqual([false, false, false, false, false]);
  });
});
