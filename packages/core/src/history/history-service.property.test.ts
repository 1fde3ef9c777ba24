import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolPairingError } from '../errors/tool-pairing-error.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import type { HistoryEntry } from './history-entry.js';
import { HistoryService } from './history-service.js';

/** A small id pool, so random sequences often repeat ids and answer calls that are (or are not) there. */
const callId = fc.constantFrom('a', 'b', 'c', 'd');

const entry: fc.Arbitrary<HistoryEntry> = fc.oneof(
  fc.constant<HistoryEntry>({ speaker: 'human', blocks: [{ type: 'text', text: 'next' }] }),
  fc.array(callId, { minLength: 1, maxLength: 2 }).map(
    (ids): HistoryEntry => ({
      speaker: 'ai',
      blocks: ids.map((id) => ({ type: 'tool_call', id, name: 'Read', parameters: { file_path: `/repo/${id}.ts` } })),
    }),
  ),
  fc.array(callId, { minLength: 1, maxLength: 2 }).map(
    (ids): HistoryEntry => ({
      speaker: 'tool',
      blocks: ids.map((id) => ({ type: 'tool_response', callId: id, toolName: 'Read', result: `content of ${id}` })),
    }),
  ),
);

/** One call: `add` (one entry) or `addAll`, with or without the importer opt-in. */
const operation = fc.record({
  entries: fc.array(entry, { minLength: 1, maxLength: 3 }),
  useAdd: fc.boolean(),
  allowOrphanResponses: fc.boolean(),
});

type Block = HistoryEntry['blocks'][number];

/**
 * The rule of issue 14 written the slow, obvious way (a rescan of everything before each block), to check the
 * service's incremental bookkeeping against: a call id is never reused; a response needs an earlier call with its
 * id and no earlier response after that call, unless orphans are allowed.
 */
function expectedProblemKinds(history: readonly HistoryEntry[], added: readonly HistoryEntry[], allowOrphanResponses: boolean): string[] {
  const blocks: Block[] = history.flatMap((item) => item.blocks);
  const kinds: string[] = [];
  for (const block of added.flatMap((item) => item.blocks)) {
    if (block.type === 'tool_call') {
      if (blocks.some((earlier) => earlier.type === 'tool_call' && earlier.id === block.id)) kinds.push('duplicate-call-id');
    } else if (block.type === 'tool_response') {
      const call = blocks.findIndex((earlier) => earlier.type === 'tool_call' && earlier.id === block.callId);
      const answered = blocks.some(
        (earlier, position) => position > call && earlier.type === 'tool_response' && earlier.callId === block.callId,
      );
      if (call === -1) {
        if (!allowOrphanResponses) kinds.push('orphan-response');
      } else if (answered && !allowOrphanResponses) kinds.push('duplicate-response');
    }
    blocks.push(block);
  }
  return kinds;
}

describe('HistoryService (tool pairing properties, issue 14)', () => {
  it('should accept an add exactly when it keeps call ids unique and responses paired, and leave the history untouched otherwise', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 15 }), (operations) => {
        const history = new HistoryService({ tokenizer: createWordTokenizer() });
        let events = 0;
        history.subscribe(() => events++);
        for (const { entries, useAdd, allowOrphanResponses } of operations) {
          const before = history.getAll();
          const eventsBefore = events;
          const expected = expectedProblemKinds(before, entries, allowOrphanResponses);
          let thrown: unknown;
          try {
            if (useAdd && entries.length === 1) history.add(entries[0] as HistoryEntry, { allowOrphanResponses });
            else history.addAll(entries, { allowOrphanResponses });
          } catch (error) {
            thrown = error;
          }
          if (expected.length === 0) {
            expect(thrown).toBeUndefined();
            expect(history.getAll()).toEqual([...before, ...entries]);
            expect(events).toBe(eventsBefore + 1);
          } else {
            expect(ToolPairingError.isInstance(thrown)).toBe(true);
            expect((thrown as ToolPairingError).problems.map((problem) => problem.kind)).toEqual(expected);
            expect(history.getAll()).toEqual(before);
            expect(events).toBe(eventsBefore);
          }
        }
      }),
    );
  });

  it('should never end with a reused call id, nor (without the opt-in) with a response that answers no call or answers one twice', () => {
    fc.assert(
      fc.property(fc.array(fc.array(entry, { minLength: 1, maxLength: 3 }), { maxLength: 20 }), (batches) => {
        const history = new HistoryService({ tokenizer: createWordTokenizer() });
        for (const batch of batches) {
          try {
            history.addAll(batch);
          } catch (error) {
            if (!ToolPairingError.isInstance(error)) throw error;
          }
        }
        const calls = new Set<string>();
        const answered = new Set<string>();
        for (const block of history.getAll().flatMap((item) => item.blocks)) {
          if (block.type === 'tool_call') {
            expect(calls.has(block.id)).toBe(false);
            calls.add(block.id);
          } else if (block.type === 'tool_response') {
            expect(calls.has(block.callId)).toBe(true);
            expect(answered.has(block.callId)).toBe(false);
            answered.add(block.callId);
          }
        }
      }),
    );
  });
});
