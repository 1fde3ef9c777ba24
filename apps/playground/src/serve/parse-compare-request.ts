import { findPrototypeKeys } from '@ctx/core';
import { InvalidServeRequestError } from './invalid-serve-request-error.js';
import type { CompareRequest, TranscriptSource } from './serve-api.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): never {
  throw new InvalidServeRequestError({ message });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value) ?? ''}`;
}

function readSource(value: unknown): TranscriptSource {
  if (!isObject(value)) fail(`Expected \`source\` to be an object such as {"kind":"demo"}, got ${describe(value)}`);
  switch (value.kind) {
    case 'demo':
      return { kind: 'demo' };
    case 'recent':
      if (typeof value.path !== 'string' || value.path === '') fail(`Expected \`source.path\` to be the path of a listed recent session, got ${describe(value.path)}`);
      return { kind: 'recent', path: value.path };
    case 'upload':
      if (typeof value.name !== 'string' || value.name.trim() === '') fail(`Expected \`source.name\` to be the file's name, got ${describe(value.name)}`);
      if (typeof value.text !== 'string') fail(`Expected \`source.text\` to be the file's content as a string, got ${describe(value.text)}`);
      return { kind: 'upload', name: value.name, text: value.text };
    default:
      return fail(`Expected \`source.kind\` to be "upload", "recent" or "demo", got ${describe(value.kind)}`);
  }
}

function readNames(body: JsonObject, key: 'strategies' | 'presets'): string[] {
  const value = body[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && name.trim() !== '' && !name.includes(','))) {
    fail(`Expected \`${key}\` to be an array of names (no commas), got ${describe(value)}`);
  }
  return value as string[];
}

function readNumber(body: JsonObject, key: 'window' | 'budget' | 'threshold' | 'runs'): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`Expected \`${key}\` to be a number, got ${describe(value)}`);
  return value;
}

function readString(body: JsonObject, key: 'tokenizer' | 'costModel'): string | undefined {
  const value = body[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') fail(`Expected \`${key}\` to be a string, got ${describe(value)}`);
  return value;
}

/**
 * Reads the body of `POST /api/compare`: checks every field's type (ranges and names are checked afterwards by the
 * same code as `ctx compare`).
 *
 * @throws {@link InvalidServeRequestError} naming the field: what was expected and what was found.
 */
export function parseCompareRequest(text: string): CompareRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new InvalidServeRequestError({ message: `Expected a JSON body, got text that does not parse (${(error as Error).message})`, cause: error });
  }
  if (!isObject(body)) fail(`Expected the body to be a JSON object with \`source\` and \`strategies\`, got ${describe(body)}`);
  const strategies = readNames(body, 'strategies');
  const presets = readNames(body, 'presets');
  if (strategies.length === 0 && presets.length === 0) fail('Expected at least one strategy or preset to run; choose one in `strategies` or `presets`');
  const settings = body.settings;
  if (settings !== undefined) {
    if (!isObject(settings) || !Object.values(settings).every(isObject)) {
      fail(`Expected \`settings\` to be an object keyed by strategy name, each value an object of settings, got ${describe(settings)}`);
    }
    const [forbidden] = findPrototypeKeys(settings);
    if (forbidden !== undefined) fail(`settings: ${forbidden.path}: ${forbidden.message}`);
  }
  const optional = {
    window: readNumber(body, 'window'),
    budget: readNumber(body, 'budget'),
    threshold: readNumber(body, 'threshold'),
    runs: readNumber(body, 'runs'),
    tokenizer: readString(body, 'tokenizer'),
    costModel: readString(body, 'costModel'),
  };
  return {
    source: readSource(body.source),
    strategies,
    presets,
    ...(settings === undefined ? {} : { settings: settings as Record<string, Record<string, unknown>> }),
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}
