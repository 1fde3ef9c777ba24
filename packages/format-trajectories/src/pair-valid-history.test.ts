import { findToolPairingProblems, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { buildPairValidHistory } from './pair-valid-history.js';

const call = (id: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'tool_call', id, name: 'bash', parameters: { command: 'ls' } }] });
const text = (speaker: HistoryEntry['speaker'], value: string): HistoryEntry => ({ speaker, blocks: [{ type: 'text', text: value }] });
const result = (id: string): HistoryEntry => ({ speaker: 'tool', blocks: [{ type: 'tool_response', callId: id, toolName: 'bash', result: 'a' }] });

describe('buildPairValidHistory', () => {
  it('should rebuild with the unanswered and orphaned call ids demoted until the history is pair-valid', () => {
    const passes: string[][] = [];
    const draft = buildPairValidHistory((demoted) => {
      passes.push([...demoted].sort());
      // `late` is answered only after a human message, so both its call and its result must become text.
      const history = [
        call('ok'),
        result('ok'),
        demoted.has('late') ? text('ai', 'ls') : call('late'),
        text('human', 'go on'),
        demoted.has('late') ? text('human', 'a') : result('late'),
        demoted.has('last') ? text('ai', 'submit') : call('last'),
      ];
      return { history, warnings: [] };
    });

    expect(findToolPairingProblems(draft.history)).toEqual([]);
    expect(passes).toEqual([[], ['last', 'late']]);
  });

  it('should stop when the build ignores what it is told to demote', () => {
    let passes = 0;
    const draft = buildPairValidHistory(() => {
      passes += 1;
      return { history: [call('never')], warnings: [] };
    });

    expect(passes).toBe(2);
    expect(findToolPairingProblems(draft.history)).toHaveLength(1);
  });
});
