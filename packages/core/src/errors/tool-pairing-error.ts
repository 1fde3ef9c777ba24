import type { AddedToolPairingProblem } from '../history/tool-call-ledger.js';
import { CtxError } from './ctx-error.js';

const name = 'ToolPairingError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/** Most problems a message lists; the rest is counted, so a huge bad import still gives a short message. */
const maxListed = 20;

function describeProblem(problem: AddedToolPairingProblem, firstIndex: number): string {
  const where = `entry ${problem.entryIndex} (added entry ${problem.entryIndex - firstIndex}), block ${problem.blockIndex}`;
  const what = `${JSON.stringify(problem.callId)} (${problem.toolName})`;
  switch (problem.kind) {
    case 'duplicate-call-id':
      return `${where}: tool_call id ${what} is already used by the tool call in entry ${problem.earlierEntryIndex ?? '?'}`;
    case 'orphan-response':
      return `${where}: tool_response for call ${what} answers no tool call in the history`;
    case 'duplicate-response':
      return `${where}: tool_response for call ${what} answers a call already answered in entry ${problem.earlierEntryIndex ?? '?'}`;
  }
}

function describeFix(problems: readonly AddedToolPairingProblem[]): string {
  const fixes: string[] = [];
  if (problems.some((problem) => problem.kind === 'duplicate-call-id')) {
    fixes.push(
      'give every tool call its own id (providers that number calls per turn reuse them: the ctx codecs rename such ids, and createUniqueCallIds in @ctx/format-utils does it for a decoder of your own)',
    );
  }
  if (problems.some((problem) => problem.kind !== 'duplicate-call-id')) {
    fixes.push(
      'add each tool_response once, after the entry with its call; an importer that keeps responses recorded without their call passes { allowOrphanResponses: true } to add / addAll',
    );
  }
  return fixes.join('; ');
}

/**
 * Thrown by `HistoryService.add` / `addAll` when added entries would break tool call / response pairing: a tool
 * call id that is already used, a `tool_response` whose call is not in the history, or a second response for a
 * call (issue 14). Nothing is added, and no listener is called.
 *
 * Responses without their call (or answering a call a second time) are refused unless the caller passes
 * `{ allowOrphanResponses: true }`, meant for importers that keep a transcript exactly as recorded. Duplicate tool
 * call ids are always refused: a call id is the key that ties a response to its call.
 */
export class ToolPairingError extends CtxError {
  private readonly [symbol] = true;

  /** Every problem found, in history order. */
  readonly problems: readonly AddedToolPairingProblem[];

  /**
   * @param options - `problems`: what was found; `firstIndex`: the index the first added entry would have had
   *   (used to name entries in the message); `message` replaces the generated message.
   */
  constructor({
    problems,
    firstIndex = 0,
    message,
  }: {
    problems: readonly AddedToolPairingProblem[];
    firstIndex?: number;
    message?: string;
  }) {
    const lines = problems.slice(0, maxListed).map((problem) => `  ${describeProblem(problem, firstIndex)}`);
    if (problems.length > maxListed) lines.push(`  … and ${problems.length - maxListed} more`);
    super({
      name,
      message:
        message ??
        `Refused to add entries that break tool call / response pairing: expected every tool_call id to be unused in the history and every tool_response to answer a tool call added before it that has no response yet, found:\n${lines.join('\n')}\nNothing was added. Fix: ${describeFix(problems)}.`,
    });
    this.problems = problems;
  }

  /** Returns true when `error` is a `ToolPairingError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is ToolPairingError {
    return CtxError.hasMarker(error, marker);
  }
}
