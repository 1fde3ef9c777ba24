/**
 * What a tool call does, in one word. Strategies decide with it which calls they may touch: a `read` result is
 * file content (it goes stale when the file is written), a `write` replaces a whole file, an `edit` changes part of
 * one, `list` and `search` show names or matching lines, `shell` runs a command whose output is anything, `todo`
 * updates the agent's task list, and `other` is everything else (web fetches, sub-agents, thinking, unknown tools).
 */
export type ToolCallKind = 'read' | 'write' | 'edit' | 'list' | 'search' | 'shell' | 'todo' | 'other';

/** Lines of a file, 1-based and inclusive. A missing `end` means "to the end of the file". */
export interface LineRange {
  readonly start: number;
  readonly end?: number;
}

/** One file a call reads or writes. */
export interface FileAccess {
  /** Normalized absolute path (see {@link normalizeToolPath}); compare paths with `===`. */
  readonly path: string;
  /** The lines read or edited, when the parameters say so. */
  readonly lineRange?: LineRange;
  /**
   * True when the call touches only part of the file: a ranged read, a windowed view, an edit, an append. False
   * for a whole-file read or a whole-file write (create, overwrite, delete).
   */
  readonly partial: boolean;
}

/**
 * The meaning of one tool call: its kind and the files it touches. Produced by {@link classifyToolCall}; the same
 * shape for every agent family, so strategies never look at tool names or parameter shapes themselves.
 */
export interface ToolCallSemantics {
  readonly kind: ToolCallKind;
  /** Files whose content the call reads (for `read`, the result is that content). */
  readonly reads: readonly FileAccess[];
  /** Files the call creates, changes or deletes. */
  readonly writes: readonly FileAccess[];
  /**
   * Normalized absolute glob patterns the call reads, lists or searches whose concrete files are unknown: glob
   * entries of `read_many_files`, a `Glob` pattern, a listed directory as `dir/*`, a searched tree as `dir/**`.
   * A non-empty list means "more files than `reads` names" (spec 000 EC-014).
   */
  readonly globs: readonly string[];
  /** The shell command, for calls that run one (including text actions such as `open file.py 120`). */
  readonly command?: string;
  /**
   * The file an editor-style tool leaves open (SWE-agent `open` / `create`); later `edit`, `insert`, `goto` and
   * `scroll_*` calls act on it. {@link classifyHistoryToolCalls} carries it from call to call.
   */
  readonly openedFile?: string;
}

/**
 * Semantics of `kind` that touch no file: the starting point of a classifier, and the answer for calls whose
 * parameters name no file (spec 000 EC-016, EC-050..052).
 *
 * @param kind - The call's kind.
 * @param command - The shell command, for calls that run one.
 * @returns `{ kind, reads: [], writes: [], globs: [] }` (plus `command` when given).
 * @example
 * ```ts
 * registry.register('deploy', () => emptySemantics('shell'));
 * ```
 */
export function emptySemantics(kind: ToolCallKind, command?: string): ToolCallSemantics {
  return command === undefined ? { kind, reads: [], writes: [], globs: [] } : { kind, reads: [], writes: [], globs: [], command };
}
