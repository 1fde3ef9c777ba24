import { formatCount } from '@ctx/core';
import type { Todo } from '@ctx/core';

/** Options of {@link buildSummaryInstructions}. */
export interface SummaryInstructionsOptions {
  /** The agent's task list: the summary must carry it (spec 002 §5.4). */
  readonly activeTodos?: readonly Todo[];
  /**
   * A prompt that replaces the built-in one (spec 004 FR-PR-003, custom condensation prompts). The todo list and the
   * length limit are still appended.
   */
  readonly customPrompt?: string;
  /** The longest summary wanted, in tokens; stated in the instructions as a word limit. */
  readonly maxSummaryTokens?: number;
}

/**
 * The built-in prompt: the five `<state_snapshot>` sections of the seed's compression prompt, plus the four spec 000
 * adds beside it — what the task is, what the user asked for in their own words, what went wrong, and where the
 * code is — so a resumed agent neither repeats a failed attempt nor forgets an instruction.
 */
const builtInPrompt = `You are summarizing the earlier part of a conversation between a user and an AI coding agent, so that the agent can continue the work with only your summary in place of that conversation. The agent will not see the original messages again: anything you leave out is lost.

Write the summary in exactly this structure:

<state_snapshot>
  <overall_goal>The user's high-level objective, in one or two sentences.</overall_goal>
  <key_knowledge>Facts, conventions and constraints the agent established or was told (commands, versions, configuration, APIs).</key_knowledge>
  <file_system_state>Files created, read, modified or deleted, and what is now in them that matters.</file_system_state>
  <recent_actions>The last significant actions and their outcomes.</recent_actions>
  <current_plan>The plan, step by step, marking each step [DONE], [IN PROGRESS] or [TODO].</current_plan>
</state_snapshot>
<task_context>What the current task is, why, and where it stands now.</task_context>
<user_directives>Every instruction and preference the user stated, quoted verbatim where possible — including what not to do.</user_directives>
<errors_encountered>Errors, failed attempts and their causes, and how each was resolved or why it is still open.</errors_encountered>
<code_references>File paths, function and type names, line numbers and short code snippets the agent will need.</code_references>

Be specific: keep exact names, paths, numbers and error messages. Do not invent anything that is not in the conversation.`;

function describeTodos(todos: readonly Todo[]): string {
  const lines = todos.map((todo) => `- [${todo.status}] ${todo.content}`);
  return `[Current todo list]\n${lines.join('\n')}\n[End todo list]\n\nInclude these tasks and their statuses in your summary under a dedicated "## Todo List" section, and tell the resuming agent to restore them with its todo tool to keep tracking progress.`;
}

/**
 * Builds the instructions an LLM strategy sends to its summarizer (spec 000 compression prompt, spec 002 §5.4 todo
 * preservation, spec 004 FR-PR-003 custom prompts). One place for every LLM strategy, so they summarize alike.
 *
 * @param options - The todos, a custom prompt, and the summary's length limit.
 * @returns The instructions text.
 * @example
 * ```ts
 * const instructions = buildSummaryInstructions({ activeTodos: context.activeTodos, maxSummaryTokens: 4_000 });
 * ```
 */
export function buildSummaryInstructions(options: SummaryInstructionsOptions = {}): string {
  const parts = [options.customPrompt?.trim() || builtInPrompt];
  if (options.activeTodos !== undefined && options.activeTodos.length > 0) parts.push(describeTodos(options.activeTodos));
  if (options.maxSummaryTokens !== undefined) {
    // About three quarters of a word per token in English prose.
    parts.push(`Keep the summary under ${formatCount(Math.max(50, Math.floor(options.maxSummaryTokens * 0.75)))} words.`);
  }
  return parts.join('\n\n');
}
