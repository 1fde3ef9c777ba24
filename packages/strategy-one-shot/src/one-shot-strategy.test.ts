import {
  createCompressionOrchestrator,
  findToolPairingProblems,
  getEntryGenerator,
  HistoryService,
  InvalidStrategySettingsError,
  SummarizerError,
  type HistoryEntry,
  type Todo,
} from '@ctx/core';
import { createCharacterTokenizer, createSyntheticHistory, createTestCompressionContext, MockSummarizer } from '@ctx/conformance';
import { describe, expect, it } from 'vitest';
import { createOneShotStrategy } from './one-shot-strategy.js';

const history = createSyntheticHistory({ entries: 40, seed: 7 });
const todos: Todo[] = [
  { content: 'Fix the date parser', status: 'completed' },
  { content: 'Add a test for time zones', status: 'in_progress' },
];
const latestRequest = 'Please add a test for the empty input case, and keep the old fixture files as they are.';
const withRequest: HistoryEntry[] = [...history, { speaker: 'human', blocks: [{ type: 'text', text: latestRequest }] }];
const textOf = (entry: HistoryEntry | undefined) =>
  (entry?.blocks ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('\n');

function context(summarizer: MockSummarizer | undefined, extra: { history?: readonly HistoryEntry[]; signal?: AbortSignal } = {}) {
  return createTestCompressionContext({
    history: extra.history ?? withRequest,
    ...(summarizer === undefined ? {} : { summarizer }),
    activeTodos: todos,
    transcriptPath: '/home/me/.claude/projects/app/session.jsonl',
    ...(extra.signal === undefined ? {} : { signal: extra.signal }),
  });
}

describe('createOneShotStrategy', () => {
  it('(BR-THRESH-002) should be a threshold strategy with default threshold 0.85 that requires an LLM', () => {
    const strategy = createOneShotStrategy();
    expect(strategy).toMatchObject({ name: 'one-shot', requiresLLM: true, trigger: { mode: 'threshold', defaultThreshold: 0.85 } });
  });

  it('should reject invalid settings when created', () => {
    expect(() => createOneShotStrategy({ summarizerWindow: 10 })).toThrow(InvalidStrategySettingsError);
  });

  it('(002 §5.2, §5.3) should replace the whole conversation with one summary plus a continuation quoting the latest request verbatim', async () => {
    const summarizer = new MockSummarizer('The user is fixing the date parser; tests for time zones are next.');
    const result = await createOneShotStrategy().compress(context(summarizer));

    expect(result.type).toBe('applied');
    if (result.type !== 'applied') return;
    expect(result.newHistory).toHaveLength(1);
    const [entry] = result.newHistory;
    expect(getEntryGenerator(entry as HistoryEntry)).toBe('one-shot');
    const text = textOf(entry);
    expect(text).toContain('[Previous conversation summary]\nThe user is fixing the date parser');
    expect(text).toContain(`The user's current request is:\n\`\`\`\n${latestRequest}\n\`\`\``);
    expect(text).toContain('- [in_progress] Add a test for time zones');
    expect(text).toContain('/home/me/.claude/projects/app/session.jsonl');
    expect(summarizer.calls[0]?.entries).toHaveLength(withRequest.length);
  });

  it('(spec 000 prompt sections, 002 §5.4) should ask for the state snapshot, the four new sections and the todo list', async () => {
    const summarizer = new MockSummarizer('summary');
    await createOneShotStrategy().compress(context(summarizer));
    const instructions = summarizer.calls[0]?.instructions ?? '';
    for (const section of ['<state_snapshot>', '<task_context>', '<user_directives>', '<errors_encountered>', '<code_references>']) {
      expect(instructions).toContain(section);
    }
    expect(instructions).toContain('[Current todo list]\n- [completed] Fix the date parser\n- [in_progress] Add a test for time zones\n[End todo list]');
  });

  it('(FR-PR-003) should send a custom condensing prompt instead of the built-in one', async () => {
    const summarizer = new MockSummarizer('summary');
    await createOneShotStrategy({ customPrompt: 'Summarize as a bulleted list of decisions.' }).compress(context(summarizer));
    expect(summarizer.calls[0]?.instructions).toMatch(/^Summarize as a bulleted list of decisions\./);
    expect(summarizer.calls[0]?.instructions).not.toContain('<state_snapshot>');
  });

  it("(FR-PR-003) should send the condensing profile's prompt before its own custom prompt", async () => {
    const summarizer = new MockSummarizer('summary');
    await createOneShotStrategy({ customPrompt: 'The strategy prompt.' }).compress({ ...context(summarizer), condensingPrompt: 'The profile prompt.' });
    expect(summarizer.calls[0]?.instructions).toMatch(/^The profile prompt\./);
  });

  it('should summarize an assistant turn still in its tool loop whole, thinking included, leaving no call without its result', async () => {
    const loop: HistoryEntry[] = [
      {
        speaker: 'ai',
        blocks: [
          { type: 'thinking', thought: 'I should read the parser first.', signature: 'sig-1' },
          { type: 'tool_call', id: 'call_open', name: 'Read', parameters: { file_path: '/src/parser.ts' } },
        ],
      },
      { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'call_open', toolName: 'Read', result: 'export function parse() {}' }] },
    ];
    const summarizer = new MockSummarizer('summary');
    const result = await createOneShotStrategy().compress(context(summarizer, { history: [...withRequest, ...loop] }));
    expect(result.type).toBe('applied');
    if (result.type !== 'applied') return;
    expect(result.newHistory).toHaveLength(1);
    expect(summarizer.calls[0]?.entries.slice(-2)).toEqual(loop);
    expect(findToolPairingProblems(result.newHistory)).toEqual([]);
  });

  it('(002 §6.3) should fall back to a mechanical summary when the summarizer fails, and say so', async () => {
    const summarizer = new MockSummarizer(() => {
      throw new SummarizerError({ summarizer: 'm', reason: 'server-error', statusCode: 503, message: 'HTTP 503 after 3 attempts' });
    });
    const result = await createOneShotStrategy().compress(context(summarizer));
    expect(result.type).toBe('applied');
    if (result.type !== 'applied') return;
    expect(textOf(result.newHistory[0])).toMatch(/^\[Previous conversation summary \(mechanical: the summarizer was unavailable\)\]/);
    expect(textOf(result.newHistory[0])).toContain(latestRequest);
    expect(result.warnings).toContainEqual(expect.objectContaining({ type: 'fallback', message: expect.stringContaining('HTTP 503') as string }));
    expect(result.metadata.counts).toMatchObject({ fallbackSummary: 1 });
  });

  it('should return a summarizer-failed no-op with the reason when asked not to fall back', async () => {
    const summarizer = new MockSummarizer(() => {
      throw new SummarizerError({ summarizer: 'm', reason: 'timeout', message: 'no answer in 120 s' });
    });
    const result = await createOneShotStrategy({ fallbackOnFailure: false }).compress(context(summarizer));
    expect(result).toMatchObject({ type: 'no-op', reason: 'summarizer-failed', message: expect.stringContaining('timeout') as string });
  });

  it('should say which flag or option is missing when there is no summarizer', async () => {
    const result = await createOneShotStrategy().compress(context(undefined));
    expect(result).toMatchObject({ type: 'no-op', reason: 'missing-summarizer', message: expect.stringContaining('--summarizer-url') as string });
  });

  it("should report the summarizer's usage for cost reporting", async () => {
    const summarizer = new MockSummarizer({ text: 'summary', usage: { inputTokens: 41_000, outputTokens: 900, cacheReadTokens: 12_000 } });
    const result = await createOneShotStrategy().compress(context(summarizer));
    expect(result.type === 'applied' && result.metadata.counts).toMatchObject({
      summarizerInputTokens: 41_000,
      summarizerOutputTokens: 900,
      summarizerCacheReadTokens: 12_000,
    });
  });

  it('should not call the model again on the next turn after a summary that failed (no compaction loop)', async () => {
    const summarizer = new MockSummarizer(() => {
      throw new SummarizerError({ summarizer: 'm', reason: 'server-error', message: 'HTTP 500' });
    });
    const service = new HistoryService({ tokenizer: createCharacterTokenizer() });
    service.addAll(withRequest);
    await service.waitForTokenUpdates();
    const orchestrator = createCompressionOrchestrator({
      history: service,
      strategies: [createOneShotStrategy({ fallbackOnFailure: false })],
      contextLimit: Math.floor(service.getTotalTokens() * 1.05),
      summarizer,
      calibration: false,
    });
    await orchestrator.ensureCompressionBeforeSend();
    await orchestrator.ensureCompressionBeforeSend();
    expect(summarizer.calls).toHaveLength(1);
    expect(service.length).toBe(withRequest.length);
  });
});
