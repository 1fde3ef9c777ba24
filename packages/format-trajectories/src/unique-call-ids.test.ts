import { describe, expect, it } from 'vitest';
import { createUniqueCallIds } from './unique-call-ids.js';

describe('createUniqueCallIds', () => {
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
});
