import fc from 'fast-check';
import type { ContentBlock } from '../history/content-block.js';
import type { HistoryEntry } from '../history/history-entry.js';

const word = fc.constantFrom('read', 'the', 'file', 'test', 'fails', 'fix', 'date', 'parser', 'ok', 'done');
const text = fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));

/** One turn: a human message, an assistant answer, or an assistant tool batch followed by its answers. */
const turn = fc.oneof(
  text.map((value): HistoryEntry[] => [{ speaker: 'human', blocks: [{ type: 'text', text: value }] }]),
  text.map((value): HistoryEntry[] => [{ speaker: 'ai', blocks: [{ type: 'text', text: value }] }]),
  fc
    .record({
      calls: fc.array(fc.record({ name: fc.constantFrom('Read', 'Edit', 'Bash'), result: text }), {
        minLength: 1,
        maxLength: 4,
      }),
      split: fc.boolean(),
      thinking: fc.option(text, { nil: undefined }),
    })
    .map(({ calls, split, thinking }): HistoryEntry[] => {
      const id = (index: number) => `call-${index}`;
      const callBlocks: ContentBlock[] = calls.map((call, index) => ({
        type: 'tool_call',
        id: id(index),
        name: call.name,
        parameters: { path: `/repo/${index}.ts` },
      }));
      const responseBlocks: ContentBlock[] = calls.map((call, index) => ({
        type: 'tool_response',
        callId: id(index),
        toolName: call.name,
        result: call.result,
      }));
      const thinkingBlocks: ContentBlock[] =
        thinking === undefined ? [] : [{ type: 'thinking', thought: thinking, signature: 'sig' }];
      // Claude Code stores one turn as several entries; other formats as one. Both are pair-valid.
      return split
        ? [
            ...callBlocks.map((block, index): HistoryEntry => ({
              speaker: 'ai',
              blocks: index === 0 ? [...thinkingBlocks, block] : [block],
            })),
            ...responseBlocks.map((block): HistoryEntry => ({ speaker: 'tool', blocks: [block] })),
          ]
        : [
            { speaker: 'ai', blocks: [...thinkingBlocks, ...callBlocks] },
            { speaker: 'tool', blocks: responseBlocks },
          ];
    }),
);

/**
 * Random pair-valid histories for property tests: human and assistant text, single and parallel tool batches
 * (stored as one entry or split Claude Code style), thinking blocks. Call ids are made unique per history.
 */
export const pairValidHistory = fc.array(turn, { maxLength: 30 }).map((turns) => {
  let next = 0;
  return turns.map((entries) => {
    const offset = next;
    next += 10;
    return entries.map((entry) => ({
      ...entry,
      blocks: entry.blocks.map((block) =>
        block.type === 'tool_call'
          ? { ...block, id: `${block.id}-${offset}` }
          : block.type === 'tool_response'
            ? { ...block, callId: `${block.callId}-${offset}` }
            : block,
      ),
    }));
  }).flat();
});
