import type { ProviderValidity, ValidityProblem } from './provider-validity.js';

/**
 * Problems are compared by rule and message, not path: a strategy that removes entries moves every later message,
 * so the same problem sits at another index. Messages name the ids involved, never the position.
 */
function problemKey(problem: ValidityProblem): string {
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
 * The problems of `after` that `before` did not already have, per provider: what a strategy introduced. Problems
 * match by rule and message (which name ids, never positions), counted: when the input had two blank-content
 * problems and the output has three, one is new.
 *
 * @param before - `checkProviderValidity` of the input conversation.
 * @param after - `checkProviderValidity` of the output conversation.
 * @returns The new problems per provider, in `after` order.
 * @example
 * ```ts
 * const introduced = findNewValidityProblems(checkProviderValidity(input), checkProviderValidity(output));
 * if (introduced.anthropic.length + introduced.openai.length > 0) throw new Error('the strategy broke the request');
 * ```
 */
export function findNewValidityProblems(before: ProviderValidity, after: ProviderValidity): ProviderValidity {
  return {
    anthropic: newProblems(before.anthropic, after.anthropic),
    openai: newProblems(before.openai, after.openai),
  };
}
