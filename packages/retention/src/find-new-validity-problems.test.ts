import { describe, expect, it } from 'vitest';
import { findNewValidityProblems } from './find-new-validity-problems.js';
import type { ValidityProblem } from './provider-validity.js';

const blank = (path: string): ValidityProblem => ({ rule: 'empty-text', message: 'text content blocks must contain non-whitespace text', path });
const unanswered = (id: string): ValidityProblem => ({ rule: 'unanswered-tool-use', message: `tool_use ${id} has no tool_result block in the next message` });

describe('findNewValidityProblems', () => {
  it('should not report problems the input already had, even at another position', () => {
    const before = { anthropic: [blank('messages[9].content[0].text')], openai: [] };
    const after = { anthropic: [blank('messages[2].content[0].text')], openai: [] };
    expect(findNewValidityProblems(before, after)).toEqual({ anthropic: [], openai: [] });
  });

  it('should report a problem with another message (another call id) as new', () => {
    const before = { anthropic: [unanswered('a')], openai: [] };
    const after = { anthropic: [unanswered('a'), unanswered('b')], openai: [] };
    expect(findNewValidityProblems(before, after).anthropic).toEqual([unanswered('b')]);
  });

  it('should count repeated problems: a third occurrence of a problem seen twice is new', () => {
    const before = { anthropic: [], openai: [blank('a'), blank('b')] };
    const after = { anthropic: [], openai: [blank('c'), blank('d'), blank('e')] };
    expect(findNewValidityProblems(before, after).openai).toEqual([blank('e')]);
  });
});
