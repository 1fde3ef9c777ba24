import { isAbsoluteToolPath, normalizeToolPath } from './normalize-tool-path.js';

const extensionlessFileNames = new Set([
  'Makefile',
  'makefile',
  'GNUmakefile',
  'Dockerfile',
  'Containerfile',
  'Gemfile',
  'Rakefile',
  'Procfile',
  'Jenkinsfile',
  'Vagrantfile',
  'Brewfile',
  'Pipfile',
  'LICENSE',
  'LICENCE',
  'COPYING',
  'NOTICE',
  'AUTHORS',
  'CHANGELOG',
  'README',
  'VERSION',
  'CODEOWNERS',
  'BUILD',
  'WORKSPACE',
]);

const hiddenDirectoryNames = new Set([
  '.git',
  '.github',
  '.gitlab',
  '.circleci',
  '.claude',
  '.vscode',
  '.idea',
  '.cache',
  '.config',
  '.local',
  '.venv',
  '.husky',
  '.changeset',
  '.devcontainer',
  '.next',
  '.turbo',
  '.yarn',
  '.ssh',
  '.npm',
  '.cargo',
]);

/**
 * Whether a path names a file rather than a directory, judged from its last segment alone (there is no file
 * system to ask): a name with an extension (`a.ts`, `.eslintrc.json`, `.gitignore`) or a well-known extensionless
 * file (`Makefile`, `LICENSE`). Used where a tool accepts either (Claude Code `Grep` path, `str_replace_editor
 * view`); a wrong guess only changes whether the path is reported as a read or as a `dir/**` glob.
 */
export function looksLikeFile(path: string): boolean {
  if (path.endsWith('/')) return false;
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === '' || name === '.' || name === '..' || name === '~') return false;
  if (extensionlessFileNames.has(name)) return true;
  if (hiddenDirectoryNames.has(name)) return false;
  const dot = name.lastIndexOf('.');
  if (dot === 0) return name.length > 1;
  // An extension has a letter: `a.ts`, `a.tar.gz`; `ponyc-0.1` and `v1.2` are more likely directories.
  return dot > 0 && /[A-Za-z]/.test(name.slice(dot + 1));
}

/** `pattern` resolved against the directory `base` (already normalized); absolute patterns stand alone. */
export function joinGlob(base: string, pattern: string): string {
  return isAbsoluteToolPath(pattern) ? normalizeToolPath(pattern, '/') : normalizeToolPath(pattern, base);
}

/** True when a path segment holds glob syntax (`*`, `?`, `[…]`, `{a,b}`). */
export function hasGlobSyntax(path: string): boolean {
  return /[*?[]|\{[^}]*,[^}]*\}/.test(path);
}
