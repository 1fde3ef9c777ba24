import type { ContentBlock } from './content-block.js';
import type { EntryMetadata, HistoryEntry, Speaker } from './history-entry.js';
import type { JsonValue } from './json-value.js';
import type { ProviderMetadata } from './provider-metadata.js';
import { freezeValidated, isValidated } from './validated-objects.js';

/*
 * The fast path of entry validation: one walk that checks an entry, builds its frozen private copy and reuses every
 * part the parser validated and froze before (a strategy's rebuilt entry keeps most of its blocks, metadata and
 * JSON subtrees). It accepts a subset of what `historyEntrySchema` accepts and returns the same value that
 * `deepFreeze(structuredClone(schema.parse(input)))` does (keys in schema order; optional keys present with
 * `undefined` kept), so it changes no result: anything it is not sure about (an invalid entry, an unknown key, a
 * class instance, a sparse array, a `__proto__` key) makes it return undefined, and the caller takes the schema path,
 * which validates the same input and names every problem. Zod, `structuredClone` and a second freezing walk took
 * 8–12 ms for every entry of the largest corpus sessions (a quarter of one tokenization pass and more); this walk
 * takes 1.5–3 ms, and nothing for reused parts.
 */

/** Returned by the copiers below when the input is not on the fast path. */
const notSure = Symbol('not sure');
type NotSure = typeof notSure;

type PlainObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * True when `input` has no own enumerable key besides the `knownPresent` known ones found (strict objects refuse
 * unknown keys).
 */
function hasOnlyKnownKeys(input: PlainObject, knownPresent: number): boolean {
  return Object.keys(input).length === knownPresent;
}

/**
 * Copies a JSON value into frozen private containers. With `asBlockValue`, a new outermost container is marked
 * validated as JSON: it is the part a strategy reuses whole; marking every nested container costs more than the rare
 * rebuild sharing one saves.
 */
function copyJson(value: unknown, asBlockValue = false): JsonValue | NotSure {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : notSure;
    case 'object': {
      if (value === null) return null;
      if (isValidated(value, 'json')) return value as JsonValue;
      if (Array.isArray(value)) {
        const items = value as readonly unknown[];
        const copy: JsonValue[] = new Array<JsonValue>(items.length);
        for (let index = 0; index < items.length; index++) {
          if (!(index in items)) return notSure;
          const item = copyJson(items[index]);
          if (item === notSure) return notSure;
          copy[index] = item;
        }
        return asBlockValue ? freezeValidated(copy, 'json') : Object.freeze(copy);
      }
      if (!isPlainObject(value)) return notSure;
      const copy: Record<string, JsonValue | undefined> = {};
      for (const key of Object.keys(value)) {
        if (key === '__proto__') return notSure;
        const item = value[key];
        // JSON drops undefined properties; they are tolerated and kept, as a structured clone keeps them.
        if (item === undefined) {
          copy[key] = undefined;
          continue;
        }
        const copied = copyJson(item);
        if (copied === notSure) return notSure;
        copy[key] = copied;
      }
      return (asBlockValue ? freezeValidated(copy, 'json') : Object.freeze(copy)) as JsonValue;
    }
    default:
      return notSure;
  }
}

/** Copies a block's parameters or result (its outermost container marked validated as JSON). */
function copyBlockValue(value: unknown): JsonValue | NotSure {
  return copyJson(value, true);
}

function copyProviderMetadata(value: unknown): ProviderMetadata | NotSure {
  if (isValidated(value, 'provider-metadata')) return value as ProviderMetadata;
  if (!isPlainObject(value)) return notSure;
  const copy: Record<string, Record<string, JsonValue>> = {};
  for (const provider of Object.keys(value)) {
    const fields = value[provider];
    if (provider === '__proto__' || !isPlainObject(fields)) return notSure;
    const fieldsCopy: Record<string, JsonValue> = {};
    for (const key of Object.keys(fields)) {
      if (key === '__proto__') return notSure;
      // A record value must be a JSON value: undefined is refused here, unlike inside a JSON object.
      const item = fields[key] === undefined ? notSure : copyJson(fields[key]);
      if (item === notSure) return notSure;
      fieldsCopy[key] = item;
    }
    copy[provider] = Object.freeze(fieldsCopy);
  }
  freezeValidated(copy, 'provider-metadata');
  return copy;
}

/**
 * Copies the optional fields `keys` of `input` into `copy`, in the given order, checking each with `check`. A key
 * present with the value undefined is kept as such (an optional field accepts undefined). Returns how many of the
 * keys were present, or notSure.
 */
function copyOptional(
  input: PlainObject,
  copy: PlainObject,
  keys: readonly string[],
  check: (key: string, value: unknown) => unknown,
): number | NotSure {
  let present = 0;
  for (const key of keys) {
    if (!Object.hasOwn(input, key)) continue;
    present += 1;
    const value = input[key];
    if (value === undefined) {
      copy[key] = undefined;
      continue;
    }
    const checked = check(key, value);
    if (checked === notSure) return notSure;
    copy[key] = checked;
  }
  return present;
}

