import { parseClaudeCodeSession } from '@ctx/format-claude-code';
import { describe, expect, it } from 'vitest';
import { dedupeBilledModelCalls, readBilledModelCall, type BilledModelCall } from './billed-model-calls.js';

interface RecordFields {
  readonly id?: string;
  readonly requestId?: string;
  readonly model?: string;
  readonly usage?: Record<string, unknown>;
  readonly isSidechain?: boolean;
  readonly [field: string]: unknown;
}

let uuid = 0;
/** One assistant record line of a session file. */
function assistant({ id, requestId, model = 'claude-sonnet-4-5-20250929', usage = { input_tokens: 10, output_tokens: 5 }, isSidechain = false, ...rest }: RecordFields): string {
  uuid += 1;
  return JSON.stringify({
    type: 'assistant',
    uuid: `u${uuid}`,
    parentUuid: null,
    isSidechain,
    sessionId: 's1',
    version: '2.1.39',
    timestamp: '2026-02-12T10:00:00.000Z',
    ...(requestId === undefined ? {} : { requestId }),
    message: { ...(id === undefined ? {} : { id }), type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'ok' }], usage },
    ...rest,
  });
}

/** The billed calls of a file made of `lines`, counted once. */
function billed(...lines: string[]): BilledModelCall[] {
  const session = parseClaudeCodeSession(lines.join('\n'));
  return dedupeBilledModelCalls(session.records.flatMap((record) => readBilledModelCall(record, 'session.jsonl') ?? []));
}

describe('dedupeBilledModelCalls', () => {
  it('should count records sharing a message id and request id once, with the usage of the record with the most tokens (ccusage)', () => {
    const calls = billed(
      assistant({ id: 'msg_1', requestId: 'req_1', usage: { input_tokens: 3, output_tokens: 1, cache_read_input_tokens: 500 } }),
      assistant({ id: 'msg_1', requestId: 'req_1', usage: { input_tokens: 3, output_tokens: 40, cache_read_input_tokens: 500 } }),
      assistant({ id: 'msg_1', requestId: 'req_1', usage: { input_tokens: 3, output_tokens: 12, cache_read_input_tokens: 500 } }),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.usage).toMatchObject({ inputTokens: 3, outputTokens: 40, cacheReadTokens: 500 });
  });

  it('should count the same message id under two request ids twice, and records without a message id every time', () => {
    const calls = billed(
      assistant({ id: 'msg_1', requestId: 'req_1' }),
      assistant({ id: 'msg_1', requestId: 'req_2' }),
      assistant({ requestId: 'req_3' }),
      assistant({ requestId: 'req_3' }),
    );
    expect(calls).toHaveLength(4);
  });

  it('should match records without a request id on the message id alone', () => {
    expect(billed(assistant({ id: 'msg_1' }), assistant({ id: 'msg_1' }))).toHaveLength(1);
  });

  it('should drop a sidechain copy that replays a parent message under another request id, keeping the parent record', () => {
    const calls = billed(
      assistant({ id: 'msg_1', requestId: 'req_1', usage: { input_tokens: 10, output_tokens: 5 } }),
      assistant({ id: 'msg_1', requestId: 'req_9', isSidechain: true, usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 9000 } }),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ requestId: 'req_1', isSidechain: false });
  });
});

describe('readBilledModelCall', () => {
  it('should keep 1-hour cache writes apart from 5-minute ones', () => {
    const [call] = billed(
      assistant({
        id: 'msg_1',
        requestId: 'req_1',
        usage: { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 700, cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 } },
      }),
    );
    expect(call?.usage).toMatchObject({ cacheWriteTokens: 200, cacheWrite1hTokens: 500 });
  });

  it('should count cache writes without a lifetime split as 5-minute writes', () => {
    const [call] = billed(assistant({ id: 'msg_1', requestId: 'req_1', usage: { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 700 } }));
    expect(call?.usage).toMatchObject({ cacheWriteTokens: 700, cacheWrite1hTokens: 0 });
  });

  it('should keep the <synthetic> model name of messages Claude Code made up', () => {
    const [call] = billed(assistant({ id: 'msg_1', requestId: 'req_1', model: '<synthetic>', usage: { input_tokens: 0, output_tokens: 0 } }));
    expect(call?.model).toBe('<synthetic>');
  });

  it('should skip records ccusage skips: a version that is not one, an empty request id, no timestamp, a usage without output tokens', () => {
    const calls = billed(
      assistant({ id: 'msg_1', requestId: 'req_1', version: 'dev' }),
      assistant({ id: 'msg_2', requestId: '' }),
      assistant({ id: 'msg_3', requestId: 'req_3', timestamp: undefined }),
      assistant({ id: 'msg_4', requestId: 'req_4', usage: { input_tokens: 10 } }),
      assistant({ id: 'msg_5', requestId: 'req_5' }),
    );
    expect(calls.map((call) => call.messageId)).toEqual(['msg_5']);
  });

  it('should not count a subagent message nested in a progress record', () => {
    const progress = JSON.stringify({
      type: 'progress',
      uuid: 'p1',
      parentUuid: null,
      sessionId: 's1',
      timestamp: '2026-02-12T10:00:00.000Z',
      data: { message: { type: 'assistant', message: { id: 'msg_9', model: 'claude-haiku-4-5', usage: { input_tokens: 20, output_tokens: 2 } }, requestId: 'req_9' } },
    });
    expect(billed(progress, assistant({ id: 'msg_1', requestId: 'req_1' })).map((call) => call.messageId)).toEqual(['msg_1']);
  });
});
