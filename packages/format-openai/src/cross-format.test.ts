import { findToolPairingProblems } from '@ctx/core';
import { anthropicMessagesCodec, validateAnthropicRequest } from '@ctx/format-anthropic';
import { corpusExists, listCorpusFiles, readClaudeCodeMessages } from '@ctx/format-utils/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openAIChatCodec } from './openai-chat-codec.js';
import { foreignHistory } from './test-support/openai-arbitraries.js';
import { readTrajectoryMessages } from './test-support/trajectory-messages.js';
import { validateOpenAIRequest } from './validate-openai-request.js';
import { propertyRuns } from '@ctx/test-properties';

if (!corpusExists) console.warn('Skipping cross-format corpus tests: corpus not found');

describe('openAIChatCodec ↔ anthropicMessagesCodec', () => {
  describe.skipIf(!corpusExists)('corpus', () => {
    const sessions = corpusExists ? listCorpusFiles('claude-code', '.jsonl') : [];
    const trajectories = corpusExists
      ? [...listCorpusFiles('openai-chat/mini-swe-agent', '.traj.json'), ...listCorpusFiles('swe-agent', '.traj')]
      : [];

    it('should encode every Claude Code session as an OpenAI request whose only problems are the pairing breaks of the recording', () => {
      let pairValidSessions = 0;
      for (const file of sessions) {
        const messages = readClaudeCodeMessages(file).map(({ message }) => message);
        const { conversation } = anthropicMessagesCodec.decode({ messages });
        const pairingProblems = findToolPairingProblems(conversation.history);
        const problems = validateOpenAIRequest(openAIChatCodec.encode(conversation).value);
        if (pairingProblems.length === 0) pairValidSessions++;
        expect(
          problems.filter((problem) => !['unanswered-tool-call', 'orphan-tool-message'].includes(problem.rule)),
          file,
        ).toEqual([]);
        expect(problems, file).toHaveLength(pairingProblems.length);
      }
      expect(pairValidSessions).toBeGreaterThanOrEqual(9);
    });

    it('should warn once for every thinking block it drops from a Claude Code session', () => {
      const file = sessions.find((name) => name.endsWith('short.jsonl'));
      if (file === undefined) throw new Error('short.jsonl is missing from the corpus');
      const { conversation } = anthropicMessagesCodec.decode({
        messages: readClaudeCodeMessages(file).map(({ message }) => message),
      });
      const thinkingBlocks = conversation.history
        .flatMap((entry) => entry.blocks)
        .filter((block) => block.type === 'thinking');
      const { warnings } = openAIChatCodec.encode(conversation);
      expect(thinkingBlocks.length).toBeGreaterThan(0);
      expect(warnings.filter((warning) => warning.message.includes('thinking'))).toHaveLength(thinkingBlocks.length);
    });

    it('should name each Anthropic metadata key of a Claude Code session it drops once, with how many entries or blocks held it and where first', () => {
      let named = 0;
      for (const file of sessions) {
        const { conversation } = anthropicMessagesCodec.decode({ messages: readClaudeCodeMessages(file).map(({ message }) => message) });
        // Counted here the plain way: every entry's and block's Anthropic keys, in history order (layout markers say
        // only how Anthropic laid a value out, and are dropped silently).
        const expected = new Map<string, { count: number; first: string }>();
        const note = (keys: readonly string[], place: string, path: string) => {
          for (const key of keys.filter((name) => name !== 'layout')) {
            const found = expected.get(`${key} ${place}`);
            if (found === undefined) expected.set(`${key} ${place}`, { count: 1, first: path });
            else found.count++;
          }
        };
        conversation.history.forEach((entry, index) => {
          note(Object.keys(entry.metadata?.providerMetadata?.anthropic ?? {}), 'entr', `history[${index}]`);
          entry.blocks.forEach((block, blockIndex) => note(Object.keys(block.providerMetadata?.anthropic ?? {}), 'block', `history[${index}].blocks[${blockIndex}]`));
        });
        const dropped = openAIChatCodec
          .encode(conversation)
          .warnings.filter((warning) => warning.message.startsWith('anthropic.'))
          .map((warning) => {
            const [, key, count, place] = /^anthropic\.(\S+)(?: \(.*\))? on (\d+) (entr|block)/.exec(warning.message) ?? [];
            return [`${key} ${place}`, { count: Number(count), first: warning.path }] as const;
          });
        expect(new Map(dropped), file).toEqual(expected);
        named += dropped.length;
      }
      expect(named).toBeGreaterThan(10);
    });

    it('should encode every OpenAI trajectory as a valid Anthropic request', () => {
      expect(trajectories.length).toBeGreaterThanOrEqual(7);
      for (const file of trajectories) {
        const { conversation } = openAIChatCodec.decode({ messages: readTrajectoryMessages(file) });
        expect(findToolPairingProblems(conversation.history), file).toEqual([]);
        expect(validateAnthropicRequest(anthropicMessagesCodec.encode(conversation).value), file).toEqual([]);
      }
    });
  });

  it('should carry text, images and tools from Anthropic to OpenAI and warn about cache_control and thinking', () => {
    const { conversation } = anthropicMessagesCodec.decode({
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
            { type: 'text', text: 'What is this?' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'A logo.', signature: 'sig' },
            { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'logo' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ctx logo', is_error: false }],
        },
      ],
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
    });
    const { value, warnings } = openAIChatCodec.encode(conversation);
    expect(value).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
            { type: 'text', text: 'What is this?' },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"logo"}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'ctx logo' },
      ],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    expect(validateOpenAIRequest(value)).toEqual([]);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'dropped a thinking block: OpenAI chat messages cannot carry reasoning',
      'anthropic.cache_control (type) on 1 system block has no openai-chat equivalent and was dropped',
    ]);
  });

  it('should write a later OpenAI system message as user text for Anthropic, with a warning', () => {
    const { conversation } = openAIChatCodec.decode({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'go' },
        { role: 'assistant', content: 'ok' },
        { role: 'developer', content: 'Context is 90% full.' },
        { role: 'user', content: 'continue' },
      ],
    });
    const { value, warnings } = anthropicMessagesCodec.encode(conversation);
    expect(value).toEqual({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: 'ok' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Context is 90% full.' },
            { type: 'text', text: 'continue' },
          ],
        },
      ],
    });
    expect(warnings).toEqual([
      {
        type: 'lossy',
        message: 'openai.role on 1 entry has no anthropic-messages equivalent and was dropped',
        path: 'history[2]',
      },
    ]);
  });

  it('should keep arguments that are not JSON readable for Anthropic, wrapped as { value }', () => {
    const { conversation } = openAIChatCodec.decode({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: 'ls -la' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'a.py' },
      ],
    });
    const { value, warnings } = anthropicMessagesCodec.encode(conversation);
    expect(value.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call_1', name: 'bash', input: { value: 'ls -la' } }],
    });
    expect(warnings).toEqual([expect.objectContaining({ type: 'lossy', path: 'history[1].blocks[0]' })]);
    expect(validateAnthropicRequest(value)).toEqual([]);
  });

  it('should give valid requests through a round of both codecs, in both orders', () => {
    fc.assert(
      fc.property(foreignHistory, (history) => {
        const viaAnthropic = anthropicMessagesCodec.decode(
          anthropicMessagesCodec.encode({ history }).value,
        ).conversation;
        expect(validateOpenAIRequest(openAIChatCodec.encode(viaAnthropic).value)).toEqual([]);
        const viaOpenAI = openAIChatCodec.decode(openAIChatCodec.encode({ history }).value).conversation;
        expect(validateAnthropicRequest(anthropicMessagesCodec.encode(viaOpenAI).value)).toEqual([]);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
