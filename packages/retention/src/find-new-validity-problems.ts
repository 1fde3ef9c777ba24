import type { ProviderValidity, ValidityProblem } from './provider-validity.js';

const toolLoopThinkingRule = 'tool-loop-thinking';

/**
 * Problems are compared by rule and message, not path: a strategy that removes entries moves every later message,
 * so the same problem sits at another index. Messages name the ids involved, never the position.
 */
function problemKey(problem: ValidityProblem): string {
  // A request has one turn still in its tool loop: when the input's already lacked its opening thinking, a strategy
  // that removes that opening step moves the same problem to the next step (other ids), which is not new.
  if (problem.rule === toolLoopThinkingRule) return problem.rule;
  return `${problem.rule}\u0000${problem.message}`;
}

function newProblems(before: readonly ValidityProblem[], after: readonly ValidityProblem[]): ValidityProblem[] {
  const remaining = new Map<string, number>();
  for (const problem of before) remaining.set(problemKey(problem), (remaining.get(problemKey(problem)) ?? 0) + 1);
  return after.filter((problem) => {
    const key = problemKey(problem);
    const count = remaining.get(key) ?? 0;
    if (count === 0) return true;
    remaining.set(key, count - 1);
    return false;
  });
}

/**
 * Assistant messages of the turn still in its tool loop that started with their thinking in `before` and do not in
 * `after` (matched by a shared `tool_use` id), unless `after`'s own validator already reported the message. Every
 * message of that turn counts, not only the one that opens it: while tools run, the thinking of the current turn
 * must come back complete (interleaved thinking puts a block on each step).
 */
function lostToolLoopThinking(
  before: ProviderValidity,
  after: ProviderValidity,
  reported: readonly ValidityProblem[],
): ValidityProblem[] {
  if (before.anthropicToolLoop === undefined || after.anthropicToolLoop === undefined) return [];
  // An input whose tool loop already breaks the rule (its opening step has no thinking while the request has some:
  // thinking was toggled mid-turn) is rejected as it is; a strategy that reshapes that loop is not to blame.
  if (before.anthropic.some((problem) => problem.rule === toolLoopThinkingRule)) return [];
  const reportedPaths = new Set(
    reported.filter((problem) => problem.rule === toolLoopThinkingRule).map((problem) => problem.path),
  );
  const problems: ValidityProblem[] = [];
  for (const message of after.anthropicToolLoop) {
    if (message.opensWithThinking) continue;
    const ids = new Set(message.toolUseIds);
    const original = before.anthropicToolLoop.find((candidate) => candidate.toolUseIds.some((id) => ids.has(id)));
    if (original?.opensWithThinking !== true) continue;
    const path = `${message.path}.content[0].type`;
    if (reportedPaths.has(path)) continue;
    problems.push({
      rule: toolLoopThinkingRule,
      message: `the assistant message with tool_use ${message.toolUseIds.join(', ')} is still in its tool loop and lost the thinking block it started with; with thinking on, the API rejects the request (only earlier turns may drop thinking)`,
      path,
    });
  }
  return problems;
}

/**
 * The problems of `after` that `before` did not already have, per provider: what a strategy introduced. Problems
 * match by rule and message (which name ids, never positions), counted: when the input had two blank-content
 * problems and the output has three, one is new.
 *
 * One Anthropic problem needs both requests: with extended thinking on, the assistant messages of the turn still
 * in its tool loop (the request ends with their tool results) must keep the thinking they started with — the API
 * answers "a final `assistant` message must start with a thinking block" otherwise, and its docs ("Preserving
 * thinking blocks") allow dropping thinking from earlier turns only. A request that lost every thinking block
 * does not show that thinking was on, so `after` alone passes; comparing `anthropicToolLoop` with `before`'s
 * reports such a message as rule `tool-loop-thinking`.
 *
 * @param before - `checkProviderValidity` of the input conversation.
 * @param after - `checkProviderValidity` of the output conversation.
 * @returns The new problems per provider, in `after` order (lost tool-loop thinking last).
 * @example
 * ```ts
 * const introduced = findNewValidityProblems(checkProviderValidity(input), checkProviderValidity(output));
 * if (introduced.anthropic.length + introduced.openai.length > 0) throw new Error('the strategy broke the request');
 * ```
 */
export function findNewValidityProblems(before: ProviderValidity, after: ProviderValidity): ProviderValidity {
  // A loop whose opening step already lacked its thinking is invalid as given: when a strategy reshapes it, the
  // problem names other ids but is the same one, not the strategy's.
  const loopAlreadyBroken = before.anthropic.some((problem) => problem.rule === toolLoopThinkingRule);
  const anthropic = newProblems(before.anthropic, after.anthropic).filter(
    (problem) => !(loopAlreadyBroken && problem.rule === toolLoopThinkingRule),
  );
  return {
    anthropic: [...anthropic, ...lostToolLoopThinking(before, after, anthropic)],
    openai: newProblems(before.openai, after.openai),
  };
}
