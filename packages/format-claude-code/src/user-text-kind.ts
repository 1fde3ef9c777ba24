import { getFirstText, type ClaudeCodeRecord } from './claude-code-record.js';

/**
 * Where the text of a user record came from. Only `typed` is text the user typed as a prompt; the rest is what
 * Claude Code wrote into the user turn on their behalf. Retention checks use it to tell the two apart.
 *
 * - `typed`: a prompt the user typed.
 * - `meta`: `isMeta` records (skill and command expansions, caveats).
 * - `command`: a slash or shell command the user ran (`<command-name>`, `<bash-input>` wrappers).
 * - `command-output`: its output (`<local-command-stdout>`, `<bash-stdout>`, …).
 * - `system-reminder`: `<system-reminder>` text (hook output, reminders).
 * - `task-notification`: a background task finished (`<task-notification>`).
 * - `interruption`: `[Request interrupted by user…]`.
 * - `compaction-summary`: the summary a compaction left (`isCompactSummary`).
 */
export type ClaudeCodeUserTextKind =
  | 'typed'
  | 'meta'
  | 'command'
  | 'command-output'
  | 'system-reminder'
  | 'task-notification'
  | 'interruption'
  | 'compaction-summary';

const prefixKinds: readonly (readonly [string, ClaudeCodeUserTextKind])[] = [
  ['<system-reminder>', 'system-reminder'],
  ['<command-name>', 'command'],
  ['<command-message>', 'command'],
  ['<command-args>', 'command'],
  ['<bash-input>', 'command'],
  ['<local-command-stdout>', 'command-output'],
  ['<local-command-stderr>', 'command-output'],
  ['<bash-stdout>', 'command-output'],
  ['<bash-stderr>', 'command-output'],
  ['<local-command-caveat>', 'meta'],
  ['<task-notification>', 'task-notification'],
  ['[Request interrupted by user', 'interruption'],
];

/**
 * Classifies the text of a user record (see {@link ClaudeCodeUserTextKind}).
 *
 * @param record - A user record.
 * @returns The kind; `typed` only for text the user typed.
 * @example
 * ```ts
 * classifyUserText(record); // 'command-output' for "<local-command-stdout>Reconnected</local-command-stdout>"
 * ```
 */
export function classifyUserText(record: ClaudeCodeRecord): ClaudeCodeUserTextKind {
  if (record.value.isCompactSummary === true) return 'compaction-summary';
  const text = (getFirstText(record) ?? '').trimStart();
  for (const [prefix, kind] of prefixKinds) {
    if (text.startsWith(prefix)) return kind;
  }
  return record.value.isMeta === true ? 'meta' : 'typed';
}
