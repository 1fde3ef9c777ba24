import type { HistoryEntry, JsonValue } from '@ctx/core';
import fc from 'fast-check';

const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', ' ', '\n\n', 'Done. ', 'Reading a.ts'));
// Often one of a few ids: some Anthropic-compatible providers and recordings reuse tool_use ids across turns (and
// `toolu_1_2` is shaped like the copy a decode makes of a reused `toolu_1`).
const id = fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,6}$/), fc.constantFrom('toolu_1', 'toolu_1_2'));
const json = fc.jsonValue({ maxDepth: 2 });
const jsonObject = fc.dictionary(fc.stringMatching(/^[a-z_]{1,6}$/), json, { maxKeys: 3 });
const cacheControl = fc.constantFrom({ type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }, null);

/** Adds some of `extras` (each present or not) to a base object. */
function withOptional<T extends object>(base: fc.Arbitrary<T>, extras: Record<string, fc.Arbitrary<unknown>>) {
  return fc
    .tuple(base, fc.record(extras, { requiredKeys: [] }))
    .map(([value, optional]) => ({ ...value, ...optional }));
}

const textBlock = withOptional(fc.record({ type: fc.constant('text'), text }), {
  cache_control: cacheControl,
  citations: fc.constant([
    { type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 },
  ]),
});
const imageBlock = withOptional(
  fc.record({
    type: fc.constant('image'),
    source: fc.oneof(
      fc.record({
        type: fc.constant('base64'),
        media_type: fc.constantFrom('image/png', 'image/jpeg', 'text/plain'),
        data: fc.base64String({ maxLength: 8 }),
      }),
      fc.record({
        type: fc.constant('url'),
        url: fc.constantFrom('https://x.test/a.png', 'https://x.test/photo', 'https://x.test/b.pdf'),
      }),
      fc.record({ type: fc.constant('file'), file_id: id }),
    ),
  }),
  { cache_control: cacheControl },
);
const documentBlock = withOptional(
  fc.record({
    type: fc.constant('document'),
    source: fc.oneof(
      fc.record({
        type: fc.constant('base64'),
        media_type: fc.constantFrom('application/pdf', 'image/png'),
        data: fc.base64String({ maxLength: 8 }),
      }),
      fc.record({ type: fc.constant('text'), media_type: fc.constant('text/plain'), data: text }),
      fc.record({ type: fc.constant('url'), url: fc.constant('https://x.test/spec.pdf') }),
      fc.record({
        type: fc.constant('content'),
        content: fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 2 }),
      }),
    ),
  }),
  {
    title: fc.option(text, { nil: null }),
    context: text,
    citations: fc.constant({ enabled: true }),
    cache_control: cacheControl,
  },
);
const toolUseBlock = withOptional(
  fc.record({
    type: fc.constant('tool_use'),
    id,
    name: fc.constantFrom('read_file', 'bash'),
    input: fc.oneof(jsonObject, json),
  }),
  { cache_control: cacheControl, caller: fc.constant({ type: 'direct' }) },
);
const toolResultBlock = withOptional(fc.record({ type: fc.constant('tool_result'), tool_use_id: id }), {
  content: fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 2 })),
  is_error: fc.boolean(),
  cache_control: cacheControl,
});
const thinkingBlock = fc.record({
  type: fc.constant('thinking'),
  thinking: text,
  signature: fc.base64String({ maxLength: 12 }),
});
const redactedThinkingBlock = fc.record({
  type: fc.constant('redacted_thinking'),
  data: fc.base64String({ maxLength: 12 }),
});
const opaqueBlock = fc.oneof(
  fc.record({ type: fc.constant('server_tool_use'), id, name: fc.constant('web_search'), input: jsonObject }),
  fc.record({ type: fc.constant('web_search_tool_result'), tool_use_id: id, content: fc.constant([]) }),
  fc.record({ type: fc.constant('future_block'), payload: json }),
);
const block = fc.oneof(
  { arbitrary: textBlock, weight: 4 },
  imageBlock,
  documentBlock,
  { arbitrary: toolUseBlock, weight: 2 },
  { arbitrary: toolResultBlock, weight: 2 },
  thinkingBlock,
  redactedThinkingBlock,
  opaqueBlock,
);

