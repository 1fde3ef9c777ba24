import { markGeneratedEntry, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { findFirstUserMessage, isHarnessEntry, typedPartOf } from './user-typed-text.js';

const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const aiText = (text: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });
const call = (id: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'tool_call', id, name: 'Bash', parameters: { command: 'ls' } }] });
const result = (id: string, output = 'ok'): HistoryEntry => ({
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId: id, toolName: 'Bash', result: output }],
});

const withMetadata = (entry: HistoryEntry, providerMetadata: NonNullable<HistoryEntry['metadata']>['providerMetadata']): HistoryEntry => ({
  ...entry,
  metadata: { providerMetadata },
});

describe('findFirstUserMessage', () => {
  it('should skip tool results, generated entries, harness entries and wrapper or reminder-only texts', () => {
    const history = [
      call('a'),
      result('a', 'output'),
      markGeneratedEntry(human('[Previous conversation summary]'), 'sliding-window'),
      withMetadata(human('Caveat: meta'), { claudeCode: { isMeta: true } }),
      withMetadata(human('a demonstration'), { trajectory: { native: { is_demo: true } } }),
      withMetadata(human('format error, try again'), { trajectory: { kind: 'format-error' } }),
      withMetadata(human('You are a helpful agent.'), { openai: { role: 'system' } }),
      human('<command-name>/clear</command-name>'),
      human('<system-reminder>The todo list is empty</system-reminder>\n'),
      human('System: Please continue.'),
      aiText('Hello'),
      human('<system-reminder>Be brief</system-reminder>\nFix the date test'),
      human('and then the parser'),
    ];
    expect(findFirstUserMessage(history)).toBe(11);
  });

  it('should return undefined when no human entry holds typed text', () => {
    expect(findFirstUserMessage([])).toBeUndefined();
    expect(findFirstUserMessage([call('a'), result('a'), human('<command-name>/exit</command-name>')])).toBeUndefined();
  });
});

describe('typedPartOf', () => {
  it('should cut system reminders out and keep the rest byte for byte', () => {
    expect(typedPartOf('<system-reminder>Be brief</system-reminder>\nFix the date test')).toBe('Fix the date test');
    expect(typedPartOf('Fix it\n\n<system-reminder>todo list</system-reminder>\n\nplease')).toBe('Fix it\n\nplease');
    // An unclosed reminder (a truncated recording) runs to the end: its tail is not user text.
    expect(typedPartOf('<system-reminder>cut off mid')).toBeUndefined();
  });

  it('should say nothing was typed for command wrappers, interruption notes and harness retries', () => {
    expect(typedPartOf('<command-name>/clear</command-name>')).toBeUndefined();
    expect(typedPartOf('[Request interrupted by user for tool use]')).toBeUndefined();
    expect(typedPartOf('System: Please continue.')).toBeUndefined();
    expect(typedPartOf('   ')).toBeUndefined();
  });
});

describe('isHarnessEntry', () => {
  it('should recognise entries a codec or strategy marked as not typed by the user', () => {
    expect(isHarnessEntry(markGeneratedEntry(human('summary'), 'sliding-window'))).toBe(true);
    expect(isHarnessEntry(withMetadata(human('x'), { claudeCode: { textKind: 'compaction-summary' } }))).toBe(true);
    expect(isHarnessEntry(withMetadata(human('x'), { claudeCode: { textKind: 'typed' } }))).toBe(false);
    expect(isHarnessEntry(human('Fix the date test'))).toBe(false);
  });
});
