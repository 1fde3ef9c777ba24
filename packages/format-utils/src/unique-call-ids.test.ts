import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUniqueCallIds } from './unique-call-ids.js';
import { propertyRuns } from '@ctx/test-properties';

describe('createUniqueCallIds', () => {
  it('should rename a call whose recorded id an earlier renamed call was given, when nothing is reserved', () => {
    const ids = createUniqueCallIds();

    expect(['a', 'a', 'a_2', 'a'].map((id) => ids.callId(id))).toEqual(['a', 'a_2', 'a_2_2', 'a_3']);
    expect([ids.answeredId('a'), ids.answeredId('a_2'), ids.answeredId('a')]).toEqual(['a', 'a_2_2', 'a_2']);
  });

  it('should give an answer to an id no call had, when a renamed copy took that id, an id of its own', () => {
    const ids = createUniqueCallIds();
    ids.callId('a');
    ids.callId('a');

    // `a_2` is the history's id of the second `a`; the input's `a_2` answers no call.
    expect(ids.answeredId('a_2')).toBe('a_2_2');
    expect(ids.callId('a_2')).toBe('a_2_3');
  });

  it('should let a copy go on without changing the original', () => {
    const ids = createUniqueCallIds();
    ids.callId('a');
    const copy = ids.copy();

    expect(copy.callId('a')).toBe('a_2');
    expect(copy.answeredId('a')).toBe('a');
    expect(ids.callId('a')).toBe('a_2');
    expect(ids.answeredId('a')).toBe('a');
    expect(copy.answeredId('a')).toBe('a_2');
  });

  it('should keep an id the first time and give each later call with it a numbered copy', () => {
    const ids = createUniqueCallIds(['call_a', 'call_b']);

    expect(['call_a', 'call_b', 'call_a', 'call_a'].map((id) => ids.callId(id))).toEqual(['call_a', 'call_b', 'call_a_2', 'call_a_3']);
  });

  it('should skip a numbered copy the trajectory records as an id of its own', () => {
    const ids = createUniqueCallIds(['call_a', 'call_a_2']);
    ids.callId('call_a');

    expect(ids.callId('call_a')).toBe('call_a_3');
    expect(ids.callId('call_a_2')).toBe('call_a_2');
  });

  it('should pair each answer with the earliest call of that id nothing answered yet', () => {
    const ids = createUniqueCallIds(['call_a']);
    // Two calls with one id in flight at once, then the same id again after both were answered.
    ids.callId('call_a');
    ids.callId('call_a');

    expect([ids.answeredId('call_a'), ids.answeredId('call_a')]).toEqual(['call_a', 'call_a_2']);
    expect(ids.callId('call_a')).toBe('call_a_3');
    expect(ids.answeredId('call_a')).toBe('call_a_3');
  });

  it('should give a second answer to an answered call the latest call, and leave an id no call had as it is', () => {
    const ids = createUniqueCallIds(['call_a']);
    ids.callId('call_a');
    ids.answeredId('call_a');

    expect(ids.answeredId('call_a')).toBe('call_a');
    expect(ids.answeredId('call_unknown')).toBe('call_unknown');
  });

  it('should make up an id no call was given, and rename a later call recorded with it', () => {
    const ids = createUniqueCallIds(['function_call_7']);
    ids.callId('function_call_1');

    expect(ids.madeUpId('function_call_1')).toBe('function_call_1_2');
    expect(ids.madeUpId('function_call_3')).toBe('function_call_3');
    // Reserved: a recorded call later in the input keeps it.
    expect(ids.madeUpId('function_call_7')).toBe('function_call_7_2');
    expect(ids.callId('function_call_3')).toBe('function_call_3_2');
    expect(ids.answeredId('function_call_3')).toBe('function_call_3_2');
    expect(ids.callId('function_call_7')).toBe('function_call_7');
  });

  it('should give every call its own id and each answer the earliest open call of its recorded id, whatever the order', () => {
    // Recorded ids drawn from a few, including ones shaped like the copies the bookkeeping makes.
    const recorded = fc.constantFrom('a', 'b', 'a_2', 'a_2_2', 'b_3');
    const event = fc.record({ kind: fc.constantFrom('call', 'answer', 'made-up'), id: recorded });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const ids = createUniqueCallIds();
        const given: string[] = [];
        // The model: per recorded id, the ids of its calls not answered yet, oldest first.
        const open = new Map<string, string[]>();
        for (const { kind, id } of events) {
          if (kind === 'call') {
            const unique = ids.callId(id);
            given.push(unique);
            open.set(id, [...(open.get(id) ?? []), unique]);
          } else if (kind === 'made-up') {
            // An id for a block without one: unique too, and never what a recorded call or answer is paired with.
            given.push(ids.madeUpId(id));
          } else {
            const waiting = open.get(id) ?? [];
            const answered = ids.answeredId(id);
            if (waiting.length > 0) {
              expect(answered).toBe(waiting[0]);
              waiting.shift();
            } else if (!open.has(id)) {
              // An answer to an id no call had answers no call in the history either.
              expect(given).not.toContain(answered);
            }
          }
        }
        expect(new Set(given).size).toBe(given.length);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
