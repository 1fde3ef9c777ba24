import type { HistoryEntry, JsonValue, Todo, ToolResponseBlock } from '@ctx/core';
import { classifyToolCall } from './classify-tool-call.js';
import { classifyToolResult } from './classify-tool-result.js';
import { asParameterObject } from './tool-parameters.js';
import type { ToolSemanticsRegistry } from './tool-semantics-registry.js';

/** Options of {@link extractActiveTodos}. */
export interface ExtractActiveTodosOptions {
  /**
   * Decides which tools are todo tools (kind `todo`).
   * @default the built-in tool knowledge
   */
  readonly registry?: ToolSemanticsRegistry;
}

/** Where each todo tool keeps its list: Claude Code / gemini-cli / llxprt `todos`, OpenHands `task_list`, Codex `plan`. */
const listKeys = ['todos', 'task_list', 'plan'] as const;
const contentKeys = ['content', 'description', 'title', 'step', 'task'] as const;

/** The statuses todo tools write, by their spellings (a map: an object would answer `toString` or `constructor`). */
const statusAliases: ReadonlyMap<string, Todo['status']> = new Map<string, Todo['status']>([
  ['pending', 'pending'],
  ['todo', 'pending'],
  ['not_started', 'pending'],
  ['in_progress', 'in_progress'],
  ['in-progress', 'in_progress'],
  ['completed', 'completed'],
  ['complete', 'completed'],
  ['done', 'completed'],
  // gemini-cli's; kept so a summary does not bring a task back that the agent gave up on.
  ['cancelled', 'cancelled'],
  ['canceled', 'cancelled'],
]);

function parseTodo(value: JsonValue): Todo | undefined {
  const item = asParameterObject(value);
  if (item === undefined) return undefined;
  const contentKey = contentKeys.find((key) => typeof item[key] === 'string' && item[key] !== '');
  const status = typeof item['status'] === 'string' ? statusAliases.get(item['status']) : undefined;
  if (contentKey === undefined || status === undefined) return undefined;
  const activeForm = item['activeForm'];
  const id = item['id'];
  const priority = item['priority'];
  return {
    content: item[contentKey] as string,
    status,
    ...(typeof activeForm === 'string' ? { activeForm } : {}),
    ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}),
    ...(priority === 'high' || priority === 'medium' || priority === 'low' ? { priority } : {}),
  };
}

/** The list a todo call writes, or undefined when its parameters hold none (a `TodoRead`, a malformed call). */
function todoList(parameters: JsonValue): Todo[] | undefined {
  const object = asParameterObject(parameters);
  const list = listKeys.map((key) => object?.[key]).find((value) => Array.isArray(value));
  if (!Array.isArray(list)) return undefined;
  return (list as readonly JsonValue[]).map(parseTodo).filter((todo): todo is Todo => todo !== undefined);
}

/** The response to `callId` in the tool entries after the assistant turn holding `entryIndex`. */
function findResponse(history: readonly HistoryEntry[], entryIndex: number, callId: string): ToolResponseBlock | undefined {
  let index = entryIndex + 1;
  while (history[index]?.speaker === 'ai') index++;
  for (; history[index]?.speaker === 'tool'; index++) {
    for (const block of (history[index] as HistoryEntry).blocks) {
      if (block.type === 'tool_response' && block.callId === callId) return block;
    }
  }
  return undefined;
}

/**
 * The agent's current task list: the list written by the latest successful todo call (Claude Code `TodoWrite`,
 * gemini-cli `write_todos`, llxprt `todo_write`, OpenHands `task_tracker`, Codex `update_plan`), so summaries and
 * strategies can keep it.
 *
 * Items map to `Todo` from `@ctx/core`: the text comes from `content` (Claude Code), `description` (gemini-cli),
 * `title` (OpenHands) or `step` (Codex); Claude Code's `activeForm`, `id` and `priority` are kept when present;
 * statuses `todo`→`pending`, `done`→`completed`, `cancelled` (gemini-cli) stays `cancelled`; items without text or
 * with an unknown status are left out. Calls whose response is an error (a rejected `TodoWrite`) are skipped.
 *
 * @param history - The canonical history.
 * @param options - An optional `registry` deciding which tools are todo tools.
 * @returns The latest list (possibly empty, when the agent cleared it), or undefined when no todo call wrote one.
 * @example
 * ```ts
 * extractActiveTodos(history);
 * // [{ content: 'Add tests', status: 'in_progress' }, { content: 'Update docs', status: 'pending', priority: 'low' }]
 * ```
 */
export function extractActiveTodos(history: readonly HistoryEntry[], options: ExtractActiveTodosOptions = {}): Todo[] | undefined {
  const classificationOptions = { workspaceRoot: '/', ...(options.registry === undefined ? {} : { registry: options.registry }) };
  for (let entryIndex = history.length - 1; entryIndex >= 0; entryIndex--) {
    const entry = history[entryIndex] as HistoryEntry;
    if (entry.speaker !== 'ai') continue;
    for (let blockIndex = entry.blocks.length - 1; blockIndex >= 0; blockIndex--) {
      const block = entry.blocks[blockIndex];
      if (block?.type !== 'tool_call') continue;
      // Cheap shape check first: only calls carrying a list are worth classifying.
      const todos = todoList(block.parameters);
      if (todos === undefined) continue;
      if (classifyToolCall(block, classificationOptions).kind !== 'todo') continue;
      const response = findResponse(history, entryIndex, block.id);
      if (response === undefined || classifyToolResult(response, block).outcome === 'success') return todos;
    }
  }
  return undefined;
}