const message = withOptional(
  fc.record({
    role: fc.constantFrom('user', 'assistant'),
    content: fc.oneof(text, fc.array(block, { maxLength: 5 })),
  }),
  {
    id: id.map((value) => `msg_${value}`),
    type: fc.constant('message'),
    model: fc.constant('claude-sonnet-4-5'),
    stop_reason: fc.constantFrom('end_turn', 'tool_use', null),
    usage: fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat(), service_tier: fc.constant('standard') }),
  },
);

const tool = fc.oneof(
  withOptional(
    fc.record({ name: fc.constantFrom('read_file', 'bash'), input_schema: fc.constant({ type: 'object' }) }),
    {
      description: text,
      cache_control: cacheControl,
      type: fc.constantFrom('custom', null),
    },
  ),
  fc.record({ type: fc.constant('web_search_20250305'), name: fc.constant('web_search'), max_uses: fc.nat(9) }),
  fc.record({ name: fc.constant('no_schema') }),
);

/** Random Anthropic requests: every block type (also in the wrong role), string and block content, extras. */
export const anthropicRequest = withOptional(fc.record({ messages: fc.array(message, { maxLength: 8 }) }), {
  system: fc.oneof(text, fc.array(textBlock, { maxLength: 3 })),
  tools: fc.array(tool, { maxLength: 3 }),
  model: fc.constant('claude-sonnet-4-5'),
  max_tokens: fc.nat(),
});

const word = fc.constantFrom('read', 'the', 'file', 'fix', 'test', 'done');
const prose = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

/**
 * Random pair-valid histories as another format would decode them (no Anthropic metadata): alternating human and
 * assistant turns, tool batches answered in one or several tool entries, signed or unsigned thinking, parameters
 * that are objects or (malformed) strings. Starts with a human entry.
 */
export const foreignHistory = fc
  .array(
    fc.record({
      human: fc.array(prose, { minLength: 1, maxLength: 2 }),
      thinking: fc.option(
        fc.record({
          thought: prose,
          signature: fc.option(fc.base64String({ minLength: 4, maxLength: 8 }), { nil: undefined }),
        }),
        { nil: undefined },
      ),
      answer: fc.option(fc.constantFrom('Done.', 'Sure.\n', '  '), { nil: undefined }),
      calls: fc.array(fc.record({ parameters: fc.oneof(jsonObject, fc.constant('{"path": ')), result: prose }), {
        maxLength: 3,
      }),
      splitResults: fc.boolean(),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((turns) => {
    let next = 0;
    const history: HistoryEntry[] = [];
    for (const turn of turns) {
      history.push(
        ...turn.human.map((value): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text: value }] })),
      );
      const ids = turn.calls.map(() => `call_${next++}`);
      // An assistant turn says or calls something (an entry without blocks has no valid encoding).
      const answer = turn.answer ?? (turn.calls.length === 0 ? 'Done.' : undefined);
      history.push({
        speaker: 'ai',
        blocks: [
          ...(turn.thinking === undefined
            ? []
            : [
                {
                  type: 'thinking' as const,
                  thought: turn.thinking.thought,
                  ...(turn.thinking.signature === undefined ? {} : { signature: turn.thinking.signature }),
                },
              ]),
          ...(answer === undefined ? [] : [{ type: 'text' as const, text: answer }]),
          ...turn.calls.map((call, index) => ({
            type: 'tool_call' as const,
            id: ids[index] ?? '',
            name: 'read_file',
            parameters: call.parameters as JsonValue,
          })),
        ],
      });
      const responses = turn.calls.map((call, index) => ({
        type: 'tool_response' as const,
        callId: ids[index] ?? '',
        toolName: 'read_file',
        result: call.result,
      }));
      if (responses.length === 0) continue;
      if (turn.splitResults)
        history.push(...responses.map((response): HistoryEntry => ({ speaker: 'tool', blocks: [response] })));
      else history.push({ speaker: 'tool', blocks: responses });
    }
    return history;
  });
