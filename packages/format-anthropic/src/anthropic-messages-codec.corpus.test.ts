import { corpusExists, deepFreeze, listCorpusFiles, readClaudeCodeMessages } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesCodec } from './anthropic-messages-codec.js';
import { createAnthropicRequestDecoder } from './anthropic-request-decoder.js';

const files = corpusExists ? listCorpusFiles('claude-code', '.jsonl') : [];
if (!corpusExists) console.warn('Skipping anthropicMessagesCodec corpus tests: corpus not found');

describe.skipIf(!corpusExists)('anthropicMessagesCodec (Claude Code corpus)', () => {
  it('should find the Claude Code sessions', () => {
    expect(files.length).toBeGreaterThanOrEqual(16);
  });

  describe.each(files)('%s', (file) => {
    const messages = readClaudeCodeMessages(file);

    it('should round-trip every message on its own exactly', () => {
      expect(messages.length).toBeGreaterThan(0);
      for (const { line, message } of messages) {
        const input = deepFreeze({ messages: [message] });
        const { conversation } = anthropicMessagesCodec.decode(input);
        expect(anthropicMessagesCodec.encode(conversation).value, `line ${line}`).toStrictEqual(input);
      }
    });

    it('should decode the session request by request with createAnthropicRequestDecoder exactly as the codec does', () => {
      // Each request as a client sends it: the messages so far, parsed anew (no object shared with the last request).
      const all = messages.map(({ message }) => message);
      const decoder = createAnthropicRequestDecoder();
      const ends = all.flatMap((message, index) => ((message as { role?: unknown }).role === 'user' ? [index + 1] : []));
      for (const [turn, end] of ends.entries()) {
        const request = JSON.parse(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: all.slice(0, end) })) as unknown;
        const decoded = decoder.decode(request);
        // The codec's own decode of every request would take minutes on the largest sessions: every 10th, and the last.
        if (turn % 10 === 0 || turn === ends.length - 1) expect(decoded, `request ${turn}`).toEqual(anthropicMessagesCodec.decode(request));
      }
    });

    it('should round-trip the whole run of messages exactly', () => {
      const input = deepFreeze({ messages: messages.map(({ message }) => message) });
      const { conversation } = anthropicMessagesCodec.decode(input);
      expect(anthropicMessagesCodec.encode(conversation).value).toStrictEqual(input);
    });
  });
});
