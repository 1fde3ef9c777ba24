import { isJsonValue, type JsonValue } from '@ctx/core';

/**
 * `function.arguments` is a string the model wrote; it must come back byte-identical. The canonical `parameters`
 * is the parsed JSON when it parses (to a JSON value ctx can hold), else the raw string.
 */
export function parseToolCallArguments(raw: string): JsonValue {
  try {
    const parsed: unknown = JSON.parse(raw);
    return isJsonValue(parsed) ? parsed : raw;
  } catch {
    return raw;
  }
}

/** How parameters are written when no original string is known: strings as they are, the rest as compact JSON. */
export function serializeToolCallArguments(parameters: JsonValue): string {
  return typeof parameters === 'string' ? parameters : JSON.stringify(parameters);
}

/**
 * The arguments string to write: the original when it still says what `parameters` says (a strategy may have
 * edited the parameters since), else the serialized parameters.
 */
export function toolCallArgumentsFor(parameters: JsonValue, original: string | undefined): string {
  if (original !== undefined) {
    const originalParameters = parseToolCallArguments(original);
    if (originalParameters === parameters || JSON.stringify(originalParameters) === JSON.stringify(parameters)) {
      return original;
    }
  }
  return serializeToolCallArguments(parameters);
}
