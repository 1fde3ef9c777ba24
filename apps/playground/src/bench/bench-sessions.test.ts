import { describe, expect, it } from 'vitest';
import { findCorpusDirectory } from '../corpus.js';
import { pickCorpusFiles } from './bench-sessions.js';

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping pickCorpusFiles tests: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('pickCorpusFiles', () => {
  it('should pick the largest session, then the largest of another format, then the next largest, never a subagent file', () => {
    const picked = pickCorpusFiles(corpus as string, 3).map((file) => file.slice((corpus as string).length + 1));
    expect(picked).toEqual([
      'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
      'openai-chat/mini-swe-agent/psf__requests-1142.traj.json',
      'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
    ]);
    expect(pickCorpusFiles(corpus as string, 20).some((file) => file.includes('subagents'))).toBe(false);
  });
});
