import type { ToolCallBlock } from '@ctx/core';
import type { ToolCallSemantics } from './tool-call-semantics.js';
import {
  createToolSemanticsRegistry,
  type ToolClassificationOptions,
  type ToolSemanticsRegistry,
} from './tool-semantics-registry.js';

/** Options of {@link classifyToolCall}. */
export interface ClassifyToolCallOptions extends ToolClassificationOptions {
  /**
   * Where tool knowledge comes from.
   * @default a private registry holding only the built-ins (see {@link createToolSemanticsRegistry})
   */
  readonly registry?: ToolSemanticsRegistry;
}

let builtInRegistry: ToolSemanticsRegistry | undefined;

/**
 * What a tool call means: its kind, the files it reads and writes (normalized absolute paths, with line ranges
 * where the parameters give them), the globs it touches, and the shell command it runs.
 *
 * Knows Claude Code, gemini-cli / llxprt, SWE-agent (function calls and text actions), OpenHands, mini-swe-agent
 * and Codex tools, and understands shell commands (`cat`, `sed -n 'a,bp'`, `cd dir && …`, here-documents,
 * redirections). Never throws for unrecognizable parameters (null, a string, no path key: spec 000 EC-016,
 * EC-050..052): the call gets its tool's kind, or `other`, with no files. Unknown tools are `other`.
 *
 * @param call - The `tool_call` block.
 * @param options - `workspaceRoot` (relative paths resolve against it), optional `registry` with your own tools,
 *   optional `openFile` (SWE-agent editor state; {@link classifyHistoryToolCalls} tracks it for you).
 * @returns The call's semantics.
 * @throws Whatever a classifier you registered throws; built-in classifiers never throw.
 * @example
 * ```ts
 * classifyToolCall(
 *   { type: 'tool_call', id: 't1', name: 'Read', parameters: { file_path: 'src/a.ts', offset: 10, limit: 5 } },
 *   { workspaceRoot: '/repo' },
 * );
 * // { kind: 'read', reads: [{ path: '/repo/src/a.ts', lineRange: { start: 10, end: 14 }, partial: true }], writes: [], globs: [] }
 * ```
 */
export function classifyToolCall(call: ToolCallBlock, options: ClassifyToolCallOptions): ToolCallSemantics {
  const registry = options.registry ?? (builtInRegistry ??= createToolSemanticsRegistry());
  return registry.classify(call, options);
}
