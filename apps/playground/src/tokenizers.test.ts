import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCorpusDirectory, listTranscriptFiles } from './corpus.js';
import { demoTranscriptPath } from './demo-transcript.js';
import { readTranscriptFile } from './read-transcripts.js';
import { createTokenizer } from './tokenizers.js';

describe('createTokenizer', () => {
  it('should give identical o200k counts from gpt-tokenizer and tiktoken on every demo text', async () => {
    const [demo] = await readTranscriptFile(demoTranscriptPath);
    const texts = (demo?.conversation.history ?? []).flatMap((entry) =>
      entry.blocks.flatMap((block) => {
        if (block.type === 'text') return [block.text];
        if (block.type === 'tool_response') return [typeof block.result === 'string' ? block.result : JSON.stringify(block.result)];
        if (block.type === 'tool_call') return [JSON.stringify(block.parameters)];
        return [];
      }),
    );
    const gpt = await createTokenizer('gpt-tokenizer');
    const tiktoken = await createTokenizer('tiktoken');
    expect(texts.length).toBeGreaterThan(50);
    for (const text of texts) expect(gpt.countTokens(text)).toBe(tiktoken.countTokens(text));
  });
});

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping corpus tokenizer tests: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('createTokenizer on the recorded corpus', () => {
  it('should count every line of every real transcript without throwing, identically in both tokenizers', async () => {
    const gpt = await createTokenizer('gpt-tokenizer');
    const tiktoken = await createTokenizer('tiktoken');
    const files = listTranscriptFiles(corpus as string);
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      let gptTotal = 0;
      let tiktokenTotal = 0;
      for (const line of lines) {
        gptTotal += gpt.countTokens(line);
        tiktokenTotal += tiktoken.countTokens(line);
      }
      expect(gptTotal, relative(corpus as string, file)).toBe(tiktokenTotal);
      expect(gptTotal).toBeGreaterThan(0);
    }
  }, 120_000);
});
