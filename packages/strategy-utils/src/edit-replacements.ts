import type { JsonValue, ToolCallBlock } from '@ctx/core';

/** One old → new text replacement an edit call asks for. */
export interface EditReplacement {
  readonly oldText: string;
  readonly newText: string;
  /** Replace every occurrence (`replace_all`, gemini-cli `expected_replacements` > 1). */
  readonly all: boolean;
}

type ParameterRecord = { readonly [key: string]: JsonValue };

function asRecord(value: JsonValue | undefined): ParameterRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ParameterRecord) : undefined;
}

function replacementOf(record: ParameterRecord): EditReplacement | undefined {
  const oldText = record.old_string ?? record.old_str;
  const newText = record.new_string ?? record.new_str ?? '';
  if (typeof oldText !== 'string' || oldText === '' || typeof newText !== 'string') return undefined;
  const expected = record.expected_replacements;
  return { oldText, newText, all: record.replace_all === true || (typeof expected === 'number' && expected > 1) };
}

/**
 * The text replacements of an edit call, in order: `old_string`/`new_string` (Claude Code `Edit`, gemini-cli
 * `replace`), `old_str`/`new_str` (`str_replace_editor`), or an `edits` list of those (Claude Code `MultiEdit`).
 * Which calls are edits, and of which file, comes from the tool semantics; this only reads the replacement
 * parameters those editors share.
 *
 * @param call - An edit call (semantics kind `edit`).
 * @returns The replacements, or undefined when the call is not a text replacement (a line insertion, `sed -i`, an
 *   undo) or its parameters are unreadable.
 */
export function editReplacementsOf(call: ToolCallBlock): readonly EditReplacement[] | undefined {
  const parameters = asRecord(call.parameters);
  if (parameters === undefined) return undefined;
  if (typeof parameters.command === 'string' && parameters.command !== 'str_replace') return undefined;
  const edits = parameters.edits;
  if (Array.isArray(edits)) {
    const replacements: EditReplacement[] = [];
    for (const edit of edits as readonly JsonValue[]) {
      const record = asRecord(edit);
      const replacement = record === undefined ? undefined : replacementOf(record);
      if (replacement === undefined) return undefined;
      replacements.push(replacement);
    }
    return replacements.length === 0 ? undefined : replacements;
  }
  const single = replacementOf(parameters);
  return single === undefined ? undefined : [single];
}

/**
 * Applies a replacement the way the editing tools do.
 *
 * @param content - The file content before the edit.
 * @param replacement - The replacement.
 * @returns The content after it, or undefined when it does not apply cleanly: the old text is missing, or appears
 *   more than once for a single replacement (the tool would have refused, so this is not the text it edited).
 */
export function applyEditReplacement(content: string, replacement: EditReplacement): string | undefined {
  const first = content.indexOf(replacement.oldText);
  if (first === -1) return undefined;
  if (replacement.all) return content.split(replacement.oldText).join(replacement.newText);
  if (content.indexOf(replacement.oldText, first + 1) !== -1) return undefined;
  return content.slice(0, first) + replacement.newText + content.slice(first + replacement.oldText.length);
}
