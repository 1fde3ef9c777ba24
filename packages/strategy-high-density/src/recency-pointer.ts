import type { JsonValue } from '@ctx/core';
import type { HarnessStatus } from './harness-status-lines.js';

/**
 * What an old tool result becomes under recency pruning, verbatim from spec 000 BR-RECENCY-002: the call and the
 * response stay (BR-RECENCY-003), only the payload goes.
 */
export const recencyPointer = '[Result pruned — re-run tool to retrieve]';

/**
 * The pointer for a result: spec 000's pointer, followed by the result's harness status lines when it has any (they
 * tell the model, and the tool semantics, which file is open and where the shell is).
 *
 * @param status - The status lines of the result being replaced.
 * @returns The new result.
 */
export function recencyPointerFor(status: HarnessStatus): string {
  return status.lines === '' ? recencyPointer : `${recencyPointer}\n${status.lines}`;
}

/** True when a result is a recency pointer (with or without status lines). */
export function isRecencyPointer(result: JsonValue): boolean {
  return typeof result === 'string' && result.startsWith(recencyPointer);
}
