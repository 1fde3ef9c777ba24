import { describe, expect, it } from 'vitest';
import type { AiSdkModelMessage } from './ai-sdk-prompt.js';
import { validateAiSdkMessages } from './validate-ai-sdk-messages.js';

const call = (id: string, options: { providerExecuted?: boolean } = {}) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'run',
  input: {},
  ...options,
});
const result = (id: string, toolName = 'run') => ({ type: 'tool-result' as const, toolCallId: id, toolName, output: { type: 'text' as const, value: 'ok' } });
const paths = (messages: AiSdkModelMessage[]) => validateAiSdkMessages(messages).map((issue) => issue.path);

describe('validateAiSdkMessages', () => {
  it('should accept calls answered by the tool messages after their turn, in any number of tool messages', () => {
    const messages: AiSdkModelMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [call('a')] },
      { role: 'assistant', content: [call('b')] },
      { role: 'tool', content: [result('b')] },
      { role: 'tool', content: [result('a')] },
      { role: 'assistant', content: 'done' },
    ];
    expect(validateAiSdkMessages(messages)).toEqual([]);
    expect(validateAiSdkMessages({ system: 's', messages })).toEqual([]);
  });

  it('AV-001: should report structural problems and an empty message list', () => {
    expect(validateAiSdkMessages({ messages: [{ role: 'user' }] }).map((issue) => issue.path)).toEqual(['messages[0].content']);
    expect(paths([])).toEqual(['messages']);
  });

  it('AV-002: should report a call without result once the turn is closed', () => {
    const messages: AiSdkModelMessage[] = [
      { role: 'assistant', content: [call('a'), call('b')] },
      { role: 'tool', content: [result('a')] },
      { role: 'user', content: 'next' },
    ];
    expect(validateAiSdkMessages(messages)).toEqual([
      { path: 'messages[0].content[1]', message: 'tool call run has no tool result in the tool messages that follow its assistant turn' },
    ]);
  });

  it('AV-003: should report results that do not follow their call, answer twice, or name another tool', () => {
    const messages: AiSdkModelMessage[] = [
      { role: 'assistant', content: [call('a')] },
      { role: 'tool', content: [result('a'), result('a'), result('x')] },
      { role: 'user', content: 'wait' },
      { role: 'tool', content: [result('a')] },
      { role: 'assistant', content: [call('c')] },
      { role: 'tool', content: [result('c', 'other')] },
    ];
    expect(paths(messages)).toEqual([
      'messages[1].content[1]',
      'messages[1].content[2]',
      'messages[3].content[0]',
      'messages[5].content[0].toolName',
    ]);
  });

  it('AV-004: should not require results for provider-executed calls and accept their results in assistant content', () => {
    const messages: AiSdkModelMessage[] = [
      { role: 'assistant', content: [call('ws', { providerExecuted: true }), result('ws'), call('p', { providerExecuted: true })] },
      { role: 'user', content: 'ok' },
    ];
    expect(validateAiSdkMessages(messages)).toEqual([]);
  });

  it('AV-005: should report a call id used twice in one turn', () => {
    const messages: AiSdkModelMessage[] = [
      { role: 'assistant', content: [call('a')] },
      { role: 'assistant', content: [call('a')] },
      { role: 'tool', content: [result('a')] },
    ];
    expect(paths(messages)).toEqual(['messages[1].content[0]']);
  });
});
