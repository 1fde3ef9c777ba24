import { createCharacterTokenizer } from '@ctx/conformance';
import { createTokenCounter, type TextBlock } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { fileBody, history, human, inclusionText, optimize, optimizeAndApply } from './test-support/history-fixtures.js';

// A line break after the closing delimiter, so text that follows an inclusion starts on its own line.
const inclusion = (path: string, body?: string) => `${inclusionText(path, body)}\n`;
const textOf = (block: unknown) => (block as TextBlock).text;

describe('FileDedupe (optimize, spec 000 §3b)', () => {
  it('BR-DEDUP-001: should recognize `--- <path> ---` … `--- End of content ---` in human messages', () => {
    const entries = history(human(`look\n${inclusion('src/a.ts')}`), human(`again\n${inclusion('src/a.ts')}`));
    const result = optimize(entries);
    expect(result.metadata.fileDeduplicationsPruned).toBe(1);
    expect([...result.replacements.keys()]).toEqual([0]);
  });

  it('BR-DEDUP-002: should keep only the most recent inclusion of a path', () => {
    const entries = history(human(inclusion('/repo/a.ts', fileBody('a.ts', 'v1'))), human(inclusion('a.ts', fileBody('a.ts', 'v2'))));
    const next = optimizeAndApply(entries);
    expect(textOf(next[0]?.blocks[0])).not.toContain('(v1)');
    expect(textOf(next[1]?.blocks[0])).toBe(inclusion('a.ts', fileBody('a.ts', 'v2')));
  });

  it('BR-DEDUP-003: should strip through a replacement of the human entry, never a removal', () => {
    const entries = history(human(inclusion('/repo/a.ts')), human(inclusion('/repo/a.ts')));
    const result = optimize(entries);
    expect(result.removals).toEqual([]);
    expect(result.replacements.get(0)?.speaker).toBe('human');
  });

  it('BR-DEDUP-004: should only recognize an inclusion when both delimiters are there', () => {
    const entries = history(human('--- /repo/a.ts ---\nno close'), human(inclusion('/repo/a.ts')));
    expect(optimize(entries).replacements.size).toBe(0);
  });

  it('EC-003: should find nothing to prune but inclusions in a history of human messages only', () => {
    const plain = history(human('hello'), human('how are you'));
    expect(optimize(plain, { recencyPruning: true }).replacements.size).toBe(0);
    const included = history(human(inclusion('/repo/a.ts')), human(inclusion('/repo/a.ts')));
    expect(optimize(included, { recencyPruning: true }).metadata).toMatchObject({
      readWritePairsPruned: 0,
      fileDeduplicationsPruned: 1,
      recencyPruned: 0,
    });
  });

  it('EC-020: should leave an inclusion with only the opening delimiter unchanged', () => {
    const entries = history(human('--- /repo/a.ts ---\ncontent'), human('--- /repo/a.ts ---\ncontent'));
    const result = optimize(entries);
    expect(result.replacements.size).toBe(0);
    expect(result.removals).toEqual([]);
  });

  it('EC-021: should strip the first two of three inclusions of the same file', () => {
    const entries = history(
      human(inclusion('/repo/a.ts', fileBody('a.ts', 'one'))),
      human(inclusion('/repo/a.ts', fileBody('a.ts', 'two'))),
      human(inclusion('/repo/a.ts', fileBody('a.ts', 'three'))),
    );
    const result = optimize(entries);
    expect(result.metadata.fileDeduplicationsPruned).toBe(2);
    expect([...result.replacements.keys()]).toEqual([0, 1]);
    const next = optimizeAndApply(entries);
    expect(next.map((entry) => textOf(entry.blocks[0]).includes('(one)') || textOf(entry.blocks[0]).includes('(two)'))).toEqual([
      false,
      false,
      false,
    ]);
    expect(textOf(next[2]?.blocks[0])).toContain('(three)');
  });

  it('EC-022: should keep the surrounding user text byte for byte', () => {
    const before = 'Please compare these.\n';
    const after = 'And tell me which is faster.';
    const entries = history(human(`${before}${inclusion('/repo/a.ts')}${after}`), human(inclusion('/repo/a.ts')));
    const text = textOf(optimizeAndApply(entries)[0]?.blocks[0]);
    expect(text.startsWith(before)).toBe(true);
    expect(text.endsWith(after)).toBe(true);
    expect(text).not.toContain('body of');
    expect(text).toContain('[/repo/a.ts: earlier copy removed');
  });

  it('EC-023: should strip a user-typed delimiter pair like an inclusion (the accepted false positive) but not a lone one', () => {
    const notes = 'my notes: bump the version in package.json, tag the release, publish every package, then write the changelog entry and announce the release to the team';
    const typed = history(human(`--- notes.md ---\n${notes}\n--- End of content ---`), human(inclusion('notes.md')));
    expect(optimize(typed).metadata.fileDeduplicationsPruned).toBe(1);
    const lone = history(human(`--- notes.md ---\n${notes}`), human(inclusion('notes.md')));
    expect(optimize(lone).metadata.fileDeduplicationsPruned).toBe(0);
  });

  it('should strip one file from a gemini-cli group of several inclusions and keep the others', () => {
    const group = `--- /repo/a.ts ---\n${fileBody('/repo/a.ts')}\n--- /repo/b.ts ---\n${fileBody('/repo/b.ts')}\n--- End of content ---\n`;
    const entries = history(human(group), human(inclusion('/repo/a.ts')));
    const text = textOf(optimizeAndApply(entries)[0]?.blocks[0]);
    expect(text).toContain(`--- /repo/b.ts ---\n${fileBody('/repo/b.ts')}\n--- End of content ---`);
    expect(text).not.toContain('body of /repo/a.ts');
  });

  it('should keep an earlier copy the marker would not shorten: a small file included twice never grows the tokens', async () => {
    const small = history(human(`look\n${inclusion('src/a.ts', 'x = 1')}`), human(`again\n${inclusion('src/a.ts', 'x = 1')}`));
    const result = optimize(small);
    expect(result.replacements.size).toBe(0);
    expect(result.metadata.fileDeduplicationsPruned).toBe(0);
    // Measured with the tokenizers the orchestrator uses: nothing it returns is larger than what it replaces.
    for (const counter of [createTokenCounter(createCharacterTokenizer()), createTokenCounter(await createGptTokenizer())]) {
      const after = optimizeAndApply(small);
      expect(counter.countEntries(after)).toBeLessThanOrEqual(counter.countEntries(small));
    }
  });

  it('should strip the large stale copy of a group and keep the small one its marker would not shorten', () => {
    const group = `--- /repo/a.ts ---\n${fileBody('/repo/a.ts')}\n--- /repo/b.ts ---\nB\n--- End of content ---\n`;
    const entries = history(human(group), human(`${inclusion('/repo/a.ts')}${inclusion('/repo/b.ts', 'B')}`));
    const text = textOf(optimizeAndApply(entries)[0]?.blocks[0]);
    expect(text).toContain('[/repo/a.ts: earlier copy removed');
    expect(text).toContain('--- /repo/b.ts ---\nB\n--- End of content ---');
  });

  it('should do nothing when fileDedupe is off', () => {
    const entries = history(human(inclusion('/repo/a.ts')), human(inclusion('/repo/a.ts')));
    expect(optimize(entries, { fileDedupe: false }).replacements.size).toBe(0);
  });
});
