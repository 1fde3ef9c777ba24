/**
 * Where a fenced action sits in a model message: `content.slice(fenceStart, fenceEnd)` is the whole code block and
 * `content.slice(commandStart, commandEnd)` the command without surrounding whitespace.
 */
export interface FencedActionSpan {
  readonly fenceStart: number;
  readonly bodyStart: number;
  readonly commandStart: number;
  readonly commandEnd: number;
  readonly bodyEnd: number;
  readonly fenceEnd: number;
}

function spanOf(
  content: string,
  fenceStart: number,
  bodyStart: number,
  bodyEnd: number,
  fenceEnd: number,
): FencedActionSpan {
  const body = content.slice(bodyStart, bodyEnd);
  const commandStart = bodyStart + (body.length - body.trimStart().length);
  const commandEnd = Math.max(commandStart, bodyEnd - (body.length - body.trimEnd().length));
  return { fenceStart, bodyStart, commandStart, commandEnd, bodyEnd, fenceEnd };
}

// mini-swe-agent's own pattern (`DefaultAgent.parse_action`): a ```bash block; the command is the stripped body.
const bashBlockPattern = /```bash\s*\n([\s\S]*?)\n```/g;

/**
 * Finds the actions of a mini-swe-agent model message the way mini-swe-agent does: every ```` ```bash ```` block.
 * mini-swe-agent runs the message only when there is exactly one; otherwise it answers with a format error.
 *
 * @param content - The assistant message text.
 * @returns One span per block, in order.
 * @example
 * ```ts
 * findMiniSweAgentActions('THOUGHT: look\n\n```bash\nls\n```'); // one span, command `ls`
 * ```
 */
export function findMiniSweAgentActions(content: string): FencedActionSpan[] {
  const spans: FencedActionSpan[] = [];
  for (const match of content.matchAll(bashBlockPattern)) {
    const body = match[1] ?? '';
    const fenceEnd = match.index + match[0].length;
    const bodyEnd = fenceEnd - '\n```'.length;
    spans.push(spanOf(content, match.index, bodyEnd - body.length, bodyEnd, fenceEnd));
  }
  return spans;
}

/** The action SWE-agent's `ThoughtActionParser` reads from a message, and how many top-level blocks it saw. */
export interface SweAgentTextAction {
  readonly span: FencedActionSpan;
  /** Top-level code blocks in the message; SWE-agent runs the last one. */
  readonly blockCount: number;
  /** What SWE-agent records as `thought`: the message without the action block. */
  readonly thought: string;
  /** What SWE-agent records as `action`: the block body, whitespace included. */
  readonly action: string;
}

// SWE-agent's `^```(\S*)\s*\n|^```\s*$` in MULTILINE mode. Python's `^`/`$` see only `\n` as a line break, JavaScript's
// `m` flag also `\r` and U+2028/9, so the line anchors are spelled out as look-arounds.
const codeFencePattern = /(?<![^\n])```(\S*)\s*\n|(?<![^\n])```\s*(?![^\n])/g;

/**
 * Finds the action of a SWE-agent text-mode message the way SWE-agent's `ThoughtActionParser` does: the last code
 * block that is not nested in another one.
 *
 * @param content - The assistant message text.
 * @returns The action, or undefined when the message has no complete code block (SWE-agent: format error).
 * @example
 * ```ts
 * findSweAgentAction('Open it.\n```\nopen setup.py\n```')?.action; // 'open setup.py\n'
 * ```
 */
export function findSweAgentAction(content: string): SweAgentTextAction | undefined {
  const stack: RegExpExecArray[] = [];
  let last: readonly [RegExpExecArray, RegExpExecArray] | undefined;
  let blockCount = 0;
  for (const match of content.matchAll(codeFencePattern)) {
    const language = match[1];
    if (stack.length > 0 && !language) {
      const start = stack.pop() as RegExpExecArray;
      if (stack.length === 0) {
        last = [start, match];
        blockCount += 1;
      }
    } else if (language !== undefined) {
      stack.push(match);
    }
  }
  if (last === undefined) return undefined;
  const [start, end] = last;
  const fenceStart = start.index;
  const bodyStart = start.index + start[0].length;
  const bodyEnd = end.index;
  const fenceEnd = end.index + end[0].length;
  return {
    span: spanOf(content, fenceStart, bodyStart, bodyEnd, fenceEnd),
    blockCount,
    thought: content.slice(0, fenceStart) + content.slice(fenceEnd),
    action: content.slice(bodyStart, bodyEnd),
  };
}
