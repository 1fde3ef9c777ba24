import { relative } from 'node:path';
import { createTokenCounter, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { findCorpusDirectory, listTranscriptFiles } from './corpus.js';
import { demoTranscriptPath } from './demo-transcript.js';
import { readTranscriptFile } from './read-transcripts.js';
import { createTokenizer } from './tokenizers.js';

/** The texts a token counter tokenizes in an entry. */
function textsOf(entry: HistoryEntry): string[] {
  return entry.blocks.flatMap((block) => {
    if (block.type === 'text') return [block.text];
    if (block.type === 'thinking') return [block.thought];
    if (block.type === 'tool_response') return [typeof block.result === 'string' ? block.result : JSON.stringify(block.result)];
    if (block.type === 'tool_call') return [JSON.stringify(block.parameters)];
    return [];
  });
}

describe('createTokenizer', () => {
  it('should give identical o200k counts from gpt-tokenizer and tiktoken on every demo text', async () => {
    const [demo] = await readTranscriptFile(demoTranscriptPath);
    const texts = (demo?.conversation.history ?? []).flatMap(textsOf);
    const gpt = await createTokenizer('gpt-tokenizer');
    const tiktoken = await createTokenizer('tiktoken');
    expect(texts.length).toBeGreaterThan(50);
    for (const text of texts) expect(gpt.countTokens(text)).toBe(tiktoken.countTokens(text));
  });
});

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping corpus tokenizer tests: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('createTokenizer on the recorded corpus', () => {
  it('should count every text ctx counts in every real transcript identically in both tokenizers, whole and chunk by chunk', async () => {
    const gpt = await createTokenizer('gpt-tokenizer');
    const tiktoken = await createTokenizer('tiktoken');
    const files = listTranscriptFiles(corpus as string);
    expect(files.length).toBeGreaterThanOrEqual(20);
    let chunked = 0;
    for (const file of files) {
      // A fresh counter per file: every text's chunks are tokenized here, not taken from another file's cache.
      const counters = [createTokenCounter(gpt), createTokenCounter(tiktoken)];
      const texts = (await readTranscriptFile(file)).flatMap((transcript) => transcript.conversation.history.flatMap(textsOf));
      let gptTotal = 0;
      for (const text of texts) {
        const whole = gpt.countTokens(text);
        gptTotal += whole;
        if (text.length >= 1024 && text.includes('\n')) chunked += 1;
        expect(tiktoken.countTokens(text), relative(corpus as string, file)).toBe(whole);
        for (const counter of counters) expect(counter.countText(text), relative(corpus as string, file)).toBe(whole);
        // The same content again, as a new string: a long text now comes from the counter's whole-text memory.
        if (text.length >= 1024) expect(counters[0]?.countText(` ${text}`.slice(1)), relative(corpus as string, file)).toBe(whole);
      }
      expect(gptTotal).toBeGreaterThan(0);
    }
    // Hundreds of long multi-line texts (file reads, diffs, logs) were counted chunk by chunk.
    expect(chunked).toBeGreaterThan(100);
  }, 120_000);
});
