import type { ToolCallBlock } from '@ctx/core';
import { classifyToolCall, type ClassifyToolCallOptions } from './classify-tool-call.js';
import type { ToolCallSemantics } from './tool-call-semantics.js';

interface Remembered {
  readonly workspaceRoot: string;
  readonly openFile: string | undefined;
  readonly semantics: ToolCallSemantics;
}

// One map for the process: every strategy asking about the same block shares the answer. Weak: a block that leaves
// every history goes.
const remembered = new WeakMap<ToolCallBlock, Remembered>();

/**
 * {@link classifyToolCall}, remembered per call block: a block classified before with the same workspace root and
 * open file is answered without parsing its command again, whichever strategy asked first (classifying a shell
 * command is the larger part of what strategies do with a call). Only what cannot change is remembered: a block of
 * an entry ctx's history parser validated and froze (`isValidatedEntry` of its entry: pass `unchanging` accordingly),
 * classified by the built-in tools alone (with a `registry`, which can change, it is classified anew each time). The
 * last workspace root and open file a block was classified with are kept, one answer per block.
 *
 * @param call - The `tool_call` block.
 * @param options - As {@link classifyToolCall}'s.
 * @param unchanging - True when the block belongs to a validated (deep-frozen) entry; false classifies without
 *   remembering.
 * @returns The call's semantics, equal to `classifyToolCall(call, options)`.
 * @throws Whatever a classifier registered on `options.registry` throws.
 * @example
 * ```ts
 * const semantics = classifyRememberedToolCall(call, { workspaceRoot: '/repo' }, isValidatedEntry(entry));
 * ```
 */
export function classifyRememberedToolCall(
  call: ToolCallBlock,
  options: ClassifyToolCallOptions,
  unchanging: boolean,
): ToolCallSemantics {
  const remember = unchanging && options.registry === undefined;
  const { workspaceRoot, openFile } = options;
  if (remember) {
    const found = remembered.get(call);
    if (found !== undefined && found.workspaceRoot === workspaceRoot && found.openFile === openFile) return found.semantics;
  }
  const semantics = classifyToolCall(call, options);
  if (remember) remembered.set(call, { workspaceRoot, openFile, semantics });
  return semantics;
}
