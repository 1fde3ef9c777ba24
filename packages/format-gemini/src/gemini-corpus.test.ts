import { findToolPairingProblems, parseConversation, type ContentBlock, type Conversation, type HistoryEntry } from '@ctx/core';
import { decodeClaudeCodeSession } from '@ctx/format-claude-code';
import { corpusExists, readCorpusText } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { geminiCodec } from './gemini-codec.js';
import { validateGeminiRequest } from './validate-gemini-request.js';

if (!corpusExists) console.warn('Skipping Gemini corpus tests: corpus not found (set CTX_CORPUS)');

/** A recorded Claude Code session as `@ctx/format-claude-code` decodes it: every epoch, compaction summaries included. */
function readClaudeCodeConversation(file: string): Conversation {
  return parseConversation(decodeClaudeCodeSession(readCorpusText(file), { view: 'whole-session' }).conversation);
}

const sessions = {
  toolHeavy: 'claude-code/spotter/tool_heavy.jsonl',
  large: 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
  withPairingProblems: 'claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
};

/**
 * The documented, warned losses of a Claude Code history sent through Gemini: entry metadata and Claude Code's
 * `providerMetadata` go, Anthropic thinking signatures go, and consecutive ai entries (and the tool entries after
 * them) become one content each. A tool result's explicit `isError: false` comes back absent, which says the same.
 */
function expectedAfterGemini(history: readonly HistoryEntry[]): HistoryEntry[] {
  const merged: { speaker: HistoryEntry['speaker']; blocks: ContentBlock[] }[] = [];
  for (const entry of history) {
    const blocks = entry.blocks.flatMap((withMetadata): ContentBlock[] => {
      const { providerMetadata: _dropped, ...block } = withMetadata;
      if (block.type === 'tool_response' && block.isError === false) {
        const { isError: _false, ...response } = block;
        return [response];
      }
      if (block.type !== 'thinking') return [block];
      if (block.redacted === true) return [];
      return [{ type: 'thinking', thought: block.thought }];
    });
    const last = merged.at(-1);
    if (entry.speaker !== 'human' && last?.speaker === entry.speaker) last.blocks.push(...blocks);
    else merged.push({ speaker: entry.speaker, blocks });
  }
  return merged;
}

describe.skipIf(!corpusExists)('geminiCodec on real Claude Code histories', () => {
  for (const [label, file] of Object.entries(sessions)) {
    it(`should encode ${label} (${file}) to a request that decodes back to the same history and re-encodes identically`, () => {
      const source = readClaudeCodeConversation(file);
      expect(source.history.length).toBeGreaterThan(10);
      const { value, warnings } = geminiCodec.encode(source);
      // Only documented losses: Anthropic signatures, and Claude Code's record bookkeeping (entry metadata, its
      // providerMetadata and the compaction marker), which has no place in a Gemini request.
      const documentedLoss = /^(thinking signature|entry metadata|providerMetadata\.(claudeCode|ctx) )/;
      expect(warnings.map((warning) => warning.message).filter((message) => !documentedLoss.test(message))).toEqual([]);
      expect(warnings.some((warning) => warning.message.startsWith('providerMetadata.claudeCode '))).toBe(true);

      const decoded = geminiCodec.decode(value);
      expect(decoded.conversation.history).toEqual(expectedAfterGemini(source.history));
      expect(geminiCodec.encode(decoded.conversation).value).toEqual(value);

      // The Claude Code decoder follows the records' parent links, so even a file that records a result after a
      // later message (withPairingProblems) decodes pair-valid; the Gemini request must then validate.
      expect(findToolPairingProblems(source.history)).toEqual([]);
      expect(validateGeminiRequest(value)).toEqual([]);
      expect(decoded.warnings).toEqual([]);
    });
  }

  it('should count the tool calls and responses of the large session once each', () => {
    const source = readClaudeCodeConversation(sessions.large);
    const { value } = geminiCodec.encode(source);
    const count = (type: string) => source.history.flatMap((entry) => entry.blocks).filter((block) => block.type === type).length;
    const parts = value.contents.flatMap((content) => content.parts);
    expect(parts.filter((part) => part.functionCall !== undefined)).toHaveLength(count('tool_call'));
    expect(parts.filter((part) => part.functionResponse !== undefined)).toHaveLength(count('tool_response'));
    expect(count('tool_call')).toBeGreaterThanOrEqual(150);
  });
});
