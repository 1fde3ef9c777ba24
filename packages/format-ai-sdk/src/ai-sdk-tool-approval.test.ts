import { describe, expect, it } from 'vitest';
import { aiSdkCodec } from './ai-sdk-codec.js';
import type { AiSdkPrompt } from './ai-sdk-prompt.js';
import { validateAiSdkMessages } from './validate-ai-sdk-messages.js';

const roundTrip = (prompt: AiSdkPrompt) => aiSdkCodec.encode(aiSdkCodec.decode(prompt).conversation).value;

// The shape AI SDK 6 and 7 record when a tool needs approval: the call and its request in one assistant message,
// the user's answer in a tool message of its own, then the result once the tool ran.
const approvalConversation: AiSdkPrompt = {
  messages: [
    { role: 'user', content: 'Delete the build folder' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'I will delete it.' },
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'shell', input: { command: 'rm -rf build' } },
        { type: 'tool-approval-request', approvalId: 'approval-1', toolCallId: 'call-1' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval-1', approved: true, reason: 'fine' }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'shell', output: { type: 'text', value: 'removed' } }],
    },
    { role: 'assistant', content: 'Done.' },
  ],
};

describe('aiSdkCodec', () => {
  it('AIS-APPROVAL-001: should round-trip tool approval requests and responses exactly', () => {
    expect(roundTrip(approvalConversation)).toEqual(approvalConversation);
  });

  it('AIS-APPROVAL-002: should keep approval parts out of the canonical blocks so strategies see only call and result', () => {
    const { history } = aiSdkCodec.decode(approvalConversation).conversation;
    expect(history[1]?.blocks.map((block) => block.type)).toEqual(['text', 'tool_call']);
    expect(history[2]).toMatchObject({ speaker: 'tool', blocks: [] });
  });

  it('AIS-APPROVAL-003: should put an approval request back after the parts that preceded it', () => {
    const prompt: AiSdkPrompt = {
      messages: [
        { role: 'user', content: 'Run both' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'a', toolName: 'shell', input: { command: 'ls' } },
            { type: 'tool-approval-request', approvalId: 'approval-a', toolCallId: 'a', isAutomatic: false, reason: 'writes files' },
            { type: 'tool-call', toolCallId: 'b', toolName: 'shell', input: { command: 'pwd' } },
            { type: 'tool-approval-request', approvalId: 'approval-b', toolCallId: 'b', inputSchemaInput: { command: 'pwd' } },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-approval-response', approvalId: 'approval-a', approved: false, providerExecuted: false },
            { type: 'tool-result', toolCallId: 'a', toolName: 'shell', output: { type: 'execution-denied' } },
            { type: 'tool-approval-response', approvalId: 'approval-b', approved: true },
            { type: 'tool-result', toolCallId: 'b', toolName: 'shell', output: { type: 'text', value: '/work' } },
          ],
        },
      ],
    };
    expect(roundTrip(prompt)).toEqual(prompt);
    expect(validateAiSdkMessages(prompt)).toEqual([]);
  });

  it('AIS-APPROVAL-004: should report an approval part with a missing id', () => {
    expect(() =>
      aiSdkCodec.decode({
        messages: [{ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: '', approved: true }] }],
      }),
    ).toThrow(/approval/);
  });

  it('AIS-APPROVAL-005: should read AI SDK 7 tool output content items of type file', () => {
    const prompt: AiSdkPrompt = {
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'screenshot', input: {} }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c',
              toolName: 'screenshot',
              output: { type: 'content', value: [{ type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' }] },
            },
          ],
        },
      ],
    };
    expect(roundTrip(prompt)).toEqual(prompt);
  });
});
