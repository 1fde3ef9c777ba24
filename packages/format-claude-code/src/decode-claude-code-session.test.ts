import { InvalidFormatError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { decodeClaudeCodeSession } from './decode-claude-code-session.js';
import { assistant, compactBoundary, compactSummary, jsonl, text, user } from './test-support/records.js';

describe('decodeClaudeCodeSession', () => {
  it('should parse and convert in one call, honouring the view', () => {
    const input = jsonl([
      user('u1', null, 'one'),
      assistant('a1', 'u1', 'msg_1', text('first')),
      compactBoundary('b1', 'a1'),
      compactSummary('s1', 'b1'),
      assistant('a2', 's1', 'msg_2', text('second')),
    ]);
    expect(decodeClaudeCodeSession(input).conversation.history).toHaveLength(2);
    expect(decodeClaudeCodeSession(input, { view: 'whole-session' }).conversation.history).toHaveLength(4);
  });

  it('should throw InvalidFormatError for input that is not text', () => {
    expect(() => decodeClaudeCodeSession({ messages: [] })).toThrowError(InvalidFormatError);
    expect(() => decodeClaudeCodeSession(null)).toThrowError(/received null/);
  });
});
