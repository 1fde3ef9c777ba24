// The README's agent loop, replayed on the corpus's long Claude Code sessions: every recorded entry is added to a
// history service in order and `ensureCompressionBeforeSend()` runs before each model call, with high-density as the
// continuous strategy and sliding-window as its fallback, in a window much smaller than the sessions.
import { HistoryService, createCompressionOrchestrator, type TurnReport } from '@ctx/core';
import { checkProviderValidity } from '@ctx/retention';
import { createHighDensityStrategy } from '@ctx/strategy-high-density';
import { createSlidingWindowStrategy } from '@ctx/strategy-sliding-window';
import { corpusExists, loadLongClaudeCodeSessions, type CorpusConversation } from '@ctx/test-corpus';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';

if (!corpusExists) console.warn('Skipping the agent-loop replay: ../shared/corpus not found (set CTX_CORPUS)');

const contextLimit = 60_000;
const thresholdTokens = 0.85 * contextLimit;

describe.skipIf(!corpusExists)('the README agent loop on the long Claude Code sessions', () => {
  let sessions: readonly CorpusConversation[] = [];
  beforeAll(() => {
    sessions = loadLongClaudeCodeSessions();
  });

  it('should keep every request under the threshold, valid, with the fallback running on what high-density left', async () => {
    expect(sessions.length).toBeGreaterThan(0);
    const tokenizer = await createGptTokenizer();
    let handOvers = 0;
    for (const { name, conversation } of sessions) {
      const history = new HistoryService({ tokenizer });
      const orchestrator = createCompressionOrchestrator({
        history,
        strategies: [createHighDensityStrategy(), createSlidingWindowStrategy()],
        contextLimit,
        settings: { 'compression.fallbackStrategies': ['sliding-window'] },
      });
      const reports: TurnReport[] = [];
      for (const entry of conversation.history) {
        history.add(entry);
        // The model is called after a user message or a tool result, not after its own reply.
        if (entry.speaker === 'ai') continue;
        const report = await orchestrator.ensureCompressionBeforeSend();
        reports.push(report);
        expect(history.getTotalTokens(), `${name}, after entry ${reports.length}`).toBeLessThanOrEqual(thresholdTokens);
      }
      orchestrator.dispose();
      const validity = checkProviderValidity({ ...conversation, history: history.getCurated() });
      expect(validity.anthropic, name).toEqual([]);
      expect(validity.openai, name).toEqual([]);
      handOvers += reports.filter(
        (report) => report.passes.filter((pass) => pass.pass === 'compression' && pass.outcome === 'applied').length > 1,
      ).length;
    }
    // These sessions outgrow what high-density alone can keep under the line: the fallback takes its result on.
    expect(handOvers).toBeGreaterThan(0);
  });
});
