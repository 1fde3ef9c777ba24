import type { Conversation, HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { listFileStates } from './file-state-evidence.js';
import { findFirstUserMessage, inferWorkspaceRoot } from '@ctx/strategy-utils';
import { listUserTexts } from './list-user-texts.js';
import { measureRetention } from './measure-retention.js';
import { checkProviderValidity } from './provider-validity.js';
import { corpusExists, loadCorpusConversations, readClaudeCodeSession } from '@ctx/test-corpus';

if (!corpusExists) console.warn('Skipping corpus tests of @ctx/retention: corpus not found (set CTX_CORPUS)');

const conversations = corpusExists ? loadCorpusConversations() : [];
const claudeCodeSessions = conversations.filter((item) => item.format === 'claude-code');

/**
 * Problems that come from the recording, not from ctx: the marshmallow SWE-agent demonstration reuses tool call ids
 * across turns. The Anthropic encoder renames reused ids (its API rejects them); the OpenAI encoder keeps them, so
 * the recording round-trips exactly (`duplicate-tool-call-id`). Listed per file and rule so that any other problem
 * still fails.
 */
const knownOpenAIEncoderGaps: Readonly<Record<string, readonly string[]>> = {
  'swe-agent/marshmallow-1867__function_calling_replace_from_source.traj': ['duplicate-tool-call-id'],
};

/** The first index at or after the middle where a cut keeps every tool result next to its call. */
function middleCut(history: readonly HistoryEntry[]): number {
  let cut = Math.floor(history.length / 2);
  while (cut < history.length && history[cut]?.speaker === 'tool') cut++;
  return cut;
}

const secondHalf = (conversation: Conversation): Conversation => ({
  ...conversation,
  history: conversation.history.slice(middleCut(conversation.history)),
});

describe.skipIf(!corpusExists)('measureRetention', () => {
  for (const { name, conversation } of conversations) {
    it(`should keep everything of ${name} when nothing changed`, () => {
      const { userTexts, fileStates, errors, thinking } = measureRetention(conversation, conversation);
      for (const measured of [userTexts, fileStates, errors, thinking]) {
        expect(measured).toMatchObject({ fraction: 1, missing: [] });
        expect(measured.kept).toBe(measured.total);
      }
    });
  }

  it('should measure something on the corpus: user texts, files, errors and thinking all occur', () => {
    const totals = conversations.map(({ conversation }) => measureRetention(conversation, conversation));
    const sum = (pick: (report: (typeof totals)[number]) => number) => totals.reduce((total, report) => total + pick(report), 0);
    expect(sum((report) => report.userTexts.total)).toBeGreaterThan(50);
    expect(sum((report) => report.fileStates.total)).toBeGreaterThan(100);
    expect(sum((report) => report.errors.total)).toBeGreaterThan(100);
    expect(sum((report) => report.thinking.total)).toBeGreaterThan(100);
  });

  // Sessions that read and edit many files; their second halves hold no verbatim copy of a first-half read.
  it.each([
    'claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl',
    'claude-code/vsla/d7d349f9-c243-46e2-9a32-4a0eddfc634b.jsonl',
    'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
    'claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
  ])('should lower the user-text and file-state fractions when the first half of %s is dropped', (file) => {
    const conversation = readClaudeCodeSession(file);
    const cut = middleCut(conversation.history);
    const report = measureRetention(conversation, secondHalf(conversation));

    // Exactly the prompts typed in the kept half survive (these sessions never repeat a prompt).
    const userTexts = listUserTexts(conversation.history);
    expect(report.userTexts.total).toBe(userTexts.length);
    expect(report.userTexts.kept).toBe(userTexts.filter((userText) => userText.entryIndex >= cut).length);
    expect(report.userTexts.fraction).toBeLessThan(1);

    // A file stays known exactly when all its evidence (last full read or write, later edits and reads) is in the
    // kept half.
    const states = listFileStates(conversation.history, inferWorkspaceRoot(conversation.history));
    const inKeptHalf = states.filter((state) =>
      [...(state.full === undefined ? [] : [state.full]), ...state.later].every((evidence) => evidence.entryIndex >= cut),
    );
    expect(report.fileStates.total).toBe(states.length);
    expect(report.fileStates.kept).toBe(inKeptHalf.length);
    expect(report.fileStates.fraction).toBeGreaterThan(0);
    expect(report.fileStates.fraction).toBeLessThan(1);
    expect(report.fileStates.missing.length).toBe(Math.min(20, states.length - inKeptHalf.length));
  });
});

describe.skipIf(!corpusExists)('checkProviderValidity', () => {
  for (const { name, conversation } of conversations) {
    it(`should find ${name} valid for Anthropic and OpenAI`, () => {
      const validity = checkProviderValidity(conversation);
      expect(validity.anthropic).toEqual([]);
      const known = knownOpenAIEncoderGaps[name.replace(/#\d+$/, '')] ?? [];
      expect(validity.openai.filter((problem) => !known.includes(problem.rule))).toEqual([]);
    });
  }
});

describe.skipIf(!corpusExists)('listUserTexts', () => {
  /*
   * Counted in the raw files: `user` records that are not `isMeta` / `isCompactSummary`, whose text does not start
   * with a command wrapper, `<local-command-…>`, `<task-notification>`, `<system-reminder>`, "Caveat:" or
   * "[Request interrupted". tool_heavy.jsonl has 13 user records: 2 typed prompts, the rest tool results, an
   * interruption, a caveat, /mcp and its output.
   */
  it.each([
    ['claude-code/spotter/tool_heavy.jsonl', ['start phoenix in background', 'scrolling back in xterm.js still does not work']],
    ['claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl', ['Implement spotter-gqc', 'did you push?']],
    ['claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl', ['Work on bead spotter-dov.', 'continue']],
    [
      'claude-code/vsla/d7d349f9-c243-46e2-9a32-4a0eddfc634b.jsonl',
      ['Check the status.md', 'Lets scrap the current tests', 'Lets shoot for one', 'Update status.md please', 'Create a docs/archive folder'],
    ],
  ])('should find the typed prompts of %s', (file, prompts) => {
    const texts = listUserTexts(readClaudeCodeSession(file).history).map((userText) => userText.text);
    expect(texts).toHaveLength(prompts.length);
    prompts.forEach((prompt, index) => expect(texts[index]?.startsWith(prompt)).toBe(true));
  });

  it('should find the 7 prompts typed in vsla/0a725fb5 around its compaction, without the summary', () => {
    const texts = listUserTexts(readClaudeCodeSession('claude-code/vsla/0a725fb5-6378-432a-9e84-9f3f49d4043d.jsonl').history);
    expect(texts).toHaveLength(7);
    expect(texts.some((userText) => userText.text.startsWith('This session is being continued'))).toBe(false);
  });

  it('should find no reminder, wrapper or interruption in any Claude Code session', () => {
    const harness = /<system-reminder>|^\s*(<command-|<local-command-|<bash-|<task-notification>|Caveat: |\[Request interrupted)/;
    let sessionsWithReminders = 0;
    for (const { conversation } of claudeCodeSessions) {
      const raw = JSON.stringify(conversation.history);
      if (raw.includes('<system-reminder>')) sessionsWithReminders++;
      for (const { text } of listUserTexts(conversation.history)) expect(text).not.toMatch(harness);
    }
    // The check means something: reminders are all over these sessions (in tool results and hook messages).
    expect(sessionsWithReminders).toBeGreaterThan(5);
  });

  it("should start where @ctx/strategy-utils' findFirstUserMessage (the message strategies pin) says, in every conversation", () => {
    let found = 0;
    for (const { name, conversation } of conversations) {
      const first = listUserTexts(conversation.history)[0]?.entryIndex;
      expect(findFirstUserMessage(conversation.history), name).toBe(first);
      if (first !== undefined) found += 1;
    }
    expect(found).toBeGreaterThanOrEqual(conversations.length - 3);
  });
});
