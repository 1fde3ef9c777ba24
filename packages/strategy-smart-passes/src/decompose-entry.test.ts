import { CompressionStrategyError, parseHistoryEntry, type ContentBlock, type HistoryEntry, type JsonValue } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvePropertyRuns } from '@ctx/conformance';
import { decomposeEntry, recomposeEntry } from './decompose-entry.js';

const mixed: HistoryEntry = {
  speaker: 'ai',
  blocks: [
    { type: 'thinking', thought: 'Read both files first.', signature: 'sig' },
    { type: 'text', text: 'Reading them.' },
    { type: 'tool_call', id: 'c1', name: 'Read', parameters: { file_path: '/a.ts' } },
    { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
    { type: 'text', text: 'And the other.' },
    { type: 'tool_call', id: 'c2', name: 'Read', parameters: { file_path: '/b.ts' }, providerMetadata: { anthropic: { cache: true } } },
  ],
  metadata: { id: 'm1', model: 'claude' },
};

describe('decomposeEntry', () => {
  it('FR-SM-001 decomposition should extract message text, every tool parameter and every tool result', () => {
    expect(decomposeEntry(mixed)).toEqual({
      messageText: 'Reading them.\n\nAnd the other.',
      toolParameters: [{ file_path: '/a.ts' }, { file_path: '/b.ts' }],
      toolResults: null,
    });
    const results = decomposeEntry({
      speaker: 'tool',
      blocks: [
        { type: 'tool_response', callId: 'c1', toolName: 'Read', result: 'A' },
        { type: 'tool_response', callId: 'c2', toolName: 'Read', result: [{ type: 'text', text: 'B' }] },
      ],
    });
    expect(results).toEqual({ messageText: null, toolParameters: null, toolResults: ['A', [{ type: 'text', text: 'B' }]] });
  });

  it('FR-SM-001 should give null for every type an entry does not have (an empty entry has none)', () => {
    expect(decomposeEntry({ speaker: 'human', blocks: [] })).toEqual({ messageText: null, toolParameters: null, toolResults: null });
  });
});

describe('recomposeEntry', () => {
  it('FR-SM-001 recomposition should put changed content back in place, keeping ids, order, thinking, media and metadata', () => {
    const parts = decomposeEntry(mixed);
    const next = recomposeEntry(mixed, { ...parts, messageText: 'Short.', toolParameters: [parts.toolParameters?.[0] ?? null, { file_path: '⟨ Content suppressed ⟩' }] });
    expect(next.metadata).toBe(mixed.metadata);
    expect(next.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call', 'media', 'tool_call']);
    expect(next.blocks[0]).toBe(mixed.blocks[0]);
    expect(next.blocks[1]).toEqual({ type: 'text', text: 'Short.' });
    expect(next.blocks[2]).toBe(mixed.blocks[2]);
    expect(next.blocks[4]).toEqual({ ...mixed.blocks[5], parameters: { file_path: '⟨ Content suppressed ⟩' } });
    expect(() => parseHistoryEntry(next)).not.toThrow();
  });

  it('FR-SM-007 edge cases: should reject parts that do not match the entry, naming what was expected', () => {
    const parts = decomposeEntry(mixed);
    expect(() => recomposeEntry(mixed, { ...parts, toolParameters: [{}] })).toThrow(/Expected 2 tool parameters .* found 1/);
    expect(CompressionStrategyError.isInstance(captured(() => recomposeEntry(mixed, { ...parts, messageText: null })))).toBe(true);
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const text = fc.oneof(fc.constant(''), fc.string({ maxLength: 40 }));
const json: fc.Arbitrary<JsonValue> = fc.oneof(
  text,
  fc.integer(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), text, { maxKeys: 3 }),
);
const providerMetadata = fc.option(fc.constant({ vendor: { flag: true } }), { nil: undefined });
const withMetadata = <T extends object>(block: T, metadata: object | undefined): T => (metadata === undefined ? block : { ...block, providerMetadata: metadata });
const textBlock = fc.tuple(text, providerMetadata).map(([value, metadata]) => withMetadata({ type: 'text' as const, text: value }, metadata));
const media = fc.constant<ContentBlock>({ type: 'media', mediaType: 'image/png', data: 'AAAA' });
const thinking = fc.tuple(text, fc.boolean()).map(([thought, redacted]): ContentBlock => ({ type: 'thinking', thought, signature: 's', ...(redacted ? { redacted } : {}) }));
const toolCall = fc.tuple(fc.string({ minLength: 1, maxLength: 5 }), json, providerMetadata).map(([id, parameters, metadata]) =>
  withMetadata({ type: 'tool_call' as const, id, name: 'Read', parameters }, metadata),
);
const toolResponse = fc.tuple(fc.string({ minLength: 1, maxLength: 5 }), json, fc.option(fc.boolean(), { nil: undefined })).map(([callId, value, isError]) => ({
  type: 'tool_response' as const,
  callId,
  toolName: 'Read',
  result: value,
  ...(isError === undefined ? {} : { isError }),
}));
const entryMetadata = fc.option(fc.record({ id: fc.string(), providerMetadata: fc.constant({ claudeCode: { cwd: '/repo' } }) }), { nil: undefined });
const entry: fc.Arbitrary<HistoryEntry> = fc.oneof(
  fc.tuple(fc.array(fc.oneof(textBlock, media), { maxLength: 4 }), entryMetadata).map(([blocks, metadata]) => ({ speaker: 'human' as const, blocks, ...(metadata === undefined ? {} : { metadata }) })),
  fc.tuple(fc.array(fc.oneof(textBlock, media, thinking, toolCall), { maxLength: 5 }), entryMetadata).map(([blocks, metadata]) => ({ speaker: 'ai' as const, blocks, ...(metadata === undefined ? {} : { metadata }) })),
  fc.tuple(fc.array(fc.oneof(textBlock, media, toolResponse), { maxLength: 5 }), entryMetadata).map(([blocks, metadata]) => ({ speaker: 'tool' as const, blocks, ...(metadata === undefined ? {} : { metadata }) })),
);

describe('decomposeEntry and recomposeEntry (properties)', () => {
  it('FR-SM-007 round trip should produce an equivalent message for every speaker and block mix', () => {
    fc.assert(
      fc.property(entry, (original) => {
        const frozen = structuredClone(original);
        const parts = decomposeEntry(original);
        const again = recomposeEntry(original, parts);
        expect(again).toBe(original);
        // A copy of the parts (new arrays, equal values) gives a deep-equal entry too.
        const copied = recomposeEntry(original, structuredClone(parts));
        expect(copied).toEqual(original);
        expect(original).toEqual(frozen);
      }),
      { numRuns: resolvePropertyRuns() },
    );
  });
});
