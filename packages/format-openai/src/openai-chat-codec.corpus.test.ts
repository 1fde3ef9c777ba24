import { corpusExists, deepFreeze, listCorpusFiles } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { openAIChatCodec } from './openai-chat-codec.js';
import { readTrajectoryMessages } from './test-support/trajectory-messages.js';

const files = corpusExists
  ? [...listCorpusFiles('openai-chat/mini-swe-agent', '.traj.json'), ...listCorpusFiles('swe-agent', '.traj')]
  : [];
if (!corpusExists) console.warn('Skipping openAIChatCodec corpus tests: corpus not found');

describe.skipIf(!corpusExists)('openAIChatCodec (trajectory corpus)', () => {
  it('should find the mini-swe-agent and SWE-agent trajectories', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  describe.each(files)('%s', (file) => {
    const messages = readTrajectoryMessages(file);

    it('should round-trip the whole message array exactly', () => {
      const input = deepFreeze({ messages });
      const { conversation } = openAIChatCodec.decode(input);
      expect(openAIChatCodec.encode(conversation).value).toStrictEqual(input);
    });

    it('should round-trip every message on its own exactly', () => {
      for (const [index, message] of messages.entries()) {
        const input = deepFreeze({ messages: [message] });
        expect(
          openAIChatCodec.encode(openAIChatCodec.decode(input).conversation).value,
          `message ${index}`,
        ).toStrictEqual(input);
      }
    });
  });
});
