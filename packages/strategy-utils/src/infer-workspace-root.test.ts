import { describe, expect, it } from 'vitest';
import { inferWorkspaceRoot } from './infer-workspace-root.js';

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
