import type { HistoryEntry, JsonValue } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { inferWorkspaceRoot, recordedWorkingDirectory } from './infer-workspace-root.js';

describe('inferWorkspaceRoot', () => {
  it('should use the working directory Claude Code recorded, else /', () => {
    expect(
      inferWorkspaceRoot([
        { speaker: 'human', blocks: [] },
        { speaker: 'human', blocks: [], metadata: { providerMetadata: { claudeCode: { cwd: '/home/dev/app' } } } },
      ]),
    ).toBe('/home/dev/app');
    expect(inferWorkspaceRoot([{ speaker: 'human', blocks: [], metadata: { providerMetadata: { claudeCode: { cwd: 'relative' } } } }])).toBe('/');
    expect(inferWorkspaceRoot([])).toBe('/');
  });
});

describe('recordedWorkingDirectory', () => {
  it('should read the absolute directory one entry recorded, and nothing from an entry without one', () => {
    const at = (cwd: JsonValue): HistoryEntry => ({ speaker: 'human', blocks: [], metadata: { providerMetadata: { claudeCode: { cwd } } } });
    expect(recordedWorkingDirectory(at('/home/dev/app'))).toBe('/home/dev/app');
    expect(recordedWorkingDirectory(at('/'))).toBe('/');
    expect(recordedWorkingDirectory(at('relative'))).toBeUndefined();
    expect(recordedWorkingDirectory(at(7))).toBeUndefined();
    expect(recordedWorkingDirectory({ speaker: 'human', blocks: [] })).toBeUndefined();
  });
});
