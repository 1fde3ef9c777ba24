import { validateAnthropicRequest } from '@ctx/format-anthropic';
import { describe, expect, it } from 'vitest';
import { restoreCacheBreakpoints } from './cache-breakpoints.js';

const ephemeral = { type: 'ephemeral' };

function text(value: string, withBreakpoint = false) {
  return withBreakpoint ? { type: 'text', text: value, cache_control: ephemeral } : { type: 'text', text: value };
}

function count(value: unknown): number {
  return (JSON.stringify(value).match(/"cache_control"/g) ?? []).length;
}

describe('restoreCacheBreakpoints', () => {
  it('should put a breakpoint back on the same block when that message was sent unchanged', () => {
    const request = {
      messages: [
        { role: 'user', content: [text('a long file dump')] },
        { role: 'assistant', content: [text('ok')] },
        { role: 'user', content: [text('next', true)] },
      ],
    };
    const compressed = [
      { role: 'user', content: [text('[cut]')] },
      { role: 'assistant', content: [text('ok')] },
      { role: 'user', content: [text('next')] },
    ];
    const result = restoreCacheBreakpoints(request, compressed);
    expect(result.messages[2]).toEqual({ role: 'user', content: [text('next', true)] });
    expect(result).toMatchObject({ kept: 1, moved: 0, dropped: 0 });
  });

  it('should move a breakpoint whose block was compressed away to the last block that can carry it at its place', () => {
    const request = {
      messages: [
        { role: 'user', content: [text('old', true)] },
        { role: 'assistant', content: [text('ok')] },
        { role: 'user', content: [text('next')] },
      ],
    };
    const compressed = [
      { role: 'user', content: [text('[summary]')] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, text('ok')] },
      { role: 'user', content: [text('next')] },
    ];
    const result = restoreCacheBreakpoints(request, compressed);
    expect(result.moved).toBe(1);
    expect(count(result.messages)).toBe(1);
    expect(validateAnthropicRequest({ messages: result.messages })).toEqual([]);
  });

  it('should keep at most four breakpoints in the whole request, the newest ones', () => {
    const request = {
      system: [text('system', true)],
      tools: [{ name: 'read', input_schema: { type: 'object' }, cache_control: ephemeral }],
      messages: [
        { role: 'user', content: [text('1', true)] },
        { role: 'assistant', content: [text('2', true)] },
        { role: 'user', content: [text('3', true)] },
      ],
    };
    const result = restoreCacheBreakpoints(request, request.messages.map((message) => ({ ...message, content: message.content.map((block) => ({ type: block.type, text: block.text })) })));
    expect(count(result.messages)).toBe(2);
    expect(result.messages[0]).toEqual({ role: 'user', content: [text('1')] });
    expect(result.dropped).toBe(1);
    expect(validateAnthropicRequest({ ...request, messages: result.messages })).toEqual([]);
  });

  it('should never put a breakpoint on a thinking block', () => {
    const request = { messages: [{ role: 'user', content: [text('q')] }, { role: 'assistant', content: [text('a', true)] }] };
    const compressed = [{ role: 'user', content: [text('q')] }, { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }] }];
    const result = restoreCacheBreakpoints(request, compressed);
    expect(JSON.stringify(result.messages[1])).not.toContain('cache_control');
    expect(JSON.stringify(result.messages[0])).toContain('cache_control');
  });
});
