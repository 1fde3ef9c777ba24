import { findToolPairingProblems, getEntryGenerator, SummarizerError, type HistoryEntry } from '@ctx/core';
import { createSyntheticHistory, createTestCompressionContext, MockSummarizer } from '@ctx/conformance';
import { describe, expect, it } from 'vitest';
import { createMiddleOutStrategy } from './middle-out-strategy.js';

const history = createSyntheticHistory({ entries: 60, seed: 11 });
const textOf = (entry: HistoryEntry | undefined) =>
  (entry?.blocks ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('\n');
const context = (summarizer: MockSummarizer | undefined, entries: readonly HistoryEntry[] = history) =>
  createTestCompressionContext({ history: entries, ...(summarizer === undefined ? {} : { summarizer }) });

async function applied(summarizer: MockSummarizer, entries: readonly HistoryEntry[] = history, settings = {}) {
  const given = context(summarizer, entries);
  const result = await createMiddleOutStrategy(settings).compress(given);
  if (result.type !== 'applied') throw new Error(`expected applied, got ${result.reason}: ${result.message ?? ''}`);
  return { given, result };
}

const loop: HistoryEntry[] = [
  {
    speaker: 'ai',
    blocks: [
      { type: 'thinking', thought: 'Read the parser first.', signature: 'sig' },
      { type: 'tool_call', id: 'call_open', name: 'Read', parameters: { file_path: '/src/parser.ts' } },
    ],
  },
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'call_open', toolName: 'Read', result: 'export {}' }] },
];

/** `loop` with a long result: summarized, it leaves the history shorter. */
const longLoop: HistoryEntry[] = [
  loop[0] as HistoryEntry,
  {
    speaker: 'tool',
    blocks: [
      {
        type: 'tool_response',
        callId: 'call_open',
        toolName: 'Read',
        result: Array.from({ length: 60 }, (_, line) => `export const rule${line} = parse(${line});`).join('\n'),
      },
    ],
  },
];

/** A turn that reads a file without thinking. */
const plainRead: HistoryEntry[] = [
  { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'call_lexer', name: 'Read', parameters: { file_path: '/src/lexer.ts' } }] },
  { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'call_lexer', toolName: 'Read', result: 'export const lexer = 1;' }] },
];

/** `plainRead`, opened with thinking. */
const thinkingRead: HistoryEntry[] = [
  { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'The lexer first.', signature: 'sig-lexer' }, ...(plainRead[0] as HistoryEntry).blocks] },
  plainRead[1] as HistoryEntry,
];

/** A blank user message: codecs drop it, so the assistant entries around it merge into one message. */
const blank: HistoryEntry = { speaker: 'human', blocks: [{ type: 'text', text: '' }] };

/** A prompt that ends the turn before it and starts the one `loop` opens. */
const next: HistoryEntry = { speaker: 'human', blocks: [{ type: 'text', text: 'Now the parser.' }] };

