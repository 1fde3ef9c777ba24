import { describe, expect, it } from 'vitest';
import { findCheckpointCall, findLatestCheckpointCall, findToolCall } from './find-checkpoint-call.js';
import { ai, call, human, response, tool, toolTurn } from './test-support/entries.js';

const checkpoint = 'compress_to_checkpoint';

// 0 human, 1-2 Read a, 3-4 checkpoint c1, 5-6 Read b, 7-8 checkpoint c2, 9 human
const history = [
  human('start'),
  ...toolTurn('a'),
  ...toolTurn('c1', { name: checkpoint }),
  ...toolTurn('b'),
  ...toolTurn('c2', { name: checkpoint }),
  human('next'),
];

describe('findToolCall', () => {
  it('should locate a call by id', () => {
    expect(findToolCall(history, 'b')).toEqual({ callId: 'b', toolName: 'Read', entryIndex: 5, blockIndex: 0 });
  });

  it('should return undefined for an id no call has', () => {
    expect(findToolCall(history, 'missing')).toBeUndefined();
  });

  it('should not mistake a tool result for a call', () => {
    expect(findToolCall([human('x'), tool(response('orphan'))], 'orphan')).toBeUndefined();
  });

  it('should take the first occurrence of a repeated id, as spec 003 does', () => {
    const repeated = [...toolTurn('dup'), ...toolTurn('dup', { name: 'Bash' })];
    expect(findToolCall(repeated, 'dup')?.entryIndex).toBe(0);
  });
});

describe('findCheckpointCall', () => {
  it('spec 003 edge case 4: should search from the start when there is no watermark yet', () => {
    expect(findCheckpointCall(history, { toolNames: [checkpoint] })?.callId).toBe('c1');
    expect(findCheckpointCall(history, { toolNames: [checkpoint], after: '' })?.callId).toBe('c1');
  });

  it('spec 003 §4: should find the first checkpoint call after the watermark', () => {
    expect(findCheckpointCall(history, { toolNames: [checkpoint], after: 'a' })?.callId).toBe('c1');
    expect(findCheckpointCall(history, { toolNames: [checkpoint], after: 'b' })?.callId).toBe('c2');
  });

  it('spec 003 edge case 3: should not find the watermark call itself, so a second checkpoint advances it', () => {
    expect(findCheckpointCall(history, { toolNames: [checkpoint], after: 'c1' })?.callId).toBe('c2');
    expect(findCheckpointCall(history, { toolNames: [checkpoint], after: 'c2' })).toBeUndefined();
  });

  it('should find a later checkpoint call in the same assistant message as the watermark', () => {
    const parallel = [human('x'), ai(call('w', checkpoint), call('v', checkpoint)), tool(response('w'), response('v'))];
    expect(findCheckpointCall(parallel, { toolNames: [checkpoint], after: 'w' })?.callId).toBe('v');
    expect(findCheckpointCall(parallel, { toolNames: [checkpoint], after: 'v' })).toBeUndefined();
  });

  it('spec 003 edge case 2: should return undefined when no checkpoint tool was called', () => {
    expect(findCheckpointCall(history, { toolNames: ['deactivate_augments'] })).toBeUndefined();
  });

  it('should return undefined when the watermark is not in the history (nothing is after it)', () => {
    expect(findCheckpointCall(history, { toolNames: [checkpoint], after: 'gone' })).toBeUndefined();
  });

  it('should match any of several names exactly and case-sensitively', () => {
    expect(findCheckpointCall(history, { toolNames: ['read', 'Compress_To_Checkpoint'] })).toBeUndefined();
    expect(findCheckpointCall(history, { toolNames: ['Read', checkpoint] })?.callId).toBe('a');
  });

  it('should find nothing with no tool names', () => {
    expect(findCheckpointCall(history, { toolNames: [] })).toBeUndefined();
  });
});

describe('findLatestCheckpointCall', () => {
  it('should find the newest checkpoint call', () => {
    expect(findLatestCheckpointCall(history, { toolNames: [checkpoint] })).toEqual({
      callId: 'c2',
      toolName: checkpoint,
      entryIndex: 7,
      blockIndex: 0,
    });
  });

  it('should take the last call of a parallel batch', () => {
    const parallel = [human('x'), ai(call('w', checkpoint), call('v', checkpoint)), tool(response('w'), response('v'))];
    expect(findLatestCheckpointCall(parallel, { toolNames: [checkpoint] })?.callId).toBe('v');
  });

  it('should locate by position, so a repeated id still gives the newest call', () => {
    const repeated = [...toolTurn('dup', { name: checkpoint }), human('x'), ...toolTurn('dup', { name: checkpoint })];
    expect(findLatestCheckpointCall(repeated, { toolNames: [checkpoint] })?.entryIndex).toBe(3);
  });

  it('should return undefined without checkpoint calls or names', () => {
    expect(findLatestCheckpointCall(history, { toolNames: ['TodoWrite'] })).toBeUndefined();
    expect(findLatestCheckpointCall(history, { toolNames: [] })).toBeUndefined();
    expect(findLatestCheckpointCall([], { toolNames: [checkpoint] })).toBeUndefined();
  });
});
