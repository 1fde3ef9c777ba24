import { parseConversation, type Conversation, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { checkProviderValidity } from './provider-validity.js';
import { ai, call, calls, human, result } from './test-support/entries.js';

const check = (history: readonly HistoryEntry[], extra: Omit<Conversation, 'history'> = {}) =>
  checkProviderValidity(parseConversation({ ...extra, history }));
const rules = (problems: readonly { rule: string }[]) => problems.map((problem) => problem.rule);

const readCall = (id: string) => call(id, 'Read', { file_path: `/repo/${id}.ts` });
const readResult = (id: string) => result(id, 'Read', `content of ${id}`);

describe('checkProviderValidity', () => {
  it('should find no problem in a valid conversation', () => {
    const validity = check(
      [human('Read a and b'), calls(readCall('a').blocks[0]!, readCall('b').blocks[0]!), readResult('a'), readResult('b'), ai('Done.')],
      { system: [{ type: 'text', text: 'You are a coding agent.' }], tools: [{ name: 'Read', inputSchema: { type: 'object' } }] },
    );
    expect(validity).toEqual({ anthropic: [], openai: [] });
  });

  it('should report a tool result that answers no call of the preceding assistant turn', () => {
    const validity = check([human('Go'), readCall('a'), readResult('a'), human('And now?'), readResult('z')]);
    expect(rules(validity.anthropic)).toContain('orphan-tool-result');
    expect(rules(validity.openai)).toContain('orphan-tool-message');
  });

  it('should report a result that answers an older turn, not the immediately preceding one', () => {
    const validity = check([human('Go'), readCall('a'), readResult('a'), readCall('b'), readResult('a')]);
    expect(rules(validity.anthropic)).toEqual(expect.arrayContaining(['orphan-tool-result', 'unanswered-tool-use']));
    expect(rules(validity.openai)).toEqual(expect.arrayContaining(['orphan-tool-message', 'unanswered-tool-call']));
  });

  it('should report a call without a result', () => {
    const validity = check([human('Go'), readCall('a'), human('Never mind.')]);
    expect(rules(validity.anthropic)).toEqual(['unanswered-tool-use']);
    expect(rules(validity.openai)).toEqual(['unanswered-tool-call']);
  });

  it('should report a parallel batch that lost one of its results', () => {
    const validity = check([human('Go'), calls(readCall('a').blocks[0]!, readCall('b').blocks[0]!), readResult('a'), ai('Done.')]);
    expect(validity.anthropic).toEqual([expect.objectContaining({ rule: 'unanswered-tool-use', message: expect.stringContaining('b') as unknown })]);
    expect(rules(validity.openai)).toEqual(['unanswered-tool-call']);
  });

  it('should report a history that starts with an assistant turn for Anthropic only', () => {
    const validity = check([readCall('a'), readResult('a'), ai('Done.')]);
    expect(validity.anthropic).toEqual([{ rule: 'first-message-role', message: expect.any(String) as unknown, path: 'messages[0].role' }]);
    expect(validity.openai).toEqual([]);
  });

  it('should report an entry left without content', () => {
    const validity = check([human('Go'), { speaker: 'ai', blocks: [] }, human('Hello?')]);
    expect(rules(validity.anthropic)).toEqual(['empty-content']);
    expect(rules(validity.openai)).toEqual(['empty-assistant']);
  });

  it('should accept what the encoders repair: same-role runs merge, blank text and unsigned thinking are dropped', () => {
    const validity = check([
      human('First part.'),
      human('Second part.'),
      { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'no signature' }] },
      readCall('a'),
      ai('   '),
      readResult('a'),
      ai('Done.'),
    ]);
    expect(validity).toEqual({ anthropic: [], openai: [] });
  });

  it('should report ids and tool names a provider rejects', () => {
    const validity = check([human('Go'), call('call.1', 'Read', {}), result('call.1', 'Read', 'x')], {
      tools: [{ name: 'read file', inputSchema: { type: 'object' } }],
    });
    expect(rules(validity.anthropic)).toEqual(expect.arrayContaining(['tool-use-id-format', 'tool-name-format']));
    expect(rules(validity.openai)).toEqual(['tool-name-format']);
  });

  it('should report an empty history', () => {
    const validity = check([]);
    expect(rules(validity.anthropic)).toEqual(['empty-messages']);
    expect(rules(validity.openai)).toEqual(['empty-messages']);
  });

  it('should report an encoder failure as a problem instead of throwing', () => {
    // Not a canonical history (no blocks array): the codecs fail on it, and the check says so.
    const broken = { history: [{ speaker: 'ai', blocks: null }] } as unknown as Conversation;
    const validity = checkProviderValidity(broken);
    expect(rules(validity.anthropic)).toEqual(['encode-error']);
    expect(rules(validity.openai)).toEqual(['encode-error']);
  });
});
