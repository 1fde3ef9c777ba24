import { emptySemantics, type ToolCallKind } from '../tool-call-semantics.js';
import { asParameterObject, readString } from '../tool-parameters.js';
import type { ToolCallClassifier } from '../tool-semantics-registry.js';

/** A tool that always has `kind` and touches no file (web search, sub-agents, background shell output). */
export function fixedKind(kind: ToolCallKind): ToolCallClassifier {
  return () => emptySemantics(kind);
}

/**
 * A tool that writes (whole file) or edits (part of it) the file named by the first of `keys` present; without
 * such a key the call keeps its kind and names no file (spec 000 EC-016).
 */
export function writesFile(kind: 'write' | 'edit', ...keys: readonly string[]): ToolCallClassifier {
  return (call, context) => {
    const path = readString(asParameterObject(call.parameters), ...keys);
    if (path === undefined) return emptySemantics(kind);
    return { ...emptySemantics(kind), writes: [{ path: context.resolvePath(path), partial: kind === 'edit' }] };
  };
}
