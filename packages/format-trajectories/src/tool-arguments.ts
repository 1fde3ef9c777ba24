import type { JsonObject, JsonValue } from '@ctx/core';

/**
 * How a recorded `arguments` string was serialized, so it can be written again byte for byte from the parsed
 * parameters instead of being stored twice:
 * - `compact`: `JSON.stringify` (`{"command":"ls"}`), what OpenAI-style APIs usually return;
 * - `python`: Python's `json.dumps` defaults (`{"command": "ls"}`, non-ASCII as `\uXXXX`), what litellm-based agents
 *   (OpenHands) record;
 * - `python-unicode`: `json.dumps(..., ensure_ascii=False)`.
 */
type ArgumentsStyle = 'compact' | 'python' | 'python-unicode';

const styles: readonly ArgumentsStyle[] = ['compact', 'python', 'python-unicode'];

function escapeNonAscii(json: string): string {
  // Python's ensure_ascii escapes everything outside printable ASCII, per UTF-16 code unit, in lowercase hex.
  return json.replace(/[^\x20-\x7e]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function formatPython(value: JsonValue, ensureAscii: boolean): string {
  if (value === null || typeof value !== 'object') {
    const json = JSON.stringify(value);
    return ensureAscii && typeof value === 'string' ? escapeNonAscii(json) : json;
  }
  if (Array.isArray(value)) {
    return `[${(value as readonly JsonValue[]).map((item) => formatPython(item, ensureAscii)).join(', ')}]`;
  }
  const fields = Object.entries(value as Readonly<Record<string, JsonValue>>).map(
    ([key, item]) => `${formatPython(key, ensureAscii)}: ${formatPython(item, ensureAscii)}`,
  );
  return `{${fields.join(', ')}}`;
}

function format(value: JsonValue, style: ArgumentsStyle): string {
  switch (style) {
    case 'compact':
      return JSON.stringify(value);
    case 'python':
      return formatPython(value, true);
    case 'python-unicode':
      return formatPython(value, false);
  }
}

/** Parsed tool-call arguments and what is needed to write the original string again. */
export interface DecodedToolArguments {
  /** The parsed arguments; the raw string itself when it is not valid JSON (spec 000 EC-050). */
  readonly parameters: JsonValue;
  /** `{ argumentsStyle }` when a known serialization reproduces the string, `{ arguments: raw }` otherwise. */
  readonly layout: Readonly<Record<string, JsonValue>>;
}

/**
 * Parses an OpenAI-style `function.arguments` string.
 *
 * @param raw - The recorded arguments string.
 * @returns The parameters and the layout to pass to {@link encodeToolArguments}.
 * @example
 * ```ts
 * decodeToolArguments('{"command": "ls"}'); // { parameters: { command: 'ls' }, layout: { argumentsStyle: 'python' } }
 * ```
 */
export function decodeToolArguments(raw: string): DecodedToolArguments {
  let parameters: JsonValue;
  try {
    parameters = JSON.parse(raw) as JsonValue;
  } catch {
    return { parameters: raw, layout: {} };
  }
  const style = styles.find((candidate) => format(parameters, candidate) === raw);
  return { parameters, layout: style === undefined ? { arguments: raw } : { argumentsStyle: style } };
}

/**
 * Writes tool-call parameters back as an `arguments` string: byte-identical to the recorded one while the parameters
 * are unchanged, `JSON.stringify` (or the recorded style) once a strategy changed them.
 *
 * @param parameters - The tool call's parameters.
 * @param layout - The block's `providerMetadata.trajectory`, as written by {@link decodeToolArguments}; undefined for
 *   calls from other formats.
 * @returns The arguments string.
 */
export function encodeToolArguments(parameters: JsonValue, layout: JsonObject | undefined): string {
  const style = layout?.argumentsStyle;
  if (typeof style === 'string' && (styles as readonly string[]).includes(style)) {
    return format(parameters, style as ArgumentsStyle);
  }
  const raw = layout?.arguments;
  if (typeof raw === 'string') {
    const recorded = decodeToolArguments(raw).parameters;
    if (JSON.stringify(recorded) === JSON.stringify(parameters)) return raw;
  }
  // A string without a recorded style is a malformed call's raw text (spec 000 EC-050): it goes back as it was.
  if (typeof parameters === 'string') return parameters;
  return JSON.stringify(parameters);
}
