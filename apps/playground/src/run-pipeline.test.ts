import { createTokenCounter, type CompressionStrategy, type HistoryEntry, type Tokenizer } from '@ctx/core';
import { createLosslessStrategy } from '@ctx/strategy-lossless';
import { describe, expect, it } from 'vitest';
import { compareStrategies } from './compare-strategies.js';
import { readTranscriptFile } from './read-transcripts.js';
import { demoTranscriptPath } from './demo-transcript.js';
import { runPipeline } from './run-pipeline.js';

const characters: Tokenizer = { specificationVersion: 'v1', name: 'characters/4', countTokens: (text) => Math.ceil(text.length / 4) };

/** A lossless-declaring strategy that drops the oldest entry and whose expand() cannot restore it. */
const brokenExpand = (): CompressionStrategy => ({
  specificationVersion: 'v1',
  name: 'broken-expand',
  requiresLLM: false,
  trigger: { mode: 'threshold', defaultThreshold: 0.85 },
  capabilities: { lossless: true },
  compress: (context) =>
    Promise.resolve({
      type: 'applied',
      newHistory: context.history.slice(2),
      metadata: { originalMessageCount: context.history.length, compressedMessageCount: context.history.length - 2, strategyUsed: 'broken-expand', llmCallMade: false },
    }),
  expand: (): HistoryEntry[] => {
    throw new Error('reference source missing');
  },
});

describe('runPipeline readable history', () => {
  it('should report a strategy whose own expand() fails as failed instead of measuring around it', async () => {
    const text = (speaker: 'human' | 'ai', words: number): HistoryEntry => ({ speaker, blocks: [{ type: 'text', text: 'word '.repeat(words) }] });
    const conversation = { history: [text('human', 50), text('ai', 50), text('human', 50), text('ai', 50)] };
    const comparison = await compareStrategies({ conversation, strategies: [brokenExpand], tokenizer: characters, runs: 1 });
    expect(comparison.results[0]).toMatchObject({
      strategy: 'broken-expand',
      outcome: 'failed',
      detail: 'strategy "broken-expand" threw in expand(): Error: reference source missing',
    });
  });

  it('should give the readable history of a lossless run as the original, references resolved', async () => {
    const [demo] = await readTranscriptFile(demoTranscriptPath);
    if (demo === undefined) throw new Error('the demo transcript is missing');
    const tokenCounter = createTokenCounter(characters);
    const common = { conversation: demo.conversation, tokenCounter, window: tokenCounter.countEntries(demo.conversation.history) };
    const alone = await runPipeline({ ...common, strategies: [() => createLosslessStrategy()] });
    expect(alone.after.history).not.toEqual(demo.conversation.history);
    expect(alone.readable.history).toEqual(demo.conversation.history);
  });
});
