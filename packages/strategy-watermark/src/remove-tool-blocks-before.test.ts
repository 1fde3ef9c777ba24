import { findToolPairingProblems, parseHistory, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { removeToolBlocksBefore } from './remove-tool-blocks-before.js';
import { ai, aiText, call, human, response, shape, text, thinking, tool } from './test-support/entries.js';

describe('removeToolBlocksBefore', () => {
  it('spec 003 §5: should remove tool calls and results before the boundary and keep their text', () => {
    const history = parseHistory([
      human('Read a and b'),
      ai(text('Reading a.'), call('a')),
      tool(response('a')),
      ai(text('Reading b.'), call('b')),
      tool(response('b')),
      aiText('Both read.'),
      human('Now checkpoint'),
      ai(call('w', 'compress_to_checkpoint')),
      tool(response('w', 'compress_to_checkpoint')),
    ]);
    const removal = removeToolBlocksBefore(history, 7);
    expect(shape(removal.history)).toEqual([
      'human:text',
      'ai:text',
      'ai:text',
      'ai:text',
      'human:text',
      'ai:tool_call',
      'tool:tool_response',
    ]);
    expect(removal.counts).toEqual({
      toolCallsRemoved: 2,
      toolResultsRemoved: 2,
      thinkingBlocksRemoved: 0,
      entriesRemoved: 2,
      entriesEdited: 2,
    });
    expect(removal.removals).toEqual([2, 4]);
    expect([...removal.replacements.keys()]).toEqual([1, 3]);
    expect(findToolPairingProblems(removal.history)).toEqual([]);
  });

  it('spec 003 §5: should keep every entry from the boundary on unchanged, as the same objects', () => {
    const history = parseHistory([human('x'), ai(call('a')), tool(response('a')), ai(call('w')), tool(response('w')), human('y')]);
    const removal = removeToolBlocksBefore(history, 3);
    expect(removal.history.slice(-3)).toEqual(history.slice(3));
    removal.history.slice(-3).forEach((entry, index) => expect(entry).toBe(history[3 + index]));
    expect(removal.history[0]).toBe(history[0]);
  });

  it('spec 003 §5 "empty messages": should drop entries left without content, including blank text', () => {
    const history = parseHistory([human('x'), ai(text('  \n'), call('a')), tool(response('a')), ai(call('w')), tool(response('w'))]);
    expect(shape(removeToolBlocksBefore(history, 3).history)).toEqual(['human:text', 'ai:tool_call', 'tool:tool_response']);
  });

  it('should keep text and media of a tool entry and drop only its results', () => {
    const media = { type: 'media' as const, mediaType: 'image/png', data: 'iVBORw0KGgo=' };
    const history = parseHistory([human('x'), ai(call('a')), tool(response('a'), text('<system-reminder>note</system-reminder>'), media), ai(call('w')), tool(response('w'))]);
    const removal = removeToolBlocksBefore(history, 3);
    expect(removal.history[1]).toEqual({ speaker: 'tool', blocks: [text('<system-reminder>note</system-reminder>'), media] });
  });

  it('should keep thinking by default and drop it whole with removeThinking', () => {
    const history = parseHistory([human('x'), ai(thinking('plan the read'), call('a')), tool(response('a')), human('go on'), ai(call('w')), tool(response('w'))]);
    const kept = removeToolBlocksBefore(history, 4);
    expect(kept.history[1]?.blocks[0]).toBe(history[1]?.blocks[0]);
    expect(kept.counts.thinkingBlocksRemoved).toBe(0);
    const dropped = removeToolBlocksBefore(history, 4, { removeThinking: true });
    expect(shape(dropped.history)).toEqual(['human:text', 'human:text', 'ai:tool_call', 'tool:tool_response']);
    expect(dropped.counts).toMatchObject({ thinkingBlocksRemoved: 1, entriesRemoved: 2 });
  });

  it('should keep the thinking of the turn still in its tool loop even with removeThinking', () => {
    const history = parseHistory([human('x'), ai(thinking('plan the read'), call('a')), tool(response('a')), ai(call('w')), tool(response('w'))]);
    const spared = removeToolBlocksBefore(history, 3, { removeThinking: true });
    expect(shape(spared.history)).toEqual(['human:text', 'ai:thinking', 'ai:tool_call', 'tool:tool_response']);
    expect(spared.counts.thinkingBlocksRemoved).toBe(0);
  });

  it('should keep entry metadata on edited entries', () => {
    const entry: HistoryEntry = { ...ai(text('Reading.'), call('a')), metadata: { id: 'uuid-1', timestamp: '2025-07-01T10:00:00Z' } };
    const history = parseHistory([human('x'), entry, tool(response('a')), ai(call('w')), tool(response('w'))]);
    expect(removeToolBlocksBefore(history, 3).history[1]).toEqual({ ...entry, blocks: [text('Reading.')] });
  });

  it('should never touch human entries', () => {
    const history = parseHistory([human('x'), human('y'), ai(call('w')), tool(response('w'))]);
    const removal = removeToolBlocksBefore(history, 2);
    expect(removal.replacements.size + removal.removals.length).toBe(0);
    expect(removal.history).toEqual(history);
  });

  it('should remove the results of orphan tool entries too', () => {
    const history = parseHistory([human('x'), tool(response('orphan')), aiText('hm'), ai(call('w')), tool(response('w'))]);
    const removal = removeToolBlocksBefore(history, 2);
    expect(shape(removal.history)).toEqual(['human:text', 'ai:text', 'ai:tool_call', 'tool:tool_response']);
    expect(findToolPairingProblems(removal.history)).toEqual([]);
  });

  it('should treat a boundary of 0 as "nothing before" and clamp one past the end', () => {
    const history = parseHistory([human('x'), ai(call('a')), tool(response('a'))]);
    expect(removeToolBlocksBefore(history, 0).history).toEqual(history);
    expect(shape(removeToolBlocksBefore(history, 99).history)).toEqual(['human:text']);
  });
});
