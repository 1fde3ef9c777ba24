import { describe, expect, it } from 'vitest';
import { findMiniSweAgentActions, findSweAgentAction } from './find-fenced-actions.js';

const command = (content: string, span: { commandStart: number; commandEnd: number } | undefined) =>
  span === undefined ? undefined : content.slice(span.commandStart, span.commandEnd);

describe('findMiniSweAgentActions', () => {
  it('should find every ```bash block and strip the command, as mini-swe-agent does', () => {
    const content = 'THOUGHT: a\n\n```bash  \n  ls -la\n```\n\n```python\nprint(1)\n```\n```bash\npwd\n```';
    const spans = findMiniSweAgentActions(content);

    expect(spans.map((span) => command(content, span))).toEqual(['ls -la', 'pwd']);
    expect(content.slice(spans[0]?.fenceStart, spans[0]?.fenceEnd)).toBe('```bash  \n  ls -la\n```');
  });

  it('should need a newline before the closing fence, so an inline fence is not a block', () => {
    expect(findMiniSweAgentActions('```bash\nls```')).toEqual([]);
    expect(findMiniSweAgentActions('Use `ls` here.')).toEqual([]);
  });
});

describe('findSweAgentAction', () => {
  it('should take the last top-level block and record thought and action as SWE-agent does', () => {
    const content = 'Plan:\n```\nls\n```\nNow:\n```\nopen "setup.py"\n```\nDone.';
    const action = findSweAgentAction(content);

    expect(action).toMatchObject({ blockCount: 2, thought: 'Plan:\n```\nls\n```\nNow:\nDone.', action: 'open "setup.py"\n' });
    expect(command(content, action?.span)).toBe('open "setup.py"');
  });

  it('should not end a block at a fence nested inside another block', () => {
    const content = 'Write it:\n```\ncreate x.md\n```python\nprint(1)\n```\nend_of_edit\n```';

    expect(findSweAgentAction(content)).toMatchObject({ blockCount: 1, action: 'create x.md\n```python\nprint(1)\n```\nend_of_edit\n' });
  });

  it('should see only \\n as a line break, like Python, and find nothing in a message without a block', () => {
    expect(findSweAgentAction('text\r```\nls\n```')).toBeUndefined();
    expect(findSweAgentAction('no action here')).toBeUndefined();
    expect(findSweAgentAction('```\nnever closed')).toBeUndefined();
  });
});
