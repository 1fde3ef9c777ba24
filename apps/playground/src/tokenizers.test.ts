import { describe, expect, it } from 'vitest';
import { demoTranscriptPath } from './demo-transcript.js';
import { loadTranscript } from './load-transcript.js';
import { createTokenizer } from './tokenizers.js';

describe('createTokenizer', () => {
  it('should give identical o200k counts from gpt-tokenizer and tiktoken on every demo text', async () => {
    const conversation = await loadTranscript(demoTranscriptPath);
    const texts = conversation.history.flatMap((entry) =>
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
