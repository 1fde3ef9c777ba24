import { findToolPairingProblems, parseConversation, type ContentBlock, type Conversation } from '@ctx/core';
import { decodeClaudeCodeSession } from '@ctx/format-claude-code';
import { corpusExists, readCorpusText } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { aiSdkCodec } from './ai-sdk-codec.js';
import { createAiSdkPromptEncoder } from './ai-sdk-prompt-encoder.js';
import { validateAiSdkMessages } from './validate-ai-sdk-messages.js';

if (!corpusExists) console.warn('Skipping AI SDK corpus tests: corpus not found (set CTX_CORPUS)');

/** A recorded Claude Code session as `@ctx/format-claude-code` decodes it: every epoch, compaction summaries included. */
function readClaudeCodeConversation(file: string): Conversation {
  return parseConversation(decodeClaudeCodeSession(readCorpusText(file), { view: 'whole-session' }).conversation);
}

const isBlankText = (block: ContentBlock) => block.type === 'text' && block.text.trim() === '';

/**
 * What AI SDK messages keep of a Claude Code conversation: all of its content. Claude Code's record bookkeeping
 * (entry metadata, its `providerMetadata`) has no place in a model message and goes, with a warning; so do the
 * whitespace-only text blocks Claude Code records before some thinking blocks (Anthropic rejects them); a tool
 * result's explicit `isError: false` comes back absent, which says the same.
 */
function expectedAfterAiSdk(conversation: Conversation): Conversation {
  return {
    history: conversation.history.map(({ speaker, blocks }) => ({
      speaker,
      blocks: (speaker === 'ai' && !blocks.every(isBlankText) ? blocks.filter((block) => !isBlankText(block)) : blocks).map(({ providerMetadata: _dropped, ...block }): ContentBlock => {
        if (block.type !== 'tool_response' || block.isError !== false) return block;
        const { isError: _false, ...response } = block;
        return response;
      }),
    })),
  };
}

const sessions = {
  toolHeavy: 'claude-code/spotter/tool_heavy.jsonl',
  large: 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
  withPairingProblems: 'claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
};

describe.skipIf(!corpusExists)('aiSdkCodec on real Claude Code histories', () => {
  for (const [label, file] of Object.entries(sessions)) {
    it(`should encode ${label} (${file}) without loss and decode it back to the same history`, () => {
      const source = readClaudeCodeConversation(file);
      expect(source.history.length).toBeGreaterThan(10);
      const { value, warnings } = aiSdkCodec.encode(source);
      // One message per entry; Anthropic signatures travel as providerOptions.anthropic.signature: no content is
      // lost. Only Claude Code's record bookkeeping and whitespace-only text are dropped, and said.
      const bookkeeping = /^(entry metadata|providerMetadata\.(claudeCode|ctx) |whitespace-only text parts)/;
      expect(warnings.map((warning) => warning.message).filter((message) => !bookkeeping.test(message))).toEqual([]);
      expect(warnings.some((warning) => warning.message.startsWith('providerMetadata.claudeCode '))).toBe(true);
      expect(value.messages).toHaveLength(source.history.length);
      const decoded = aiSdkCodec.decode(value);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.conversation).toEqual(expectedAfterAiSdk(source));
      expect(aiSdkCodec.encode(decoded.conversation).value).toEqual(value);

      // The Claude Code decoder follows the records' parent links, so even a file that records a result after a
      // later message (withPairingProblems) decodes pair-valid; the messages must then validate.
      expect(findToolPairingProblems(source.history)).toEqual([]);
      expect(validateAiSdkMessages(value)).toEqual([]);
    });
  }

  it('should drop the whitespace-only text Claude Code records before thinking, and say so', () => {
    const source = readClaudeCodeConversation(sessions.large);
    const blank = source.history.filter((entry) => entry.speaker === 'ai' && entry.blocks.some(isBlankText) && !entry.blocks.every(isBlankText));
    expect(blank.length).toBeGreaterThan(0);
    const { value, warnings } = aiSdkCodec.encode(source);
    expect(warnings.find((warning) => warning.message.startsWith('whitespace-only text parts'))?.message).toContain(`(${blank.length} times`);
    const sentBlank = value.messages.filter(
      (message) => message.role === 'assistant' && typeof message.content !== 'string' && message.content.some((part) => part.type === 'text' && part.text.trim() === ''),
    );
    expect(sentBlank).toEqual([]);
  });

  it('should keep every thinking signature of the large session verbatim', () => {
    const source = readClaudeCodeConversation(sessions.large);
    const { value } = aiSdkCodec.encode(source);
    const signatures = source.history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'thinking' ? [block.signature] : [])));
    const sent = value.messages.flatMap((message) =>
      typeof message.content === 'string' ? [] : message.content.flatMap((part) => (part.type === 'reasoning' ? [part.providerOptions?.anthropic?.signature] : [])),
    );
    expect(signatures.length).toBeGreaterThan(5);
    expect(sent).toEqual(signatures);
  });

  it('should encode the large session turn by turn with createAiSdkPromptEncoder exactly as aiSdkCodec.encode does', () => {
    // As a conversation state sends it: the history grows a turn at a time, and a compaction now and then replaces
    // the oldest half by a summary (every later entry moves to a new index, which its warnings must name).
    const source = readClaudeCodeConversation(sessions.large);
    const encoder = createAiSdkPromptEncoder();
    const summary = parseConversation({ history: [{ speaker: 'human', blocks: [{ type: 'text', text: 'Summary of the earlier work.' }] }] }).history;
    let dropped = 0;
    let calls = 0;
    for (let end = 1; end <= source.history.length; end++) {
      if (end < source.history.length && source.history[end]?.speaker !== 'ai') continue;
      if (calls > 0 && calls % 40 === 0) dropped = Math.floor(end / 2);
      calls++;
      const conversation = { ...source, history: [...(dropped === 0 ? [] : summary), ...source.history.slice(dropped, end)] };
      expect(encoder.encode(conversation), `call ${calls}`).toEqual(aiSdkCodec.encode(conversation));
    }
    expect(calls).toBeGreaterThan(100);
  });
});
