interface SplitPath {
  /** `/`, `//` (UNC), `C:` (Windows drive), `~` or `~user` (home); undefined for a relative path. */
  readonly root: string | undefined;
  readonly rest: string;
  readonly windows: boolean;
}

const drivePattern = /^[A-Za-z]:(?:[\\/]|$)/;
const homePattern = /^~[^/\\]*(?:[/\\]|$)/;

function splitRoot(path: string): SplitPath {
  if (drivePattern.test(path)) {
    return { root: path.slice(0, 2), rest: path.slice(2).replaceAll('\\', '/'), windows: true };
  }
  if (path.startsWith('\\\\')) return { root: '//', rest: path.slice(2).replaceAll('\\', '/'), windows: true };
  if (path.startsWith('/')) return { root: '/', rest: path, windows: false };
  const home = homePattern.exec(path);
  if (home !== null) {
    const root = home[0].replace(/[/\\]$/, '');
    return { root, rest: path.slice(root.length), windows: false };
  }
  return { root: undefined, rest: path, windows: false };
}

function joinRoot(root: string, segments: readonly string[]): string {
  const tail = segments.join('/');
  if (root === '/' || root === '//') return `${root}${tail}`;
  if (root.endsWith(':')) return `${root}/${tail}`;
  return tail === '' ? root : `${root}/${tail}`;
}

function pushSegments(stack: string[], rest: string): void {
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    // `..` above the root stays at the root, as `path.resolve` does.
    if (segment === '..') stack.pop();
    else stack.push(segment);
  }
}

const slash = 47;
const colon = 58;
const tilde = 126;
/** A `//`, a `.` or `..` segment, or a trailing `/`: what normalizing would change in a POSIX path. */
const changedByNormalizing = /\/\/|(?:^|\/)\.{1,2}(?:\/|$)|\/$/;

/**
 * Whether normalizing leaves `path` as it is (when absolute) or appends it to the root unchanged (when relative): a
 * non-empty POSIX path with no `.`/`..` segment, no repeated or trailing `/`, no backslash, not a home or drive path.
 */
function isPlainPosixPath(path: string): boolean {
  if (path === '' || path.charCodeAt(0) === tilde || path.charCodeAt(1) === colon) return false;
  return !path.includes('\\') && !changedByNormalizing.test(path);
}

let lastNormalizedRoot: string | undefined;

/** Whether `root` is an absolute POSIX path other than `/` that normalizing leaves as it is (the last one memoized). */
function isNormalizedRoot(root: string): boolean {
  if (root === lastNormalizedRoot) return true;
  if (root.charCodeAt(0) !== slash || !isPlainPosixPath(root)) return false;
  lastNormalizedRoot = root;
  return true;
}

/**
 * Turns a path found in tool parameters into the normalized absolute form every strategy compares with `===`.
 *
 * - Relative paths are resolved against `workspaceRoot` (spec 000 BR-PRUNE-006); `.` and `..` are resolved,
 *   duplicate and trailing slashes removed, like Node's `path.resolve` but without touching the file system, so it
 *   runs in browsers.
 * - No case folding (BR-PRUNE-005): `Readme.md` and `README.md` stay different files.
 * - Windows drive paths (`C:\src\a.ts`, `c:/src/a.ts`) and UNC paths (`\\server\share`) are absolute: backslashes
 *   become `/`, the drive letter keeps its case (`C:/src/a.ts`). A relative path under a Windows `workspaceRoot`
 *   may use either separator.
 * - Home paths (`~`, `~/x`, `~user/x`) are kept as written (normalized below `~`): the home directory is unknown
 *   here, and resolving them against the workspace would invent a path.
 * - An empty path resolves to `workspaceRoot` (spec 000 EC-052). A relative `workspaceRoot` is treated as relative
 *   to `/`.
 *
 * Linear in the length of the inputs.
 *
 * @param path - The path as the tool call wrote it.
 * @param workspaceRoot - The directory relative paths are relative to (the session's working directory).
 * @returns The normalized absolute path.
 * @example
 * ```ts
 * normalizeToolPath('src/../lib//a.ts', '/repo'); // '/repo/lib/a.ts'
 * normalizeToolPath('C:\\repo\\a.ts', '/repo');   // 'C:/repo/a.ts'
 * ```
 */
export function normalizeToolPath(path: string, workspaceRoot: string): string {
  // Most paths are already normalized: an absolute POSIX path, or a plain relative one under a normalized root.
  if (path === '') {
    if (workspaceRoot === '/' || isNormalizedRoot(workspaceRoot)) return workspaceRoot;
  } else if (isPlainPosixPath(path)) {
    if (path.charCodeAt(0) === slash) return path;
    // `/`, the root of a session that recorded no working directory (SWE-agent and mini-swe-agent trajectories).
    if (workspaceRoot === '/') return `/${path}`;
    if (isNormalizedRoot(workspaceRoot)) return `${workspaceRoot}/${path}`;
  }
  return normalizeBySegments(path, workspaceRoot);
}

/**
 * {@link normalizeToolPath} segment by segment, for every path (the exported function answers common paths without
 * splitting them; tests check that both agree).
 *
 * @internal
 */
export function normalizeBySegments(path: string, workspaceRoot: string): string {
  const target = splitRoot(path);
  const stack: string[] = [];
  if (target.root !== undefined) {
    pushSegments(stack, target.rest);
    return joinRoot(target.root, stack);
  }
  const base = splitRoot(workspaceRoot);
  pushSegments(stack, base.rest);
  pushSegments(stack, base.windows ? target.rest.replaceAll('\\', '/') : target.rest);
  return joinRoot(base.root ?? '/', stack);
}

/**
 * True for paths {@link normalizeToolPath} treats as absolute: POSIX `/…`, Windows drive `C:\…`, UNC `\\…`, and
 * home `~/…`.
 *
 * @param path - A path as written in a tool call.
 * @returns Whether `path` does not depend on the working directory.
 * @example
 * ```ts
 * isAbsoluteToolPath('/repo/a.ts'); // true
 * isAbsoluteToolPath('a.ts');       // false
 * ```
 */
export function isAbsoluteToolPath(path: string): boolean {
  return splitRoot(path).root !== undefined;
}
