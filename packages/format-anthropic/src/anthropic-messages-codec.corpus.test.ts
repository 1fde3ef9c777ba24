import { corpusExists, deepFreeze, listCorpusFiles, readClaudeCodeMessages } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesCodec } from './anthropic-messages-codec.js';

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

    it('should round-trip the whole run of messages exactly', () => {
      const input = deepFreeze({ messages: messages.map(({ message }) => message) });
      const { conversation } = anthropicMessagesCodec.decode(input);
      expect(anthropicMessagesCodec.encode(conversation).value).toStrictEqual(input);
    });
  });
});
