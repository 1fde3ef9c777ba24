import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { findOpenToolLoop, findThinkingToolLoopStart } from './open-tool-loop.js';
import { isSafeCutIndex } from './safe-cut-indices.js';
import { answer, call, calls, human, result } from './test-support/entries.js';

const thinking = (...rest: HistoryEntry['blocks']): HistoryEntry => ({
  speaker: 'ai',
  blocks: [{ type: 'thinking', thought: 'plan the reads', signature: 'sig' }, ...rest],
});
const step = (id: string) => [calls(call(id, 'Read', { file_path: `/repo/${id}.ts` })), result(id, 'Read', 'x')];

describe('findThinkingToolLoopStart', () => {
  it('should find the step that opened the loop the history ends in, when it opened with thinking', () => {
    const history = [human('fix it'), thinking(call('a', 'Read', {})), result('a', 'Read', 'x'), ...step('b'), ...step('c')];
    expect(findThinkingToolLoopStart(history)).toBe(1);
  });

  it('should find nothing when the loop is closed by an answer, or its opening step has no thinking', () => {
    const closed = [human('fix it'), thinking(call('a', 'Read', {})), result('a', 'Read', 'x'), answer('done')];
    expect(findThinkingToolLoopStart(closed)).toBeUndefined();
    const noThinking = [human('fix it'), ...step('a'), ...step('b')];
    expect(findThinkingToolLoopStart(noThinking)).toBeUndefined();
  });

  it('should look through blank entries and an interruption after the results, as the Anthropic codec merges them', () => {
    const history = [
      human('fix it'),
      thinking(call('a', 'Read', {})),
      result('a', 'Read', 'x'),
      human('  '),
      ...step('b'),
      human('[Request interrupted by user for tool use]'),
    ];
    expect(findThinkingToolLoopStart(history)).toBe(1);
  });

  it('should find the opening step of the thinking part when thinking and the call are separate entries of one turn', () => {
    const history = [human('fix it'), thinking(), calls(call('a', 'Read', {})), result('a', 'Read', 'x'), ...step('b')];
    expect(findThinkingToolLoopStart(history)).toBe(1);
  });
});

describe('isSafeCutIndex in a loop that opened with thinking (Anthropic tool-loop-thinking)', () => {
  it('should allow a cut before the loop but none inside it, so the kept part never opens the loop without thinking', () => {
    const history = [human('earlier'), answer('ok'), human('fix it'), thinking(call('a', 'Read', {})), result('a', 'Read', 'x'), ...step('b'), ...step('c')];
    expect([0, 1, 2, 3].map((index) => isSafeCutIndex(history, index))).toEqual([true, true, true, true]);
    expect([4, 5, 6, 7, 8].map((index) => isSafeCutIndex(history, index))).toEqual([false, false, false, false, false]);
    expect(isSafeCutIndex(history, history.length)).toBe(true);
  });

  it('should still allow cuts inside a loop whose opening step has no thinking (what agent trajectories are)', () => {
    const history = [human('fix it'), ...step('a'), ...step('b'), ...step('c')];
    expect(isSafeCutIndex(history, 3)).toBe(true);
  });

  it('should not cut before a blank human entry between two assistant entries (encoded, they are one message)', () => {
    const history = [human('fix it'), answer('let me look'), human(''), calls(call('a', 'Read', {})), result('a', 'Read', 'x'), answer('done')];
    expect(isSafeCutIndex(history, 2)).toBe(false);
    expect(isSafeCutIndex(history, 3)).toBe(false);
    expect(isSafeCutIndex(history, 1)).toBe(true);
  });
});

describe('findThinkingToolLoopStart with blank entries before the loop', () => {
  it('should skip a blank assistant entry, which the codec drops, to find the step that opens the loop', () => {
    const history = [human('read'), answer(''), human(''), thinking(call('a', 'Read', {})), result('a', 'Read', 'x'), ...step('b')];
    expect(findThinkingToolLoopStart(history)).toBe(3);
  });
});

describe('findThinkingToolLoopStart where a tool entry carries text', () => {
  it('should start the loop after tool results that carry a reminder, which bound it once encoded', () => {
    const withReminder: HistoryEntry = {
      speaker: 'tool',
      blocks: [
        { type: 'tool_response', callId: 'a', toolName: 'Read', result: 'x' },
        { type: 'text', text: '<system-reminder>Keep going.</system-reminder>' },
      ],
    };
    const history = [human('Start.'), calls(call('a', 'Read', {})), withReminder, thinking(call('b', 'Read', {})), result('b', 'Read', 'y'), human('Fix it.')];
    expect(findThinkingToolLoopStart(history)).toBe(3);
  });
});

describe('findOpenToolLoop', () => {
  it('should find the loop a history ends in whether or not it opened with thinking, and nothing once it is closed', () => {
    expect(findOpenToolLoop([human('fix it'), ...step('a'), ...step('b')])).toEqual({ start: 1, thinking: false, startsWithThinking: false });
    expect(findOpenToolLoop([human('fix it'), thinking(call('a', 'Read', {})), result('a', 'Read', 'x'), ...step('b')])).toEqual({
      start: 1,
      thinking: true,
      startsWithThinking: true,
    });
    expect(findOpenToolLoop([human('fix it'), ...step('a'), answer('done')])).toBeUndefined();
  });

  it('should see a summary (a human entry) after tool results as part of the loop they end, as the Anthropic codec merges them', () => {
    const history = [human('fix it'), answer('looking'), human('go on'), ...step('a'), human('[Previous conversation summary]\n…')];
    expect(findOpenToolLoop(history)).toEqual({ start: 3, thinking: false, startsWithThinking: false });
  });

  it('should tell a loop whose opening message starts with text from one that starts with thinking, blank entries merged away', () => {
    // A text step, a blank user message (dropped by codecs), then thinking and a call: one assistant message that
    // starts with the text, which Anthropic rejects as the loop that ends a request when thinking is on.
    const textFirst = [human('read'), answer('read'), human(''), thinking(call('a', 'Read', {})), result('a', 'Read', 'x')];
    expect(findOpenToolLoop(textFirst)).toEqual({ start: 1, thinking: true, startsWithThinking: false });
    const blankTextFirst: HistoryEntry = { speaker: 'ai', blocks: [{ type: 'text', text: ' ' }, ...thinking(call('a', 'Read', {})).blocks] };
    expect(findOpenToolLoop([human('read'), blankTextFirst, result('a', 'Read', 'x')])).toMatchObject({ startsWithThinking: true });
  });

  it('should not count thinking without a signature as the start, since the Anthropic encoder drops it (redacted thinking counts)', () => {
    const opener = (first: HistoryEntry['blocks'][number]): HistoryEntry => ({
      speaker: 'ai',
      blocks: [first, { type: 'text', text: 'Reading it.' }, call('a', 'Read', {})],
    });
    const loop = (first: HistoryEntry['blocks'][number]) => findOpenToolLoop([human('read'), opener(first), result('a', 'Read', 'x')]);
    expect(loop({ type: 'thinking', thought: 'from another provider' })).toEqual({ start: 1, thinking: true, startsWithThinking: false });
    expect(loop({ type: 'thinking', thought: 'opaque', redacted: true })).toMatchObject({ startsWithThinking: true });
    expect(loop({ type: 'thinking', thought: 'signed', signature: 'sig' })).toMatchObject({ startsWithThinking: true });
  });
});
