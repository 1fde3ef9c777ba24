import { corpusExists, deepFreeze, listCorpusFiles } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { openAIChatCodec } from './openai-chat-codec.js';
import { createOpenAIRequestDecoder } from './openai-request-decoder.js';
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

    it('should decode the trajectory request by request with createOpenAIRequestDecoder exactly as the codec does', () => {
      // Each request as the agent sends it: the messages so far, parsed anew (no object shared with the last request).
      const decoder = createOpenAIRequestDecoder();
      const ends = messages.flatMap((message, index) => ((message as { role?: unknown }).role === 'assistant' ? [] : [index + 1]));
      for (const [turn, end] of ends.entries()) {
        const request = JSON.parse(JSON.stringify({ model: 'gpt-4o', messages: messages.slice(0, end) })) as unknown;
        const decoded = decoder.decode(request);
        if (turn % 10 === 0 || turn === ends.length - 1) expect(decoded, `request ${turn}`).toEqual(openAIChatCodec.decode(request));
      }
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
