import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairValidHistory } from '../test-support/history-arbitrary.js';
import { copyValidEntry } from './copy-valid-entry.js';
import { deepFreeze } from './deep-freeze.js';
import { historyEntrySchema } from './history-entry.js';
import { propertyRuns } from '@ctx/test-properties';

/** What the schema path stores for `input`: the parse result, structured-cloned and deep-frozen. */
function schemaPath(input: unknown): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  const result = historyEntrySchema.safeParse(input);
  return result.success ? { ok: true, value: deepFreeze(structuredClone(result.data)) } : { ok: false };
}

/** A value with its key order spelled out, so two values compare equal only with keys in the same order. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value === 'object' && value !== null) {
    return Object.keys(value).map((key) => [key, ordered((value as Record<string, unknown>)[key])]);
  }
  return value;
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

/** Shuffles the keys of an object (deterministically from `seed`): the schema's output order must not depend on them. */
function withKeyOrder(object: Record<string, unknown>, seed: number): Record<string, unknown> {
  const keys = Object.keys(object);
  let state = seed;
  for (let index = keys.length - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const other = state % (index + 1);
    [keys[index], keys[other]] = [keys[other] as string, keys[index] as string];
  }
  const shuffled: Record<string, unknown> = {};
  for (const key of keys) shuffled[key] = object[key];
  return shuffled;
}

// Values that are wrong somewhere: the fast path must refuse them (or agree with the schema that they are fine).
const wrong = fc.constantFrom<unknown>(undefined, null, 0, -1, 1.5, Number.NaN, '', 'x', true, {}, [], new Date(0));
/** `[1, <hole>, 2]`: a structured clone keeps the hole, so the fast path leaves sparse arrays to the schema path. */
const sparse: unknown = Object.assign(new Array<number>(3), { 0: 1, 2: 2 });
const json = fc.oneof(
  { weight: 30, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(Number.NaN, undefined, new Date(0), sparse, { value: undefined }) },
);
const maybe = (arbitrary: fc.Arbitrary<unknown>) => fc.oneof({ weight: 30, arbitrary }, { weight: 1, arbitrary: wrong });
const providerMetadata = maybe(
  fc.dictionary(fc.oneof({ weight: 20, arbitrary: fc.constantFrom('anthropic', 'claudeCode') }, { weight: 1, arbitrary: fc.constant('__proto__') }), fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 2 }), {
    maxKeys: 2,
  }),
);
const extraKeys = fc.oneof(
  { weight: 30, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.record({ extra: fc.string() }) },
);

/**
 * An object with the given fields (the optional ones maybe absent; a required one absent now and then), maybe an
 * unknown key, keys in random order.
 */
function objectOf(
  fields: Record<string, fc.Arbitrary<unknown>>,
  required: readonly string[] = [],
): fc.Arbitrary<Record<string, unknown>> {
  const requiredKeys = fc.oneof(
    { weight: 30, arbitrary: fc.constant([...required]) },
    { weight: 1, arbitrary: fc.constant<string[]>([]) },
  );
  return fc
    .tuple(
      requiredKeys.chain((keys) => fc.record(fields, { requiredKeys: [...keys] })),
      extraKeys,
      fc.nat(),
    )
    .map(([known, extra, seed]) => withKeyOrder({ ...known, ...extra }, seed));
}

const blocks = {
  text: objectOf({ type: fc.constant('text'), text: maybe(fc.string()), providerMetadata }, ['type', 'text']),
  tool_call: objectOf({
    type: fc.constant('tool_call'),
    id: maybe(fc.string({ minLength: 1 })),
    name: maybe(fc.constantFrom('Read', 'Bash')),
    parameters: json,
    providerMetadata,
  }, ['type', 'id', 'name', 'parameters']),
  tool_response: objectOf({
    type: fc.constant('tool_response'),
    callId: maybe(fc.string({ minLength: 1 })),
    toolName: maybe(fc.string()),
    result: json,
    isError: maybe(fc.boolean()),
    providerMetadata,
  }, ['type', 'callId', 'toolName', 'result']),
  thinking: objectOf({
    type: fc.constant('thinking'),
    thought: maybe(fc.string()),
    signature: maybe(fc.string()),
    redacted: maybe(fc.boolean()),
    providerMetadata,
  }, ['type', 'thought']),
  media: fc.oneof(
    ...(['data', 'url', 'both'] as const).map((source, index) =>
      objectOf(
        {
          type: fc.constant('media'),
          mediaType: maybe(fc.constantFrom('image/png', 'application/pdf')),
          ...(source === 'url' ? {} : { data: maybe(fc.base64String({ maxLength: 8 })) }),
          ...(source === 'data' ? {} : { url: maybe(fc.webUrl()) }),
          filename: maybe(fc.string()),
          providerMetadata,
        },
        // Exactly one of data and url; with both, one of them is left out now and then.
        index < 2 ? ['type', 'mediaType', source] : ['type', 'mediaType'],
      ),
    ),
  ),
};
const speakers = { human: ['text', 'media'], ai: ['text', 'tool_call', 'thinking', 'media'], tool: ['text', 'tool_response', 'media'] } as const;
/** Mostly blocks the speaker may hold; now and then any block, or no block at all. */
function blockFor(speaker: keyof typeof speakers): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.oneof(...speakers[speaker].map((type) => blocks[type])) },
    { weight: 1, arbitrary: fc.oneof(...Object.values(blocks)) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 'text', { type: 'video' }) },
  );
}
const tokenCount = maybe(fc.nat());
const metadata = maybe(
  objectOf({
    id: maybe(fc.string()),
    timestamp: maybe(fc.string()),
    model: maybe(fc.string()),
    usage: maybe(objectOf({ inputTokens: tokenCount, outputTokens: tokenCount, totalTokens: tokenCount })),
    providerMetadata,
  }),
);
const entry = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('human', 'ai', 'tool') },
  { weight: 1, arbitrary: fc.constant('robot') },
).chain((speaker) =>
  objectOf(
    {
      speaker: fc.constant(speaker),
      blocks: maybe(fc.array(blockFor(speaker === 'robot' ? 'human' : speaker), { maxLength: 4 })),
      metadata,
    },
    ['speaker', 'blocks'],
  ),
);

describe('copyValidEntry', () => {
  it('should accept only entries the schema accepts, and return exactly what the schema path stores', () => {
    fc.assert(
      fc.property(entry, (input) => {
        const copy = copyValidEntry(input);
        if (copy === undefined) return;
        const reference = schemaPath(input);
        expect(reference.ok).toBe(true);
        if (!reference.ok) return;
        expect(copy).toStrictEqual(reference.value);
        expect(ordered(copy)).toStrictEqual(ordered(reference.value));
        expect(isDeepFrozen(copy)).toBe(true);
      }),
      { numRuns: propertyRuns(1500) },
    );
  });

  it('should take well-formed entries without falling back to the schema', () => {
    fc.assert(
      fc.property(pairValidHistory, (history) => {
        for (const item of history) expect(copyValidEntry(structuredClone(item))).toStrictEqual(item);
      }),
    );
  });

  it('should leave the input unfrozen, so freezing never reaches the caller objects', () => {
    const parameters = { path: 'a.ts', options: { lines: [1, 2] } };
    const input = { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c1', name: 'Read', parameters }] };
    const copy = copyValidEntry(input);
    expect(copy).toStrictEqual(input);
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(parameters.options)).toBe(false);
  });
});