describe('createMiddleOutStrategy', () => {
  it('(BR-THRESH-002) should be a threshold strategy with default threshold 0.85 that requires an LLM', () => {
    expect(createMiddleOutStrategy()).toMatchObject({ name: 'middle-out', requiresLLM: true, trigger: { mode: 'threshold', defaultThreshold: 0.85 } });
  });

  it('should keep the head byte-identical (the same entries) so a prompt cache survives, and the newest turns verbatim', async () => {
    const { given, result } = await applied(new MockSummarizer('The middle, summarized.'));
    const summaryIndex = result.newHistory.findIndex((entry) => getEntryGenerator(entry) === 'middle-out');
    expect(summaryIndex).toBeGreaterThan(0);
    result.newHistory.slice(0, summaryIndex).forEach((entry, index) => expect(entry).toBe(given.history[index]));
    const tail = result.newHistory.slice(summaryIndex + 1);
    expect(tail.length).toBeGreaterThan(0);
    tail.forEach((entry, index) => expect(entry).toBe(given.history[given.history.length - tail.length + index]));
    expect(textOf(result.newHistory[summaryIndex])).toContain('[Previous conversation summary]\nThe middle, summarized.');
  });

  it("(FR-PR-003) should summarize with the condensing profile's prompt when one is given", async () => {
    const summarizer = new MockSummarizer('summary');
    await createMiddleOutStrategy().compress({ ...context(summarizer), condensingPrompt: 'The profile prompt.' });
    expect(summarizer.calls[0]?.instructions).toMatch(/^The profile prompt\./);
  });

  it('should keep the first user message in the head and never split a tool call from its result', async () => {
    const summarizer = new MockSummarizer('summary');
    const { given, result } = await applied(summarizer);
    expect(result.newHistory[0]).toBe(given.history[0]);
    expect(findToolPairingProblems(result.newHistory)).toEqual([]);
    expect(findToolPairingProblems(summarizer.calls[0]?.entries ?? [])).toEqual([]);
  });

  it("should quote the user's latest message verbatim when it falls in the middle", async () => {
    const request = 'Please also keep the old fixture files exactly as they are.';
    const entries: HistoryEntry[] = [
      ...history.slice(0, 50),
      { speaker: 'human', blocks: [{ type: 'text', text: request }] },
      ...history.slice(50).filter((entry) => entry.speaker !== 'human'),
    ];
    const { result } = await applied(new MockSummarizer('summary'), entries, { tailShare: 0 });
    const summary = result.newHistory.find((entry) => getEntryGenerator(entry) === 'middle-out');
    expect(textOf(summary)).toContain(`\`\`\`\n${request}\n\`\`\``);
  });

  it('should keep an assistant turn still in its tool loop with thinking in the tail', async () => {
    const { result } = await applied(new MockSummarizer('summary'), [...history, ...loop]);
    expect(result.newHistory.slice(-2)).toEqual(loop);
  });

  it('should summarize that turn whole when it alone is over the tail share, leaving no call without its result', async () => {
    const summarizer = new MockSummarizer('summary');
    const { result } = await applied(summarizer, [...history, ...loop], { tailShare: 0 });
    expect(getEntryGenerator(result.newHistory.at(-1) as HistoryEntry)).toBe('middle-out');
    expect(summarizer.calls[0]?.entries.slice(-2)).toEqual(loop);
    expect(findToolPairingProblems(result.newHistory)).toEqual([]);
  });

  it('should not end the head in tool results whose turn opened without thinking when the open loop is summarized whole (Anthropic tool-loop-thinking)', async () => {
    // With no tail the summary follows the head, merged into its last tool results: the request would end in the
    // head's last turn, which Anthropic, thinking being on, rejects unless that turn opened with thinking.
    const entries = [...history.slice(0, 1), ...plainRead, next, ...longLoop];
    const { result } = await applied(new MockSummarizer('summary'), entries, { headShare: 0.9, tailShare: 0 });
    // Not after the read (nor after the prompt, which is encoded into the same user message as the read's result).
    expect(result.newHistory.slice(0, -1)).toEqual(entries.slice(0, 1));
    expect(getEntryGenerator(result.newHistory.at(-1) as HistoryEntry)).toBe('middle-out');
  });

  it('should end the head before the first user message when every cut after it would leave such a loop, quoting the message', async () => {
    // A blank first entry, then a turn without thinking before the first user message: a head through that message
    // ends in the turn's tool results (the message is encoded into their user message).
    const entries = [blank, ...plainRead, next, ...longLoop];
    const { result } = await applied(new MockSummarizer('summary'), entries, { headShare: 0.9, tailShare: 0 });
    expect(result.newHistory.slice(0, -1)).toEqual([blank]);
    expect(textOf(result.newHistory.at(-1))).toContain('```\nNow the parser.\n```');
  });

  it('should summarize nothing, and say why, when every head would leave such a loop (a transcript that starts mid-turn)', async () => {
    const entries = [...plainRead, next, ...longLoop];
    const result = await createMiddleOutStrategy({ headShare: 0.9, tailShare: 0 }).compress(context(new MockSummarizer('summary'), entries));
    expect(result).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
    expect(result.type === 'no-op' ? result.message : '').toContain('every head would leave the request ending in a tool loop that opened without thinking');
  });

  it('should keep a head that ends in tool results when their turn opened with thinking, the open loop summarized whole', async () => {
    const entries = [...history.slice(0, 1), ...thinkingRead, next, ...longLoop];
    const { result } = await applied(new MockSummarizer('summary'), entries, { headShare: 0.9, tailShare: 0 });
    expect(result.newHistory.slice(0, -1)).toEqual(entries.slice(0, 4));
  });

  it('should not end the head in tool results whose opening message starts with text, thinking merged after it (Anthropic tool-loop-thinking)', async () => {
    // A text step, a blank user message (codecs drop it), then the read with thinking: encoded, one assistant message
    // that starts with the text — rejected as the loop that ends a request, thinking being on.
    const textStep: HistoryEntry = { speaker: 'ai', blocks: [{ type: 'text', text: 'Reading the lexer.' }] };
    const entries = [...history.slice(0, 1), textStep, blank, ...thinkingRead, next, ...longLoop];
    const { result } = await applied(new MockSummarizer('summary'), entries, { headShare: 0.9, tailShare: 0 });
    const head = result.newHistory.slice(0, -1);
    expect(head).not.toContainEqual(thinkingRead[1]);
    expect(head).toEqual(entries.slice(0, head.length));
  });

  it('should not end the head in tool results whose opening message starts with unsigned thinking (the Anthropic encoder drops it)', async () => {
    // A text step opening with thinking from another provider (no signature), a blank user message, then the read
    // with signed thinking: encoded for Anthropic the unsigned block is dropped and the merged message starts with the
    // text — rejected as the loop that ends a request, thinking being on.
    const unsignedStep: HistoryEntry = {
      speaker: 'ai',
      blocks: [{ type: 'thinking', thought: 'Another model planned this.' }, { type: 'text', text: 'Reading the lexer.' }],
    };
    const entries = [...history.slice(0, 1), unsignedStep, blank, ...thinkingRead, next, ...longLoop];
    const { result } = await applied(new MockSummarizer('summary'), entries, { headShare: 0.9, tailShare: 0 });
    const head = result.newHistory.slice(0, -1);
    expect(head).not.toContainEqual(thinkingRead[1]);
    expect(head).toEqual(entries.slice(0, head.length));
  });

  it('(002 §6.3) should summarize the middle mechanically when the summarizer fails, and say so', async () => {
    const summarizer = new MockSummarizer(() => {
      throw new SummarizerError({ summarizer: 'm', reason: 'connection-failed', message: 'connect ECONNREFUSED 127.0.0.1:9' });
    });
    const { result } = await applied(summarizer);
    expect(result.warnings).toContainEqual(expect.objectContaining({ type: 'fallback', message: expect.stringContaining('ECONNREFUSED') as string }));
    expect(result.metadata.counts).toMatchObject({ fallbackSummary: 1 });
  });

  it('should return missing-summarizer without a summarizer, and too-few-compressible when there is no middle', async () => {
    expect(await createMiddleOutStrategy().compress(context(undefined))).toMatchObject({ type: 'no-op', reason: 'missing-summarizer' });
    const short = history.slice(0, 3);
    const result = await createMiddleOutStrategy().compress(createTestCompressionContext({ history: short, contextLimit: 10, summarizer: new MockSummarizer('s') }));
    expect(result).toMatchObject({ type: 'no-op', reason: 'too-few-compressible' });
  });
});
