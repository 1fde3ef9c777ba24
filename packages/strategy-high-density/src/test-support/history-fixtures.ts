import {
  applyDensityResultToHistory,
  parseHistory,
  type DensityConfig,
  type DensityResult,
  type HistoryEntry,
  type JsonValue,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '@ctx/core';
import { createHighDensityStrategy } from '../high-density-strategy.js';
import type { HighDensitySettingsInput } from '../high-density-settings.js';

/** Spec 000's defaults, with a workspace root so relative paths resolve the same everywhere. */
export const defaultConfig: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/repo',
};

/** A tool call with its result, to put into one assistant turn. */
export interface ToolExchange {
  readonly call: ToolCallBlock;
  readonly response: ToolResponseBlock;
}

/**
 * A call and its response.
 *
 * @param id - The call id.
 * @param name - The tool name.
 * @param parameters - The call parameters.
 * @param result - The result.
 * @param options - `isError` for a failed call.
 */
export function exchange(
  id: string,
  name: string,
  parameters: JsonValue,
  result: JsonValue,
  options: { readonly isError?: boolean } = {},
): ToolExchange {
  return {
    call: { type: 'tool_call', id, name, parameters },
    response: {
      type: 'tool_response',
      callId: id,
      toolName: name,
      result,
      ...(options.isError === true ? { isError: true } : {}),
    },
  };
}

/** A Claude Code `Read` of a file. */
export function read(id: string, path: string, content = `content of ${path}\n`.repeat(20)): ToolExchange {
  return exchange(id, 'Read', { file_path: path }, content);
}

/** A Claude Code `Write` of a file. */
export function write(id: string, path: string): ToolExchange {
  return exchange(id, 'Write', { file_path: path, content: 'new content' }, `File created successfully at: ${path}`);
}

/** A Claude Code `Edit` of a file. */
export function edit(id: string, path: string, oldText = 'old', newText = 'new'): ToolExchange {
  return exchange(
    id,
    'Edit',
    { file_path: path, old_string: oldText, new_string: newText },
    `The file ${path} has been updated.`,
  );
}

/** A Claude Code `Bash` command. */
export function bash(id: string, command: string, output = `output of ${command}\n`.repeat(10)): ToolExchange {
  return exchange(id, 'Bash', { command }, output);
}

/** An assistant turn: one `ai` entry with the calls, one `tool` entry with the responses. */
export function turn(...exchanges: readonly ToolExchange[]): HistoryEntry[] {
  return [
    { speaker: 'ai', blocks: exchanges.map((item) => item.call) },
    { speaker: 'tool', blocks: exchanges.map((item) => item.response) },
  ];
}

/** How {@link bashTurns} names its calls and what they run. */
export interface BashTurnsOptions {
  /**
   * Call ids are this prefix followed by the turn's index.
   *
   * @default 'b'
   */
  readonly idPrefix?: string;
  /**
   * The command of the turn at `index`.
   *
   * @default (index) => `echo ${index}`
   */
  readonly command?: (index: number) => string;
  /**
   * Every call's output.
   *
   * @default the {@link bash} default output of the command
   */
  readonly output?: string;
}

/**
 * `count` assistant turns of one `Bash` call each, to spread into {@link history}.
 *
 * @param count - How many turns.
 * @param options - Call ids, commands and output.
 * @example
 * history(human('go'), ...bashTurns(3)); // calls b0, b1, b2 running `echo 0`, `echo 1`, `echo 2`
 */
export function bashTurns(count: number, options: BashTurnsOptions = {}): HistoryEntry[][] {
  const { idPrefix = 'b', command = (index: number) => `echo ${index}`, output } = options;
  return Array.from({ length: count }, (_, index) => turn(bash(`${idPrefix}${index}`, command(index), output)));
}

/** A human entry with one text block. */
export function human(text: string): HistoryEntry {
  return { speaker: 'human', blocks: [{ type: 'text', text }] };
}

/** An assistant entry with one text block. */
export function aiText(text: string): HistoryEntry {
  return { speaker: 'ai', blocks: [{ type: 'text', text }] };
}

/**
 * A few lines of source, long enough that replacing an earlier copy of it with the dedup marker saves tokens.
 *
 * @param path - Named in the first line, so copies of different files differ.
 * @param version - Named in the first line too, so versions of one file differ.
 */
export function fileBody(path: string, version = 'v1'): string {
  return [
    `// body of ${path} (${version})`,
    'export function parseLines(input: string): string[] {',
    "  return input.split('\\n').map((line) => line.trim()).filter((line) => line.length > 0);",
    '}',
  ].join('\n');
}

/**
 * One file `@`-included in a human message, between the delimiters of spec 000 BR-DEDUP-001, with nothing after the
 * closing delimiter.
 *
 * @param path - The file path in the opening delimiter.
 * @param body - The file content.
 */
export function inclusionText(path: string, body = fileBody(path)): string {
  return `--- ${path} ---\n${body}\n--- End of content ---`;
}

/** A validated, frozen history (what the orchestrator passes). */
export function history(...entries: readonly (HistoryEntry | readonly HistoryEntry[])[]): readonly HistoryEntry[] {
  return parseHistory(entries.flat());
}

/** The result of a fresh strategy's `optimize()`. */
export function optimize(
  entries: readonly HistoryEntry[],
  config: Partial<DensityConfig> = {},
  settings: HighDensitySettingsInput = {},
): DensityResult {
  const strategy = createHighDensityStrategy(settings);
  if (strategy.optimize === undefined) throw new Error('high-density must optimize');
  return strategy.optimize(entries, { ...defaultConfig, ...config });
}

/** Optimizes and applies the result the way `HistoryService.applyDensityResult` does (validation included). */
export function optimizeAndApply(
  entries: readonly HistoryEntry[],
  config: Partial<DensityConfig> = {},
  settings: HighDensitySettingsInput = {},
): HistoryEntry[] {
  return applyDensityResultToHistory(entries, optimize(entries, config, settings), 'high-density');
}

/** Every tool call id left in a history. */
export function callIds(entries: readonly HistoryEntry[]): string[] {
  return entries.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : [])));
}

/** Every tool response of a history, by call id. */
export function responsesById(entries: readonly HistoryEntry[]): Map<string, ToolResponseBlock> {
  const responses = new Map<string, ToolResponseBlock>();
  for (const entry of entries) {
    for (const block of entry.blocks) if (block.type === 'tool_response') responses.set(block.callId, block);
  }
  return responses;
}

/** A response's result as text (JSON for structured results). */
export function resultText(block: ToolResponseBlock | undefined): string {
  if (block === undefined) return '';
  return typeof block.result === 'string' ? block.result : JSON.stringify(block.result);
}
