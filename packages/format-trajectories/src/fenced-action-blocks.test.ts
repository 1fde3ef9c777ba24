import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderFencedAction, splitFencedAction } from './fenced-action-blocks.js';
import { findMiniSweAgentActions, findSweAgentAction } from './find-fenced-actions.js';
import { propertyRuns } from '@ctx/test-properties';

const style = { opening: '```bash\n', closing: '\n```' };

// Messages built from the pieces that make text actions hard: fences, blank lines, whitespace, backticks.
const message = fc
  .array(fc.constantFrom('```bash', '```', '```python', '\n', '\n\n', ' ', '\t', '`', 'THOUGHT: look', 'ls -la', 'end_of_edit'), { maxLength: 24 })
  .map((pieces) => pieces.join(''));

describe('splitFencedAction', () => {
  it('should split a message into thought, bash call and trailing text', () => {
    const content = 'THOUGHT: look\n\n```bash\nls -la\n```\n\nthen read';
    const [span] = findMiniSweAgentActions(content);
    const blocks = splitFencedAction(content, span as NonNullable<typeof span>, 'action-3');

    expect(blocks).toEqual([
      { type: 'text', text: 'THOUGHT: look' },
      {
        type: 'tool_call',
        id: 'action-3',
        name: 'bash',
        parameters: { command: 'ls -la' },
        providerMetadata: { trajectory: { opening: '\n\n```bash\n', closing: '\n```\n\n' } },
      },
      { type: 'text', text: 'then read' },
    ]);
  });
});

describe('renderFencedAction', () => {
  it('should give back any message exactly from the blocks splitFencedAction made', () => {
    fc.assert(
      fc.property(message, (content) => {
        const spans = [...findMiniSweAgentActions(content), ...[findSweAgentAction(content)?.span].filter((span) => span !== undefined)];
        for (const span of spans) {
          const rendered = renderFencedAction(splitFencedAction(content, span, 'action-0'), style, 'history[0]');
          expect(rendered).toEqual({ content, warnings: [] });
        }
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('should write calls without a recorded layout with blank lines and the given fences, and report other blocks', () => {
    const rendered = renderFencedAction(
      [
        { type: 'text', text: 'Listing.' },
        { type: 'tool_call', id: 'c1', name: 'bash', parameters: { command: 'ls' } },
        { type: 'thinking', thought: 'hidden' },
        { type: 'text', text: 'Then more.' },
        { type: 'tool_call', id: 'c2', name: 'open', parameters: { path: 'a.py' } },
      ],
      style,
      'history[2]',
    );

    expect(rendered.content).toBe('Listing.\n\n```bash\nls\n```\n\nThen more.\n\n```bash\n{"path":"a.py"}\n```');
    expect(rendered.warnings).toMatchObject([
      { type: 'lossy', path: 'history[2].blocks[2]' },
      { type: 'lossy', path: 'history[2].blocks[4]' },
    ]);
  });
});
