import type { ContentBlock, HistoryEntry, ThinkingBlock } from '@ctx/core';
import fc from 'fast-check';

const words = ['read', 'the', 'file', 'test', 'fails', 'fix', 'parser', 'ok', 'done', 'src/a.ts', 'é', '日本語', '🙂', '∑'];
const sentence = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 10 }).map((items) => items.join(' '));

/** Mostly words; sometimes any unicode, or text that is empty or only whitespace (which codecs must drop). */
const text = fc.oneof(
  { weight: 6, arbitrary: sentence },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\n', ' \t ') },
);

/** Signed thinking or redacted thinking, as Anthropic returns them. */
const thinking = fc.oneof(
  fc
    .record({ thought: sentence, signature: fc.base64String({ minLength: 8, maxLength: 24 }) })
    .map(({ thought, signature }): ThinkingBlock => ({ type: 'thinking', thought, signature: `Eq${signature}` })),
  fc.base64String({ minLength: 8, maxLength: 24 }).map((data): ThinkingBlock => ({ type: 'thinking', thought: `Em${data}`, redacted: true })),
);

const files = ['/repo/src/a.ts', '/repo/src/b.ts', '/repo/README.md'];

/** What a call returns: a normal result, one larger than any budget the check uses, a failure, or an interruption. */
export type CallOutcome = { readonly kind: 'normal' } | { readonly kind: 'huge'; readonly size: number } | { readonly kind: 'error' } | { readonly kind: 'interrupted' };

/** One generated tool call: which tool, on which file, and how it turns out. */
export interface CallSpec {
  readonly tool: 'Read' | 'Edit' | 'Write' | 'Bash';
  readonly file: string;
  /** Which content the file has when read: the same version twice makes duplicate reads. */
  readonly version: number;
  readonly outcome: CallOutcome;
}

const outcome: fc.Arbitrary<CallOutcome> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'normal' as const }) },
  { weight: 2, arbitrary: fc.integer({ min: 4_000, max: 60_000 }).map((size) => ({ kind: 'huge' as const, size })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'error' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'interrupted' as const }) },
);

const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  tool: fc.constantFrom('Read', 'Read', 'Edit', 'Write', 'Bash'),
  file: fc.constantFrom(...files),
  version: fc.integer({ min: 0, max: 1 }),
  outcome,
});

/** One step of a tool loop: an assistant message with parallel calls, then their results. */
export interface StepSpec {
  readonly thinking: ThinkingBlock | undefined;
  readonly preamble: string | undefined;
  readonly calls: readonly CallSpec[];
  /** Claude Code stores every block of a message as its own entry. */
  readonly splitCalls: boolean;
  /** Results in one tool entry, or one entry per result. */
  readonly splitResults: boolean;
}

const step: fc.Arbitrary<StepSpec> = fc.record({
  thinking: fc.option(thinking, { nil: undefined, freq: 2 }),
  preamble: fc.option(text, { nil: undefined }),
  calls: fc.array(callSpec, { minLength: 1, maxLength: 4 }),
  splitCalls: fc.boolean(),
  splitResults: fc.boolean(),
});

/** A user prompt, then zero or more tool steps, then maybe an answer. */
export interface TurnSpec {
  readonly prompt: string;
  readonly steps: readonly StepSpec[];
  readonly answer: { readonly thinking: ThinkingBlock | undefined; readonly text: string } | undefined;
}

const turn: fc.Arbitrary<TurnSpec> = fc.record({
  prompt: text,
  steps: fc.array(step, { maxLength: 3 }),
  answer: fc.option(fc.record({ thinking: fc.option(thinking, { nil: undefined }), text }), { nil: undefined, freq: 4 }),
});

/** How the history ends: answered, still in its tool loop (results are the last entries), or with a call cut off. */
export type RandomHistoryEnding = 'answered' | 'in-tool-loop' | 'unanswered-call';

/** The generated shape of a random history; {@link buildRandomHistory} turns it into entries. */
export interface RandomHistorySpec {
  readonly turns: readonly TurnSpec[];
  readonly ending: RandomHistoryEnding;
  readonly finalStep: StepSpec;
}

/**
 * Random agent sessions for property checks: prompts (words, unicode, empty or blank text), tool loops of parallel
 * calls (one entry or Claude Code's entry per block; results in one or several entries), signed and redacted
 * thinking, results far larger than any budget, failed calls, interrupted calls as Claude Code records them (a
 * rejected result, then "[Request interrupted by user for tool use]"), and an end that is answered, still in its
 * tool loop, or a call whose result never came.
 */
