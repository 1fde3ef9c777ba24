// Real cut points: each corpus session Claude Code compacted comes with the compaction's own request and answer
// (`subagents/agent-acompact-*.jsonl`). A summarizer that replays Claude Code's real summary lets the LLM strategies
// run on real sizes: the history the model had when Claude Code compacted, the summary it really wrote.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createTokenCounter, findToolPairingProblems, getEntryGenerator, type CompressionStrategy, type HistoryEntry } from '@ctx/core';
import { createTestCompressionContext, MockSummarizer } from '@ctx/conformance';
import { convertClaudeCodeSession, getRecordBlocks, parseClaudeCodeSession, type ClaudeCodeSession } from '@ctx/format-claude-code';
import { createMiddleOutStrategy } from '@ctx/strategy-middle-out';
import { createOneShotStrategy } from '@ctx/strategy-one-shot';
import { describe, expect, it } from 'vitest';
import { findCorpusDirectory } from './corpus.js';
import { measureCompression } from './measure-compression.js';
import { createTokenizer } from './tokenizers.js';

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping the LLM strategies on real cut points: ../shared/corpus not found (set CTX_CORPUS).');

/** The main sessions with a compaction of their own: `<session>.jsonl` beside `<session>/subagents/agent-acompact-*.jsonl`. */
function compactedSessions(directory: string): { session: string; compaction: string }[] {
  const spotter = join(directory, 'claude-code/spotter');
  return readdirSync(spotter)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => {
      const subagents = join(spotter, name.replace(/\.jsonl$/, ''), 'subagents');
      if (!existsSync(subagents)) return [];
      const acompact = readdirSync(subagents).find((file) => file.startsWith('agent-acompact-'));
      return acompact === undefined ? [] : [{ session: join(spotter, name), compaction: join(subagents, acompact) }];
    });
}

/** The text Claude Code's compaction model answered: the last assistant record of the acompact file. */
function realSummary(acompact: ClaudeCodeSession): string {
  const answer = acompact.records.filter((record) => record.type === 'assistant').at(-1);
  return (answer === undefined ? [] : getRecordBlocks(answer))
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
}

/**
 * The history the model had when Claude Code compacted: the epoch before the boundary, up to its last message (the
 * compaction's logical parent when the file has it; one corpus session's points outside the file).
 */
function historyAtCut(session: ClaudeCodeSession): readonly HistoryEntry[] | undefined {
  const compaction = session.compactions.find((candidate) => candidate.form === 'compact-boundary');
  if (compaction === undefined) return undefined;
  const leaf = session.records.filter(
    (record) => !record.isSidechain && record.epoch === compaction.epoch - 1 && (record.type === 'user' || record.type === 'assistant'),
  ).at(-1);
  if (leaf?.uuid === undefined) return undefined;
  return convertClaudeCodeSession(session, { view: 'last-epoch', leafUuid: leaf.uuid }).conversation.history;
}

describe.skipIf(corpus === undefined)('LLM strategies on the real cut points of Claude Code compactions', async () => {
  const counter = createTokenCounter(await createTokenizer('gpt-tokenizer'));
  const cases = corpus === undefined ? [] : compactedSessions(corpus);

  it('should find the three compacted corpus sessions with their compaction files', () => {
    expect(cases).toHaveLength(3);
  });

  describe.each(cases)('$session', ({ session: sessionFile, compaction }) => {
    it.each([
      ['one-shot', () => createOneShotStrategy()],
      ['middle-out', () => createMiddleOutStrategy()],
    ] as const)('%s should replace the cut with the real summary: smaller, under the target, provider-valid', async (_, create: () => CompressionStrategy) => {
      const session = parseClaudeCodeSession(await readFile(sessionFile, 'utf8'));
      const history = historyAtCut(session);
      expect(history, `${sessionFile}: the epoch before the compaction has messages`).toBeDefined();
      const summary = realSummary(parseClaudeCodeSession(await readFile(compaction, 'utf8')));
      expect(summary.length).toBeGreaterThan(1_000);

      const summarizer = new MockSummarizer(summary);
      // The window the history had just filled, as `ctx compress` assumes by default.
      const contextLimit = counter.countEntries(history ?? []);
      const context = createTestCompressionContext({ history: history ?? [], contextLimit, tokenizer: await createTokenizer('gpt-tokenizer'), summarizer });
      const result = await create().compress(context);
      expect(result.type, result.type === 'no-op' ? `${result.reason}: ${result.message ?? ''}` : '').toBe('applied');
      if (result.type !== 'applied') return;

      const summaryEntry = result.newHistory.find((entry) => getEntryGenerator(entry) !== undefined);
      expect(JSON.stringify(summaryEntry)).toContain(JSON.stringify(summary.trim().slice(0, 200)).slice(1, -1));
      const after = counter.countEntries(result.newHistory);
      expect(after).toBeLessThan(counter.countEntries(context.history));
      expect(after).toBeLessThanOrEqual(0.85 * contextLimit * 0.6);
      expect(findToolPairingProblems(result.newHistory)).toEqual([]);
      const measurement = measureCompression({ history: context.history }, { history: result.newHistory }, counter);
      expect(measurement.newProblems).toEqual({ anthropic: [], openai: [] });
      // The request to the summarizer stayed within 80% of its default 128k window.
      expect(counter.countEntries(summarizer.calls[0]?.entries ?? [])).toBeLessThanOrEqual(0.8 * 128_000);
      expect(dirname(compaction)).toContain('subagents');
    }, 60_000);
  });
});
