import type { JsonValue } from '@ctx/core';

/** A tool call's parameters when they are a JSON object; undefined for null, strings, arrays (EC-050, EC-051). */
export type ParameterObject = { readonly [key: string]: JsonValue };

/**
 * The parameters as an object, or undefined when they are not one. Some recorders keep the arguments as a JSON
 * string (OpenAI `function.arguments`); a string holding a JSON object is parsed, anything else is not an object.
 */
export function asParameterObject(parameters: JsonValue): ParameterObject | undefined {
  if (typeof parameters === 'string') {
    const trimmed = parameters.trimStart();
    if (!trimmed.startsWith('{')) return undefined;
    try {
      return asParameterObject(JSON.parse(trimmed) as JsonValue);
    } catch {
      return undefined;
    }
  }
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) return undefined;
  return parameters as ParameterObject;
}

/** The first of `keys` whose value is a non-empty string. */
export function readString(parameters: ParameterObject | undefined, ...keys: readonly string[]): string | undefined {
  if (parameters === undefined) return undefined;
  for (const key of keys) {
    const value = parameters[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/**
 * The first of `keys` whose value is a finite number, or a string of digits (models often quote numbers).
 */
export function readNumber(parameters: ParameterObject | undefined, ...keys: readonly string[]): number | undefined {
  if (parameters === undefined) return undefined;
  for (const key of keys) {
    const value = parameters[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  }
  return undefined;
}

/** The strings of the first of `keys` holding an array (non-strings skipped), or a lone string as a list of one. */
export function readStringList(parameters: ParameterObject | undefined, ...keys: readonly string[]): string[] {
  if (parameters === undefined) return [];
  for (const key of keys) {
    const value = parameters[key];
    if (typeof value === 'string' && value !== '') return [value];
    if (Array.isArray(value)) {
      return (value as readonly JsonValue[]).filter((item): item is string => typeof item === 'string' && item !== '');
    }
  }
  return [];
}
