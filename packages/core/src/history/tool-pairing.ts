import type { HistoryEntry } from './history-entry.js';

/**
 * A break in the call/response structure providers require. Anthropic and OpenAI both reject a request where a
 * tool result does not answer a call of the assistant turn right before it, or where a call goes unanswered.
 */
export type ToolPairingProblem =
  | {
      /** A `tool_call` with no `tool_response` in the tool entries that follow its assistant turn. */
      readonly kind: 'unanswered-call';
      readonly entryIndex: number;
      readonly callId: string;
      readonly toolName: string;
    }
  | {
      /** A `tool_response` whose `callId` is not a call of the assistant turn right before it. */
      readonly kind: 'orphan-response';
      readonly entryIndex: number;
      readonly callId: string;
      readonly toolName: string;
    }
  | {
      /** A second `tool_response` for a call that was already answered. */
      readonly kind: 'duplicate-response';
      readonly entryIndex: number;
      readonly callId: string;
      readonly toolName: string;
    }
  | {
      /** Two calls with the same id in one assistant turn. */
      readonly kind: 'duplicate-call-id';
      readonly entryIndex: number;
      readonly callId: string;
      readonly toolName: string;
    };

interface OpenCall {
  readonly entryIndex: number;
  readonly toolName: string;
  answered: boolean;
}

/**
 * Lists every tool call / response pairing problem in a history, in order.
 *
 * The rule: consecutive `ai` entries form one assistant turn (providers merge consecutive same-role messages); the
 * run of `tool` entries right after it must answer every call of that turn, and nothing else. A `human` entry, or
 * the next assistant turn, closes the turn. An empty list means the history is pair-valid.
 *
 * Runs in O(entries + blocks).
 */
export function findToolPairingProblems(history: readonly HistoryEntry[]): ToolPairingProblem[] {
  const problems: ToolPairingProblem[] = [];
  let openCalls = new Map<string, OpenCall>();
  let previousSpeaker: HistoryEntry['speaker'] | undefined;

  const closeTurn = () => {
    for (const [callId, call] of openCalls) {
      if (!call.answered) {
        problems.push({ kind: 'unanswered-call', entryIndex: call.entryIndex, callId, toolName: call.toolName });
      }
    }
    openCalls = new Map();
  };

  history.forEach((entry, entryIndex) => {
    if (entry.speaker === 'ai') {
      if (previousSpeaker !== 'ai') closeTurn();
      for (const block of entry.blocks) {
        if (block.type !== 'tool_call') continue;
        if (openCalls.has(block.id)) {
          problems.push({ kind: 'duplicate-call-id', entryIndex, callId: block.id, toolName: block.name });
          continue;
        }
        openCalls.set(block.id, { entryIndex, toolName: block.name, answered: false });
      }
    } else if (entry.speaker === 'tool') {
      const turnIsOpen = previousSpeaker === 'ai' || previousSpeaker === 'tool';
      for (const block of entry.blocks) {
        if (block.type !== 'tool_response') continue;
        const call = turnIsOpen ? openCalls.get(block.callId) : undefined;
        if (call === undefined) {
          problems.push({ kind: 'orphan-response', entryIndex, callId: block.callId, toolName: block.toolName });
        } else if (call.answered) {
          problems.push({ kind: 'duplicate-response', entryIndex, callId: block.callId, toolName: block.toolName });
        } else {
          call.answered = true;
        }
      }
    } else {
      closeTurn();
    }
    previousSpeaker = entry.speaker;
  });
  closeTurn();
  // Unanswered calls are found when their turn closes, after later problems; report in history order.
  return problems.sort((first, second) => first.entryIndex - second.entryIndex);
}

/**
 * The pairing problems of `after` that `before` did not already have (matched by kind and call id). A strategy
 * must never introduce one; problems present in its input are not its fault.
 */
export function findNewToolPairingProblems(
  before: readonly HistoryEntry[],
  after: readonly HistoryEntry[],
): ToolPairingProblem[] {
  const key = (problem: ToolPairingProblem) => `${problem.kind}\u0000${problem.callId}`;
  const existing = new Set(findToolPairingProblems(before).map(key));
  return findToolPairingProblems(after).filter((problem) => !existing.has(key(problem)));
}

/** Renders a pairing problem as one line for error messages and reports. */
export function describeToolPairingProblem(problem: ToolPairingProblem): string {
  const what = `${problem.toolName} call ${problem.callId}`;
  switch (problem.kind) {
    case 'unanswered-call':
      return `entry ${problem.entryIndex}: ${what} has no tool_response in the tool entries that follow it`;
    case 'orphan-response':
      return `entry ${problem.entryIndex}: tool_response for ${what} does not answer a call of the preceding assistant turn`;
    case 'duplicate-response':
      return `entry ${problem.entryIndex}: ${what} is answered more than once`;
    case 'duplicate-call-id':
      return `entry ${problem.entryIndex}: call id ${problem.callId} is used twice in one assistant turn`;
  }
}