export const randomHistorySpec: fc.Arbitrary<RandomHistorySpec> = fc.record({
  turns: fc.array(turn, { minLength: 1, maxLength: 6 }),
  ending: fc.constantFrom<RandomHistoryEnding>('answered', 'in-tool-loop', 'in-tool-loop', 'unanswered-call'),
  finalStep: step,
});

const interruptedResult =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

function fileContent(file: string, version: number): string {
  return Array.from({ length: 12 }, (_, line) => `${String(line + 1).padStart(6)}\t// ${file} v${version} line ${line + 1}`).join('\n');
}

function hugeContent(file: string, size: number): string {
  const line = `${file}: generated output line that repeats until the result is far larger than the budget\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

function parametersOf(call: CallSpec): Record<string, string> {
  switch (call.tool) {
    case 'Read':
      return { file_path: call.file };
    case 'Edit':
      return { file_path: call.file, old_string: `v${call.version}`, new_string: `v${call.version + 1}` };
    case 'Write':
      return { file_path: call.file, content: fileContent(call.file, call.version + 1) };
    case 'Bash':
      return { command: `npm test -- ${call.file}` };
  }
}

function resultOf(call: CallSpec): { result: string; isError?: true } {
  switch (call.outcome.kind) {
    case 'huge':
      return { result: hugeContent(call.file, call.outcome.size) };
    case 'error':
      return { result: `Error: ${call.file} does not exist`, isError: true };
    case 'interrupted':
      return { result: interruptedResult, isError: true };
    case 'normal':
      return { result: call.tool === 'Read' ? fileContent(call.file, call.version) : `Updated ${call.file}` };
  }
}

const human = (value: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text: value }] });

/**
 * Builds the entries a {@link RandomHistorySpec} describes. Call ids are `toolu_<n>`, unique in the history.
 * Deterministic: the same spec gives the same history.
 */
export function buildRandomHistory(spec: RandomHistorySpec): HistoryEntry[] {
  const history: HistoryEntry[] = [];
  let nextId = 0;

  const addCalls = (current: StepSpec): { ids: string[] } => {
    const ids = current.calls.map(() => `toolu_${(nextId++).toString().padStart(4, '0')}`);
    const blocks: ContentBlock[] = [
      ...(current.thinking === undefined ? [] : [current.thinking]),
      ...(current.preamble === undefined ? [] : [{ type: 'text' as const, text: current.preamble }]),
      ...current.calls.map((call, index): ContentBlock => ({
        type: 'tool_call',
        id: ids[index] as string,
        name: call.tool,
        parameters: parametersOf(call),
      })),
    ];
    if (current.splitCalls) for (const block of blocks) history.push({ speaker: 'ai', blocks: [block] });
    else history.push({ speaker: 'ai', blocks });
    return { ids };
  };

  const addResults = (current: StepSpec, ids: readonly string[]): void => {
    const blocks = current.calls.map((call, index): ContentBlock => ({
      type: 'tool_response',
      callId: ids[index] as string,
      toolName: call.tool,
      ...resultOf(call),
    }));
    if (current.splitResults) for (const block of blocks) history.push({ speaker: 'tool', blocks: [block] });
    else history.push({ speaker: 'tool', blocks });
    if (current.calls.some((call) => call.outcome.kind === 'interrupted')) {
      history.push(human('[Request interrupted by user for tool use]'));
    }
  };

  spec.turns.forEach((current, turnIndex) => {
    history.push(human(current.prompt));
    for (const currentStep of current.steps) addResults(currentStep, addCalls(currentStep).ids);
    const isLast = turnIndex === spec.turns.length - 1;
    if (current.answer !== undefined && !(isLast && spec.ending !== 'answered')) {
      history.push({
        speaker: 'ai',
        blocks: [...(current.answer.thinking === undefined ? [] : [current.answer.thinking]), { type: 'text', text: current.answer.text }],
      });
    }
  });

  if (spec.ending === 'in-tool-loop') {
    // Results of a step are the last entries: the turn is still in its tool loop. An interruption would end it.
    const loopStep = { ...spec.finalStep, calls: spec.finalStep.calls.map((call) => (call.outcome.kind === 'interrupted' ? { ...call, outcome: { kind: 'normal' as const } } : call)) };
    addResults(loopStep, addCalls(loopStep).ids);
  } else if (spec.ending === 'unanswered-call') {
    addCalls(spec.finalStep);
  }
  return history;
}

/** Random histories ({@link randomHistorySpec} built with {@link buildRandomHistory}). */
export const randomHistory: fc.Arbitrary<HistoryEntry[]> = randomHistorySpec.map(buildRandomHistory);
