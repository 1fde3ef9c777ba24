import { parseHistory, type ContentBlock, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { findNewValidityProblems } from './find-new-validity-problems.js';
import { checkProviderValidity, type ValidityProblem } from './provider-validity.js';
import { ai, calls, human, result } from './test-support/entries.js';

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

  describe('thinking of the turn still in its tool loop (rule tool-loop-thinking)', () => {
    const signed = (thought: string): ContentBlock => ({ type: 'thinking', thought, signature: `sig-${thought}` });
    const redacted: ContentBlock = { type: 'thinking', thought: 'EmwKAhgBEgy3va3pzix', redacted: true };
    const read = (id: string): ContentBlock => ({ type: 'tool_call', id, name: 'Read', parameters: { file_path: `/repo/${id}.ts` } });
    const introduced = (before: readonly HistoryEntry[], after: readonly HistoryEntry[]) =>
      findNewValidityProblems(checkProviderValidity({ history: parseHistory(before) }), checkProviderValidity({ history: parseHistory(after) }))
        .anthropic;
    const rulesOf = (problems: readonly ValidityProblem[]) => problems.map((problem) => problem.rule);

    it('should report a tool-loop turn that lost its only thinking block, which the output alone cannot show', () => {
      const input = [human('Read a.ts'), calls(signed('plan'), read('a')), result('a', 'Read', 'export {}')];
      const output = [human('Read a.ts'), calls(read('a')), result('a', 'Read', 'export {}')];
      expect(checkProviderValidity({ history: output }).anthropic).toEqual([]);
      expect(introduced(input, output)).toEqual([
        { rule: 'tool-loop-thinking', message: expect.stringContaining('tool_use a') as unknown, path: 'messages[1].content[0].type' },
      ]);
    });

    it('should report lost redacted thinking the same way', () => {
      const input = [human('Read a.ts'), calls(redacted, read('a')), result('a', 'Read', 'export {}')];
      const output = [human('Read a.ts'), calls(read('a')), result('a', 'Read', 'export {}')];
      expect(rulesOf(introduced(input, output))).toEqual(['tool-loop-thinking']);
    });

    it('should report a later step of the loop that lost its interleaved thinking', () => {
      const loop = (second: ContentBlock[]) => [
        human('Read a.ts and b.ts'),
        calls(signed('first a'), read('a')),
        result('a', 'Read', 'export {}'),
        calls(...second),
        result('b', 'Read', 'export const b = 1;'),
      ];
      expect(rulesOf(introduced(loop([signed('then b'), read('b')]), loop([read('b')])))).toEqual(['tool-loop-thinking']);
    });

    it('should report once when the output still shows thinking is on and its validator catches it too', () => {
      const input = [human('Hi'), calls(signed('greet'), { type: 'text', text: 'Hello.' }), human('Read a.ts'), calls(signed('plan'), read('a')), result('a', 'Read', 'x')];
      const output = [human('Hi'), calls(signed('greet'), { type: 'text', text: 'Hello.' }), human('Read a.ts'), calls(read('a')), result('a', 'Read', 'x')];
      expect(rulesOf(introduced(input, output))).toEqual(['tool-loop-thinking']);
    });

    it('should not blame a strategy for a tool loop whose opening already lacked thinking in the input', () => {
      const input = [
        human('Hi'),
        calls(signed('greet'), { type: 'text', text: 'Hello.' }),
        human('Read a.ts and b.ts'),
        calls(read('a')),
        result('a', 'Read', 'x'),
        calls(read('b')),
        result('b', 'Read', 'y'),
      ];
      // Dropping the first step makes the second one open the loop: the same problem, at another message.
      const output = [input[0], input[1], input[2], input[5], input[6]] as HistoryEntry[];
      expect(rulesOf(checkProviderValidity({ history: output }).anthropic)).toEqual(['tool-loop-thinking']);
      expect(introduced(input, output)).toEqual([]);
    });

    it('should accept thinking dropped from earlier, finished turns', () => {
      const input = [human('Hi'), calls(signed('greet'), { type: 'text', text: 'Hello.' }), human('Read a.ts'), calls(signed('plan'), read('a')), result('a', 'Read', 'x')];
      const output = [human('Hi'), ai('Hello.'), human('Read a.ts'), calls(signed('plan'), read('a')), result('a', 'Read', 'x')];
      expect(introduced(input, output)).toEqual([]);
    });
  });
});
