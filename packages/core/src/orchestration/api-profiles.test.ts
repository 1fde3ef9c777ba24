// API profiles in the orchestrator (spec 004 FR-PR-001..003, FR-TH-001): the conversation runs on one profile,
// LLM strategies condense with another.
import { describe, expect, it } from 'vitest';
import { InvalidApiProfileError } from '../errors/invalid-api-profile-error.js';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { HistoryService } from '../history/history-service.js';
import type { CompressionContext } from '../strategy/compression-context.js';
import type { CompressionStrategy } from '../strategy/compression-strategy.js';
import type { Summarizer } from '../strategy/summarizer.js';
import { human } from '../test-support/entries.js';
import { words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import type { ApiProfile } from '../profiles/api-profile.js';
import { createCompressionOrchestrator } from './compression-orchestrator.js';
import { formatTurnReport } from './format-turn-report.js';

const summarizerNamed = (name: string): Summarizer => ({
  specificationVersion: 'v1',
  name,
  summarize: () => Promise.resolve({ text: `summary by ${name}` }),
});

/** An LLM strategy that records its contexts and summarizes all but the newest entry. */
function recordingLlmStrategy(): CompressionStrategy & { contexts: CompressionContext[] } {
  const contexts: CompressionContext[] = [];
  return {
    specificationVersion: 'v1',
    name: 'recording-llm',
    requiresLLM: true,
    trigger: { mode: 'threshold', defaultThreshold: 0.85 },
    contexts,
    async compress(context) {
      contexts.push(context);
      if (context.summarizer === undefined) return { type: 'no-op', reason: 'missing-summarizer' };
      const { text } = await context.summarizer.summarize({ entries: context.history.slice(0, -1), instructions: context.condensingPrompt ?? 'built-in' });
      return {
        type: 'applied',
        newHistory: [human(text), ...context.history.slice(-1)],
        metadata: { originalMessageCount: context.history.length, compressedMessageCount: 2, strategyUsed: 'recording-llm', llmCallMade: true },
      };
    },
  };
}

const conversationSummarizer = summarizerNamed('conversation-model');
const condensingSummarizer = summarizerNamed('condensing-model');
const profiles: ApiProfile[] = [
  { id: 'big', model: 'big-model', contextWindow: 1_000, threshold: 50, maxOutputTokens: 100, summarizer: conversationSummarizer },
  { id: 'small', model: 'small-model', contextWindow: 400, threshold: -1, summarizer: condensingSummarizer, condensingPrompt: 'Keep every file path.' },
  { id: 'mute', model: 'mute-model', contextWindow: 2_000 },
];

function setup(settings: Record<string, unknown> = {}) {
  const history = new HistoryService({ tokenizer: createWordTokenizer(), history: [human(words(300)), human(words(300))] });
  const strategy = recordingLlmStrategy();
  const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], profiles, settings, calibration: false });
  return { history, strategy, orchestrator };
}

describe('createCompressionOrchestrator (API profiles)', () => {
  it("FR-PR-001: should run the conversation on the first profile by default, with its window, threshold and reserved output", () => {
    const { orchestrator } = setup();
    const effective = orchestrator.getEffectiveSettings();
    expect(effective).toMatchObject({ profile: 'big', contextLimit: 1_000, reservedOutputTokens: 100 });
    expect(effective.threshold).toMatchObject({ value: 0.5, source: 'profile' });
  });

  it('FR-PR-001 / FR-TH-001: should switch profile by setting, -1 inheriting the global threshold', () => {
    const { orchestrator } = setup({ 'compression.threshold': 0.7 });
    orchestrator.updateSettings({ 'compression.profile': 'small' });
    expect(orchestrator.getEffectiveSettings()).toMatchObject({ contextLimit: 400, threshold: { value: 0.7, source: 'global' } });
    expect(orchestrator.getSettings()['compression.profile']).toBe('small');
  });

  it("FR-TH-001: should let compression.profileThresholds override a profile's own threshold", () => {
    const { orchestrator } = setup({ 'compression.profileThresholds': { big: 80 } });
    expect(orchestrator.getEffectiveSettings().threshold).toMatchObject({ value: 0.8, source: 'profile' });
  });

  it('FR-PR-001: should refuse an unknown profile, naming the known ones, and keep the settings it had', () => {
    const { orchestrator } = setup();
    expect(() => orchestrator.updateSettings({ 'compression.profile': 'typo' })).toThrow(InvalidApiProfileError);
    expect(orchestrator.getSettings()['compression.profile']).toBe('big');
    expect(() =>
      createCompressionOrchestrator({ history: new HistoryService({ tokenizer: createWordTokenizer() }), strategies: [recordingLlmStrategy()], profiles: [{ id: 'x', model: 'm', contextWindow: -1 }] }),
    ).toThrow(/profiles\[0\]\.contextWindow: expected a positive number of tokens/);
    expect(() =>
      createCompressionOrchestrator({ history: new HistoryService({ tokenizer: createWordTokenizer() }), strategies: [recordingLlmStrategy()] }),
    ).toThrow(InvalidSettingsError);
  });

  it("FR-PR-002: should condense with the condensing profile's summarizer, not the conversation's", async () => {
    const { history, strategy, orchestrator } = setup({ 'compression.condensingProfile': 'small' });
    await orchestrator.ensureCompressionBeforeSend();
    expect(strategy.contexts[0]?.summarizer?.name).toBe('condensing-model');
    expect(history.getCurated()[0]?.blocks[0]).toEqual({ type: 'text', text: 'summary by condensing-model' });
  });

  it("FR-PR-002: should fall back to the conversation's summarizer when the condensing profile cannot summarize, and report it", async () => {
    const { history, orchestrator } = setup({ 'compression.condensingProfile': 'mute' });
    const report = await orchestrator.ensureCompressionBeforeSend();
    expect(history.getCurated()[0]?.blocks[0]).toEqual({ type: 'text', text: 'summary by conversation-model' });
    expect(formatTurnReport(report)).toMatch(/warning \(fallback\): the condensing profile "mute" has no summarizer; condensing with the conversation's profile "big"/);
    history.add(human(words(400)));
    const next = await orchestrator.ensureCompressionBeforeSend();
    expect(next.warnings).toEqual([]);
  });

  it("FR-PR-003: should hand the condensing profile's prompt to the strategy, and none when the profile has none", async () => {
    const withPrompt = setup({ 'compression.condensingProfile': 'small' });
    await withPrompt.orchestrator.ensureCompressionBeforeSend();
    expect(withPrompt.strategy.contexts[0]?.condensingPrompt).toBe('Keep every file path.');
    const without = setup();
    await without.orchestrator.ensureCompressionBeforeSend();
    expect(without.strategy.contexts[0]?.condensingPrompt).toBeUndefined();
  });
});
