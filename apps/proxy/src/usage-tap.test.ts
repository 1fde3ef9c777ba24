import { describe, expect, it } from 'vitest';
import { readReportedInputTokens, tapReportedUsage } from './usage-tap.js';

describe('readReportedInputTokens', () => {
  it('should add cached tokens to the input of an Anthropic response, and read prompt_tokens of an OpenAI one', () => {
    const stream = 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":12,"cache_creation_input_tokens":100,"cache_read_input_tokens":3000}}}\n\n';
    expect(readReportedInputTokens('anthropic', stream)).toBe(3112);
    expect(readReportedInputTokens('openai', '{"usage":{"prompt_tokens":42,"completion_tokens":3}}')).toBe(42);
    expect(readReportedInputTokens('anthropic', 'data: {"delta":{"text":"\\"input_tokens\\": 5"}}')).toBeUndefined();
  });
});

describe('tapReportedUsage', () => {
  it('should pass every byte through unchanged and report the usage at the end', async () => {
    const chunks = ['data: {"usage":{"prompt', '_tokens":77}}\n\n', 'data: [DONE]\n\n'];
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const reported: number[] = [];
    const text = await new Response(tapReportedUsage(source, 'openai', (tokens) => reported.push(tokens))).text();
    expect(text).toBe(chunks.join(''));
    expect(reported).toEqual([77]);
  });
});
