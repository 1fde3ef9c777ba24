import { describe, expect, it } from 'vitest';
import { corpusExists, listCorpusFiles, readCorpusJson, readCorpusText } from './corpus.js';

describe.skipIf(!corpusExists)('corpus access', () => {
  it('should list corpus files by directory and suffix, relative to the corpus and sorted', () => {
    const files = listCorpusFiles('claude-code', '.jsonl');
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((file) => file.startsWith('claude-code/') && file.endsWith('.jsonl'))).toBe(true);
    expect(readCorpusText(files[0] ?? '').length).toBeGreaterThan(0);
  });

  it('should read the manifest as JSON', () => {
    expect(Array.isArray(readCorpusJson('manifest.json'))).toBe(true);
  });

  it('should list nothing for a missing directory', () => {
    expect(listCorpusFiles('no-such-directory', '.jsonl')).toEqual([]);
  });
});
