import { createTokenCounter, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { planSlidingWindow, type PlanSlidingWindowOptions } from './plan-sliding-window.js';
import { aiText, call, human, result, toolOnlyConversation, wordTokenizer, words } from './test-support/entries.js';

function plan(history: readonly HistoryEntry[], options: Partial<PlanSlidingWindowOptions> & { targetTokens: number }) {
  return planSlidingWindow(history, {
    counter: createTokenCounter(wordTokenizer()),
    minRecentKeep: 1,
    maxAttempts: 12,
    summaryReserve: 0,
    summaryFor: () => ({ tokens: 0 }),
    ...options,
  });
}

describe('planSlidingWindow', () => {
  it('keepFirstUserMessage: should count a pinned entry whose place a split drops, size the window beside it and never compact only it', () => {
    // A 13-token task, then eight 13-token entries; 60 tokens leave room for the task and three entries.
    const history = [human(words(10)), ...Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? aiText(words(10)) : human(words(10))))];
    const outcome = plan(history, { targetTokens: 60, pinned: { index: 0, tokens: 13 } });
    expect(outcome.chosen).toMatchObject({ pinned: true, keptTokens: 13 + 39, totalTokens: 52 });
    expect(outcome.chosen?.split.index).toBe(6);
    // Only the pinned entry before the newest one: dropping its place alone compacts nothing.
    expect(plan([human(words(10)), aiText(words(100))], { targetTokens: 60, pinned: { index: 0, tokens: 13 } }).chosen).toBeUndefined();
    // A window that reaches back over the pinned entry keeps it in place, counted once.
    const covering = plan(history, { targetTokens: 500, recentKeep: 8, pinned: { index: 2, tokens: 13 } });
    expect(covering.chosen).toMatchObject({ pinned: false, keptTokens: 8 * 13 });
    expect(covering.chosen?.split.index).toBe(1);
  });

  it('spec 002 Proposal 2: should retry with a progressively smaller recentKeep until the window fits', () => {
    // 16 entries of 13 tokens: recentKeep 8 → 4 → 2 fits 30 tokens.
    const history = Array.from({ length: 16 }, (_, index) => (index % 2 === 0 ? human(words(10)) : aiText(words(10))));
    const outcome = plan(history, { targetTokens: 30, recentKeep: 8 });
    expect(outcome.attempts.map((attempt) => attempt.recentKeep)).toEqual([8, 4, 2]);
    expect(outcome.attempts.map((attempt) => attempt.split.index)).toEqual([8, 12, 14]);
    expect(outcome.fits).toBe(true);
    expect(outcome.chosen).toBe(outcome.attempts[2]);
    expect(outcome.chosen?.totalTokens).toBe(26);
  });

  it('should size the first window by tokens, beside the summary reserve, when recentKeep is unset', () => {
    const history = Array.from({ length: 16 }, () => human(words(10)));
    const outcome = plan(history, { targetTokens: 60, summaryReserve: 20, summaryFor: () => ({ tokens: 20 }) });
    // 40 tokens for the window: three 13-token entries.
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.chosen).toMatchObject({ recentKeep: 3, keptTokens: 39, totalTokens: 59 });
  });

  it('should count the summary of each split against the target', () => {
    const history = Array.from({ length: 16 }, () => human(words(10)));
    // The summary grows with what is dropped, so the window must shrink further.
    const outcome = plan(history, { targetTokens: 60, recentKeep: 4, summaryFor: (split) => ({ tokens: split * 2 }) });
    expect(outcome.chosen?.totalTokens).toBeLessThanOrEqual(60);
    expect(outcome.attempts.map((attempt) => attempt.recentKeep)).toEqual([4, 2]);
  });

  it('should retry the same window at its pair seam when the nearest text boundary keeps too much', () => {
    // One user request, then a long pure-tool run: the only text boundary is the request's follow-up at index 1.
    const history = [human('task'), human('details'), ...toolOnlyConversation(10, () => words(10))];
    const outcome = plan(history, { targetTokens: 60, recentKeep: 4 });
    expect(outcome.attempts.map((attempt) => [attempt.recentKeep, attempt.split.index, attempt.split.walk])).toEqual([
      [4, 1, 'text-boundary'],
      [4, 18, 'pair-seam'],
    ]);
    expect(outcome.fits).toBe(true);
  });

  it('should split later on every retry and stop when the window cannot shrink further', () => {
    const history = [human(words(5)), call('a'), result('a', words(500))];
    const outcome = plan(history, { targetTokens: 100, recentKeep: 2 });
    const splits = outcome.attempts.map((attempt) => attempt.split.index);
    expect(splits).toEqual([1]);
    expect(outcome.fits).toBe(false);
    expect(outcome.chosen?.split.index).toBe(1);
  });

  it('should stop at minRecentKeep and choose the smallest attempt when nothing fits', () => {
    const history = Array.from({ length: 16 }, () => human(words(10)));
    const outcome = plan(history, { targetTokens: 20, recentKeep: 8, minRecentKeep: 3 });
    expect(outcome.attempts.map((attempt) => attempt.recentKeep)).toEqual([8, 4, 3]);
    expect(outcome.fits).toBe(false);
    expect(outcome.chosen).toBe(outcome.attempts[2]);
  });

  it('should make at most maxAttempts passes', () => {
    const history = Array.from({ length: 64 }, () => human(words(10)));
    const outcome = plan(history, { targetTokens: 1, recentKeep: 64, maxAttempts: 3 });
    expect(outcome.attempts).toHaveLength(3);
    expect(outcome.fits).toBe(false);
  });

  it('spec 002 all-tool: should compact a pure-tool conversation between complete pairs', () => {
    const history = toolOnlyConversation(20, () => words(20));
    const outcome = plan(history, { targetTokens: 150 });
    expect(outcome.fits).toBe(true);
    expect((outcome.chosen?.split.index ?? 1) % 2).toBe(0);
    expect(outcome.chosen?.split.index).toBeGreaterThan(0);
  });

  it('should have no attempt when no pair-safe split exists', () => {
    const outcome = plan([call('a'), result('a', words(100))], { targetTokens: 10 });
    expect(outcome).toEqual({ attempts: [], chosen: undefined, fits: false });
  });
});
