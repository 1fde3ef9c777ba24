import type { JsonValue, ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import { toolResultText } from './tool-result-text.js';

/** The rule that found an error (see {@link classifyToolResult}). */
export type ToolErrorMarker =
  /** The response's `isError` flag. */
  | 'is-error'
  /** Claude Code `<tool_use_error>…</tool_use_error>`. */
  | 'tool-use-error'
  /** A structured result with an `error` message (gemini-cli `functionResponse.response.error`). */
  | 'error-field'
  /** `str_replace_editor` (SWE-agent, OpenHands) output starting with `ERROR:`. */
  | 'editor-error'
  /** SWE-agent's linter rejecting an edit ("Your proposed edit has introduced new syntax error(s)"). */
  | 'edit-rejected'
  /** A shell command's non-zero exit code, as the agent's harness reported it. */
  | 'exit-code';

/** Whether a tool call succeeded, and why it is judged a failure. */
export interface ToolResultClassification {
  readonly outcome: 'success' | 'error';
  /** Set when `outcome` is `error`. */
  readonly marker?: ToolErrorMarker;
  /** The exit code the harness reported for a shell command, when it did (also for successes). */
  readonly exitCode?: number;
}

const shellTools = new Set(['Bash', 'bash', 'run_shell_command', 'execute_bash', 'shell', 'local_shell', 'exec_command']);
const editorTools = new Set(['str_replace_editor', 'str_replace_based_edit_tool']);
const sweAgentEditTools = new Set(['bash', 'edit', 'insert', 'append']);

function structuredExitCode(result: JsonValue): number | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const record = result as { readonly [key: string]: JsonValue };
  const metadata = record['metadata'];
  const candidates = [
    record['exit_code'],
    record['exitCode'],
    record['returncode'],
    typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
      ? (metadata as { readonly [key: string]: JsonValue })['exit_code']
      : undefined,
  ];
  return candidates.find((value): value is number => typeof value === 'number' && Number.isInteger(value));
}

/**
 * Exit codes as agent harnesses print them around a command's output; each pattern is anchored where its harness
 * puts it, so a command that merely prints similar text does not match.
 */
function textualExitCode(text: string): number | undefined {
  // mini-swe-agent: `<returncode>1</returncode>` first.
  const returnCode = /^\s*<returncode>(-?\d+)<\/returncode>/.exec(text);
  if (returnCode !== null) return Number(returnCode[1]);
  // gemini-cli run_shell_command: a `Command: …` block with an `Exit Code: N` line.
  if (text.startsWith('Command: ')) {
    const exitLine = /\nExit Code: (-?\d+)\n?/.exec(text.slice(text.lastIndexOf('\nExit Code: ')));
    if (exitLine !== null) return Number(exitLine[1]);
  }
  // OpenHands: `[The command completed with exit code N.]` at the end.
  const completed = /\[The command completed with exit code (-?\d+)\.\]\s*$/.exec(text.slice(-200));
  if (completed !== null) return Number(completed[1]);
  // Claude Code Bash failures start with `Exit code N`.
  const claudeCode = /^Exit code (-?\d+)\n/.exec(text);
  if (claudeCode !== null) return Number(claudeCode[1]);
  return undefined;
}

function hasErrorField(result: JsonValue): boolean {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return false;
  const error = (result as { readonly [key: string]: JsonValue })['error'];
  return (typeof error === 'string' && error.trim() !== '') || (typeof error === 'object' && error !== null);
}

/**
 * Whether a tool call failed. Conservative: only the response's `isError` flag and markers that a harness writes
 * in a fixed place count, never words such as "error" inside ordinary output:
 *
 * 1. `isError: true` (every codec that knows the flag sets it).
 * 2. Claude Code's `<tool_use_error>` at the start of the result.
 * 3. A structured result with an `error` field (gemini-cli cancelled and failed calls).
 * 4. `str_replace_editor` output starting with `ERROR:` (SWE-agent, OpenHands).
 * 5. SWE-agent's "Your proposed edit has introduced new syntax error(s)" for `edit`/`insert`.
 * 6. For shell tools, a non-zero exit code: `exit_code` fields, mini-swe-agent `<returncode>N</returncode>`,
 *    gemini-cli `Exit Code: N`, OpenHands `[The command completed with exit code N.]`, Claude Code `Exit code N`.
 *    Note that `grep` with no match and `diff` with differences exit 1: they count as errors here; read
 *    `exitCode` to decide otherwise.
 *
 * `isError: false` does not override markers: several formats only flag that the tool ran, not that the command
 * succeeded. SWE-agent observations carry no exit code, so failed SWE-agent shell commands stay `success`.
 *
 * @param response - The `tool_response` block.
 * @param call - The call it answers, when known; its name is used when the response's `toolName` is empty.
 * @returns The outcome, the marker that decided an error, and the exit code when one was reported.
 * @example
 * ```ts
 * classifyToolResult({ type: 'tool_response', callId: 'c1', toolName: 'bash', result: '<returncode>2</returncode>\n<output>…' });
 * // { outcome: 'error', marker: 'exit-code', exitCode: 2 }
 * ```
 */
export function classifyToolResult(response: ToolResponseBlock, call?: ToolCallBlock): ToolResultClassification {
  const toolName = response.toolName !== '' ? response.toolName : (call?.name ?? '');
  const result = response.result;
  const text = toolResultText(result);
  const head = text.trimStart();
  const exitCode = shellTools.has(toolName) ? (structuredExitCode(result) ?? textualExitCode(text)) : undefined;
  const withExitCode = (classification: ToolResultClassification): ToolResultClassification =>
    exitCode === undefined ? classification : { ...classification, exitCode };

  if (response.isError === true) return withExitCode({ outcome: 'error', marker: 'is-error' });
  if (head.startsWith('<tool_use_error>')) return withExitCode({ outcome: 'error', marker: 'tool-use-error' });
  if (hasErrorField(result)) return withExitCode({ outcome: 'error', marker: 'error-field' });
  if (editorTools.has(toolName) && head.startsWith('ERROR:')) return { outcome: 'error', marker: 'editor-error' };
  if (sweAgentEditTools.has(toolName) && head.startsWith('Your proposed edit has introduced new syntax error')) {
    return { outcome: 'error', marker: 'edit-rejected' };
  }
  if (exitCode !== undefined && exitCode !== 0) return { outcome: 'error', marker: 'exit-code', exitCode };
  return withExitCode({ outcome: 'success' });
}
