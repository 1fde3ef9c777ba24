/**
 * One problem found while validating input: where it is and what is wrong.
 */
export interface ValidationIssue {
  /** Location of the problem, e.g. `history[3].blocks[0].callId`; empty for the input itself. */
  readonly path: string;
  /** What was expected and what was found. */
  readonly message: string;
}

/** Renders issues as the `path: problem` lines used in error messages. */
export function formatValidationIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `  ${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`).join('\n');
}

/** Turns a zod / Standard Schema path into `a.b[2].c` notation, prefixed by `root` when given. */
export function formatIssuePath(path: readonly (PropertyKey | { readonly key: PropertyKey })[], root = ''): string {
  let result = root;
  for (const segment of path) {
    const key = typeof segment === 'object' ? segment.key : segment;
    if (typeof key === 'number') result += `[${key}]`;
    else result += result === '' ? String(key) : `.${String(key)}`;
  }
  return result;
}
