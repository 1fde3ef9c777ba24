import type { Conversation } from '@ctx/core';

/*
 * Canonical conversations as other codecs produce them, built by hand: encoding them for a codec's own format must
 * give a valid request and a warning for every loss. Test fixtures; not for production use.
 */

/**
 * Claude Code-like: system, thinking with an Anthropic signature, parallel calls, an error, an image, metadata.
 *
 * @example
 * ```ts
 * const { value, warnings } = geminiCodec.encode(parseConversation(claudeCodeLikeConversation));
 * ```
 */
export const claudeCodeLikeConversation: Conversation = {
  system: [{ type: 'text', text: 'You are Claude Code.' }],
  tools: [
    { name: 'Read', description: 'Read a file', inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } } },
    { name: 'Bash', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  ],
  history: [
    {
      speaker: 'human',
      blocks: [
        { type: 'text', text: 'Why does the date test fail? Screenshot attached.' },
        { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=', filename: 'failure.png' },
      ],
      metadata: { id: 'u1', timestamp: '2026-02-10T22:57:54.764Z' },
    },
    {
      speaker: 'ai',
      blocks: [{ type: 'thinking', thought: 'Read both files first.', signature: 'EqQBCkYIBxgCKkB' }],
      metadata: { id: 'a1', model: 'claude-opus-4' },
    },
    { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'toolu_1', name: 'Read', parameters: { file_path: '/repo/a.ts' } }] },
    { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'toolu_2', name: 'Read', parameters: { file_path: '/repo/b.ts' } }] },
    { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'toolu_1', toolName: 'Read', result: 'export const a = 1;' }] },
    {
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: 'toolu_2', toolName: 'Read', result: 'ENOENT: no such file', isError: true }],
    },
    { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'toolu_3', name: 'Bash', parameters: { command: 'npm test' } }] },
    {
      speaker: 'tool',
      blocks: [
        {
          type: 'tool_response',
          callId: 'toolu_3',
          toolName: 'Bash',
          result: [{ type: 'text', text: '1 failing' }],
          providerMetadata: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        },
      ],
    },
    { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'opaque', redacted: true }, { type: 'text', text: 'b.ts is missing.' }] },
    { speaker: 'human', blocks: [{ type: 'text', text: 'Create it.' }] },
  ],
};

/**
 * OpenAI-like: one assistant message with parallel calls of the same function, answered by separate tool entries.
 *
 * @example
 * ```ts
 * const { value } = aiSdkCodec.encode(parseConversation(parallelSameFunctionConversation));
 * ```
 */
export const parallelSameFunctionConversation: Conversation = {
  history: [
    { speaker: 'human', blocks: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
    {
      speaker: 'ai',
      blocks: [
        { type: 'tool_call', id: 'call_a', name: 'get_weather', parameters: { city: 'Paris' } },
        { type: 'tool_call', id: 'call_b', name: 'get_weather', parameters: { city: 'Rome' } },
      ],
    },
    { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'call_a', toolName: 'get_weather', result: { celsius: 18 } }] },
    { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'call_b', toolName: 'get_weather', result: { celsius: 24 } }] },
    { speaker: 'ai', blocks: [{ type: 'text', text: 'Paris 18 °C, Rome 24 °C.' }] },
  ],
};