const asString = (_key: string, value: unknown): unknown => (typeof value === 'string' ? value : notSure);
const asBoolean = (_key: string, value: unknown): unknown => (typeof value === 'boolean' ? value : notSure);
const asProviderMetadata = (_key: string, value: unknown): unknown => copyProviderMetadata(value);
const asTokenCount = (_key: string, value: unknown): unknown =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : notSure;
const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function copyBlock(value: unknown): ContentBlock | NotSure {
  if (isValidated(value, 'block')) return value as ContentBlock;
  if (!isPlainObject(value)) return notSure;
  const copy: PlainObject = {};
  let required: number;
  let optional: number | NotSure;
  switch (value.type) {
    case 'text':
      if (typeof value.text !== 'string') return notSure;
      copy.type = 'text';
      copy.text = value.text;
      required = 2;
      optional = copyOptional(value, copy, ['providerMetadata'], asProviderMetadata);
      break;
    case 'tool_call': {
      if (!nonEmptyString(value.id) || !nonEmptyString(value.name) || !Object.hasOwn(value, 'parameters')) return notSure;
      const parameters = copyBlockValue(value.parameters);
      if (parameters === notSure) return notSure;
      copy.type = 'tool_call';
      copy.id = value.id;
      copy.name = value.name;
      copy.parameters = parameters;
      required = 4;
      optional = copyOptional(value, copy, ['providerMetadata'], asProviderMetadata);
      break;
    }
    case 'tool_response': {
      if (!nonEmptyString(value.callId) || typeof value.toolName !== 'string' || !Object.hasOwn(value, 'result')) {
        return notSure;
      }
      const result = copyBlockValue(value.result);
      if (result === notSure) return notSure;
      copy.type = 'tool_response';
      copy.callId = value.callId;
      copy.toolName = value.toolName;
      copy.result = result;
      required = 4;
      optional = sumPresent(
        copyOptional(value, copy, ['isError'], asBoolean),
        copyOptional(value, copy, ['providerMetadata'], asProviderMetadata),
      );
      break;
    }
    case 'thinking':
      if (typeof value.thought !== 'string') return notSure;
      copy.type = 'thinking';
      copy.thought = value.thought;
      required = 2;
      optional = sumPresent(
        copyOptional(value, copy, ['signature'], asString),
        copyOptional(value, copy, ['redacted'], asBoolean),
        copyOptional(value, copy, ['providerMetadata'], asProviderMetadata),
      );
      break;
    case 'media':
      if (!nonEmptyString(value.mediaType)) return notSure;
      copy.type = 'media';
      copy.mediaType = value.mediaType;
      required = 2;
      optional = copyOptional(value, copy, ['data', 'url', 'filename', 'providerMetadata'], (key, item) =>
        key === 'providerMetadata' ? copyProviderMetadata(item) : asString(key, item),
      );
      // Exactly one of data and url (the schema's refinement treats undefined as absent).
      if ((copy.data === undefined) === (copy.url === undefined)) return notSure;
      break;
    default:
      return notSure;
  }
  if (optional === notSure || !hasOnlyKnownKeys(value, required + optional)) return notSure;
  freezeValidated(copy, 'block');
  return copy as unknown as ContentBlock;
}

function sumPresent(...counts: readonly (number | NotSure)[]): number | NotSure {
  let total = 0;
  for (const count of counts) {
    if (count === notSure) return notSure;
    total += count;
  }
  return total;
}

const usageKeys = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'totalTokens'] as const;

function copyUsage(value: unknown): unknown {
  if (!isPlainObject(value)) return notSure;
  const copy: PlainObject = {};
  const present = copyOptional(value, copy, usageKeys, asTokenCount);
  if (present === notSure || !hasOnlyKnownKeys(value, present)) return notSure;
  return Object.freeze(copy);
}

function copyEntryMetadata(value: unknown): EntryMetadata | NotSure {
  if (isValidated(value, 'entry-metadata')) return value as EntryMetadata;
  if (!isPlainObject(value)) return notSure;
  const copy: PlainObject = {};
  const present = copyOptional(value, copy, ['id', 'timestamp', 'model', 'usage', 'providerMetadata'], (key, item) => {
    if (key === 'usage') return copyUsage(item);
    if (key === 'providerMetadata') return copyProviderMetadata(item);
    return asString(key, item);
  });
  if (present === notSure || !hasOnlyKnownKeys(value, present)) return notSure;
  freezeValidated(copy, 'entry-metadata');
  return copy;
}

const allowedBlocks: Readonly<Record<Speaker, ReadonlySet<ContentBlock['type']>>> = {
  human: new Set(['text', 'media']),
  ai: new Set(['text', 'tool_call', 'thinking', 'media']),
  tool: new Set(['text', 'tool_response', 'media']),
};

/**
 * Validates `input` as a history entry and returns its frozen private copy, reusing parts validated before; or
 * undefined when the input is not on the fast path (then validate it with the schema, which reports why).
 */
export function copyValidEntry(input: unknown): HistoryEntry | undefined {
  if (isValidated(input, 'entry')) return input as HistoryEntry;
  if (!isPlainObject(input)) return undefined;
  const { speaker, blocks } = input;
  if (speaker !== 'human' && speaker !== 'ai' && speaker !== 'tool') return undefined;
  if (!Array.isArray(blocks)) return undefined;
  const allowed = allowedBlocks[speaker];
  const items = blocks as readonly unknown[];
  const blocksCopy: ContentBlock[] = new Array<ContentBlock>(items.length);
  for (let index = 0; index < items.length; index++) {
    if (!(index in items)) return undefined;
    const block = copyBlock(items[index]);
    if (block === notSure || !allowed.has(block.type)) return undefined;
    blocksCopy[index] = block;
  }
  const copy: PlainObject = { speaker, blocks: Object.freeze(blocksCopy) };
  const optional = copyOptional(input, copy, ['metadata'], (_key, item) => copyEntryMetadata(item));
  if (optional === notSure || !hasOnlyKnownKeys(input, 2 + optional)) return undefined;
  freezeValidated(copy, 'entry');
  return copy as unknown as HistoryEntry;
}
