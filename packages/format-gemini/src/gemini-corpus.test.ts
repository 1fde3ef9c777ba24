import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findToolPairingProblems, parseConversation, type ContentBlock, type HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { geminiCodec } from './gemini-codec.js';
import { readClaudeCodeHistory } from './test-support/claude-code-history.js';
import { validateGeminiRequest } from './validate-gemini-request.js';

const corpus = process.env.CTX_CORPUS ?? fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const exists = existsSync(corpus);
if (!exists) console.warn('Skipping Gemini corpus tests: corpus not found (set CTX_CORPUS)');

const sessions = {
  toolHeavy: 'claude-code/spotter/tool_heavy.jsonl',
  large: 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
  withPairingProblems: 'claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
};

/**
 * The documented, warned losses of a Claude Code history sent through Gemini: entry metadata goes, Anthropic
 * thinking signatures go, and consecutive ai entries (and the tool entries after them) become one content each.
 */
function expectedAfterGemini(history: readonly HistoryEntry[]): HistoryEntry[] {
  const merged: { speaker: HistoryEntry['speaker']; blocks: ContentBlock[] }[] = [];
  for (const entry of history) {
    const blocks = entry.blocks.flatMap((block): ContentBlock[] => {
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

describe.skipIf(!exists)('geminiCodec on real Claude Code histories', () => {
  for (const [label, file] of Object.entries(sessions)) {
    it(`should encode ${label} (${file}) to a request that decodes back to the same history and re-encodes identically`, () => {
      const source = parseConversation({ history: readClaudeCodeHistory(`${corpus}/${file}`) });
      expect(source.history.length).toBeGreaterThan(10);
      const { value, warnings } = geminiCodec.encode(source);
      // Only documented losses: Anthropic signatures.
      expect(warnings.map((warning) => warning.message).every((message) => message.startsWith('thinking signature'))).toBe(true);

      const decoded = geminiCodec.decode(value);
      expect(decoded.conversation.history).toEqual(expectedAfterGemini(source.history));
      expect(geminiCodec.encode(decoded.conversation).value).toEqual(value);

      const sourceProblems = findToolPairingProblems(source.history);
      const requestProblems = validateGeminiRequest(value);
      if (sourceProblems.length === 0) {
        expect(requestProblems).toEqual([]);
        expect(decoded.warnings).toEqual([]);
      } else {
        // The recorded session itself breaks pairing (a result recorded after a later message); the validator sees it.
        expect(requestProblems.length).toBeGreaterThan(0);
        expect(findToolPairingProblems(decoded.conversation.history).length).toBeGreaterThan(0);
      }
    });
  }

  it('should count the tool calls and responses of the large session once each', () => {
    const source = parseConversation({ history: readClaudeCodeHistory(`${corpus}/${sessions.large}`) });
    const { value } = geminiCodec.encode(source);
    const count = (type: string) => source.history.flatMap((entry) => entry.blocks).filter((block) => block.type === type).length;
    const parts = value.contents.flatMap((content) => content.parts);
    expect(parts.filter((part) => part.functionCall !== undefined)).toHaveLength(count('tool_call'));
    expect(parts.filter((part) => part.functionResponse !== undefined)).toHaveLength(count('tool_response'));
    expect(count('tool_call')).toBeGreaterThanOrEqual(150);
  });
});
