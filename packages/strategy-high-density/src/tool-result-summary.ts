import type { ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import type { FileAccess, ToolCallSemantics, ToolResultClassification } from '@ctx/strategy-utils';

const maxKeyLength = 120;
const maxErrorExcerptLength = 100;

function firstLine(text: string, maxLength: number): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '')?.trim() ?? '';
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}

function describeAccess(access: FileAccess): string {
  const range = access.lineRange;
  if (range === undefined) return access.path;
  return `${access.path} lines ${range.start}-${range.end ?? 'end'}`;
}

/**
 * The parameter that says what the call did, in the order a model would re-run it by: the shell command, the file
 * it read or wrote (with its line range), or the pattern it listed or searched.
 */
function keyParameter(semantics: ToolCallSemantics | undefined): string {
  if (semantics === undefined) return '';
  if (semantics.command !== undefined) return firstLine(semantics.command, maxKeyLength);
  const access = semantics.reads[0] ?? semantics.writes[0];
  if (access !== undefined) return describeAccess(access);
  return semantics.globs[0] ?? '';
}

function describeOutcome(text: string, outcome: ToolResultClassification): string {
  if (outcome.outcome === 'error') {
    const code = outcome.exitCode === undefined ? '' : ` (exit ${outcome.exitCode})`;
    const excerpt = firstLine(text, maxErrorExcerptLength);
    return excerpt === '' ? `error${code}` : `error${code}: ${excerpt}`;
  }
  let lines = text === '' ? 0 : 1;
  for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', newline + 1)) lines++;
  if (text.endsWith('\n')) lines--;
  return `success (${lines === 1 ? '1 line' : `${lines} lines`})`;
}

/**
 * The one-line stand-in for a tool result that `compress()` leaves behind:
 * `[<tool> <key parameter>: <outcome> — re-run to view]`, e.g.
 * `[Read /repo/src/a.ts: success (120 lines) — re-run to view]` or
 * `[Bash npm test: error (exit 1): FAIL src/a.test.ts — re-run to view]`.
 *
 * @param response - The response being summarized.
 * @param call - The call it answers, when known.
 * @param semantics - The call's semantics, when known.
 * @param details - The result's text and outcome.
 * @returns The summary line.
 */
export function summarizeToolResult(
  response: ToolResponseBlock,
  call: ToolCallBlock | undefined,
  semantics: ToolCallSemantics | undefined,
  details: { readonly text: string; readonly outcome: ToolResultClassification },
): string {
  const tool = response.toolName !== '' ? response.toolName : (call?.name ?? 'tool');
  const key = keyParameter(semantics);
  return `[${tool}${key === '' ? '' : ` ${key}`}: ${describeOutcome(details.text, details.outcome)} — re-run to view]`;
}
