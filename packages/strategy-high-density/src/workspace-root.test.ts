import { parseHistory, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { recordedWorkspaceRoot, resolveWorkspaceRoot } from './workspace-root.js';

const observation = (id: string, text: string): HistoryEntry[] => [
  { speaker: 'ai', blocks: [{ type: 'tool_call', id, name: 'bash', parameters: { command: 'ls' } }] },
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: id, toolName: 'bash', result: text }] },
];
const claudeCodeTurn = (cwd: string): HistoryEntry => ({
  speaker: 'human',
  blocks: [{ type: 'text', text: 'go on' }],
  metadata: { providerMetadata: { claudeCode: { cwd } } },
});

describe('recordedWorkspaceRoot', () => {
  it('should prefer a Claude Code cwd anywhere in the history to an earlier SWE-agent directory line', () => {
    const history = parseHistory([...observation('c1', 'a.py\n(Current directory: /testbed)'), claudeCodeTurn('/work/app')]);

    expect(recordedWorkspaceRoot(history)).toBe('/work/app');
  });

  it("should take the first observation's directory line when no entry records a cwd, and skip templates", () => {
    const history = parseHistory([
      ...observation('c1', 'a.py\n(Current directory: <cwd>)'),
      ...observation('c2', 'b.py\n(Current directory: /testbed)'),
      ...observation('c3', 'c.py\n(Current directory: /elsewhere)'),
    ]);

    expect(recordedWorkspaceRoot(history)).toBe('/testbed');
    expect(resolveWorkspaceRoot('/', history)).toBe('/testbed');
    expect(resolveWorkspaceRoot('/configured', history)).toBe('/configured');
  });

  it('should read only the entries from start to end, the same for a history read before', () => {
    const history = parseHistory([...observation('c1', 'a.py'), ...observation('c2', 'b.py\n(Current directory: /testbed)'), claudeCodeTurn('/work/app')]);
    // Asked twice: the second answers come from what each entry was found to record.
    for (let round = 0; round < 2; round++) {
      expect(recordedWorkspaceRoot(history, 0, 2)).toBeUndefined();
      expect(recordedWorkspaceRoot(history, 0, 4)).toBe('/testbed');
      expect(recordedWorkspaceRoot(history, 2)).toBe('/work/app');
    }
    expect(resolveWorkspaceRoot('/', parseHistory(observation('c1', 'a.py')))).toBe('/');
  });

  it('should read an entry the history parser did not freeze again, since it can change', () => {
    const turn = claudeCodeTurn('/work/app');
    expect(recordedWorkspaceRoot([turn])).toBe('/work/app');
    (turn.metadata?.providerMetadata?.claudeCode as { cwd: string }).cwd = '/work/other';

    expect(recordedWorkspaceRoot([turn])).toBe('/work/other');
  });
});
