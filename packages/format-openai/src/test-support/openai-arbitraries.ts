import type { HistoryEntry, JsonValue } from '@ctx/core';
import fc from 'fast-check';

const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', ' ', 'Done.\n', 'ls -F'));
// Often one of a few ids, as providers that number calls per turn reuse them (and shaped like the copies a decode
// makes of a reused id, `call_1_2`, or like the ids it makes up for legacy function calls and messages).
const id = fc.oneof(
  fc.stringMatching(/^call_[a-z0-9]{1,4}$/),
  fc.constantFrom('list_dir:0', 'call_1', 'call_1_2', 'function_call_1', 'function_call_2', 'function_result_2'),
);
const json = fc.jsonValue({ maxDepth: 2 });
const jsonObject = fc.dictionary(fc.stringMatching(/^[a-z_]{1,6}$/), json, { maxKeys: 3 });

/** Arguments strings a model or a recording may hold: compact, spaced, malformed, or JSON that is not an object. */
const argumentsText = fc.oneof(
  jsonObject.map((value) => JSON.stringify(value)),
  jsonObject.map((value) => JSON.stringify(value, null, 1)),
  fc.constantFrom(
    '{"path": "a.ts"}',
    '{"n": 1.0}',
    '{"path": "a.ts"',
    '"a.ts"',
    '',
    '1e999',
    '-0',
    '{"a":1,"a":2}',
    'null',
  ),
);

function withOptional<T extends object>(base: fc.Arbitrary<T>, extras: Record<string, fc.Arbitrary<unknown>>) {
  return fc
    .tuple(base, fc.record(extras, { requiredKeys: [] }))
    .map(([value, optional]) => ({ ...value, ...optional }));
}

const textPart = withOptional(fc.record({ type: fc.constant('text'), text }), {
  cache_control: fc.constant({ type: 'ephemeral' }),
});
const imagePart = fc.record({
  type: fc.constant('image_url'),
  image_url: withOptional(
    fc.record({
      url: fc.oneof(
        fc.base64String({ maxLength: 8 }).map((data) => `data:image/png;base64,${data}`),
        fc.constantFrom(
          'https://x.test/a.jpg',
          'https://x.test/photo',
          'data:image/png;charset=x;base64,AA',
          'data:,hello',
        ),
      ),
    }),
    { detail: fc.constantFrom('auto', 'low', 'high') },
  ),
});
const audioPart = fc.record({
  type: fc.constant('input_audio'),
  input_audio: fc.record({
    data: fc.base64String({ maxLength: 8 }),
    format: fc.constantFrom('wav', 'mp3', 'mpeg', 'ogg'),
  }),
});
const filePart = fc.record({
  type: fc.constant('file'),
  file: fc.oneof(
    withOptional(
      fc.record({ file_data: fc.base64String({ maxLength: 8 }).map((data) => `data:application/pdf;base64,${data}`) }),
      {
        filename: fc.constant('a.pdf'),
      },
    ),
    fc.record({ file_id: fc.constant('file-abc') }),
    fc.record({ file_data: fc.constant('JVBERi0=') }),
  ),
});
const refusalPart = fc.record({ type: fc.constant('refusal'), refusal: text });
const unknownPart = fc.record({ type: fc.constant('future_part'), payload: json });
const anyPart = fc.oneof({ arbitrary: textPart, weight: 3 }, imagePart, audioPart, filePart, refusalPart, unknownPart);
const content = fc.oneof(text, fc.array(anyPart, { maxLength: 4 }));

const trajectoryExtras = {
  name: fc.constant('agent'),
  thought: text,
  agent: fc.constant('main'),
  message_type: fc.constantFrom('action', 'observation'),
  extra: fc.constant({ response: { model: 'x' } }),
};

const toolCall = fc.oneof(
  fc.record({
    id,
    type: fc.constant('function'),
    function: fc.record({ name: fc.constantFrom('bash', 'open'), arguments: argumentsText }),
  }),
  fc.record({ id, type: fc.constant('custom'), custom: fc.record({ name: fc.constant('sql'), input: text }) }),
);

const message = fc.oneof(
  withOptional(fc.record({ role: fc.constantFrom('system', 'developer', 'user'), content }), trajectoryExtras),
  withOptional(fc.record({ role: fc.constant('assistant') }), {
    content: fc.oneof(text, fc.constant(null), fc.array(anyPart, { maxLength: 3 })),
    tool_calls: fc.array(toolCall, { maxLength: 3 }),
    function_call: fc.oneof(
      fc.constant(null),
      fc.record({ name: fc.constant('get_weather'), arguments: argumentsText }),
    ),
    refusal: fc.oneof(text, fc.constant(null)),
    audio: fc.constant({ id: 'audio_1' }),
    ...trajectoryExtras,
  }),
  fc.oneof(
    withOptional(fc.record({ role: fc.constant('tool'), tool_call_id: id, content }), trajectoryExtras),
    withOptional(
      fc.record({ role: fc.constant('tool'), tool_call_ids: fc.array(id, { minLength: 1, maxLength: 2 }), content }),
      trajectoryExtras,
    ),
  ),
  fc.record({
    role: fc.constant('function'),
    name: fc.constantFrom('get_weather', 'other'),
    content: fc.oneof(text, fc.constant(null)),
  }),
);

const tool = fc.oneof(
  fc.record({
    type: fc.constant('function'),
    function: withOptional(fc.record({ name: fc.constantFrom('bash', 'open') }), {
      description: text,
      parameters: fc.constant({ type: 'object' }),
      strict: fc.boolean(),
    }),
  }),
  fc.record({
    type: fc.constant('custom'),
    custom: withOptional(fc.record({ name: fc.constant('sql') }), { format: fc.constant({ type: 'text' }) }),
  }),
);

/** Random OpenAI chat requests: every role and part type, tricky `arguments`, trajectory extras, legacy calls. */
export const openAIRequest = withOptional(fc.record({ messages: fc.array(message, { maxLength: 8 }) }), {
  tools: fc.array(tool, { maxLength: 2 }),
  model: fc.constant('gpt-4.1'),
});

const word = fc.constantFrom('read', 'the', 'file', 'fix', 'test', 'done');
const prose = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

/**
 * Random pair-valid histories as another format would decode them (no OpenAI metadata): human and assistant
 * turns, tool batches answered in one or several tool entries, thinking, parameters that are objects or
 * (malformed) strings. Starts with a human entry.
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
      splitCalls: fc.boolean(),
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
      const answer = turn.answer ?? (turn.calls.length === 0 ? 'Done.' : undefined);
      const thinking =
        turn.thinking === undefined
          ? []
          : [
              {
                type: 'thinking' as const,
                thought: turn.thinking.thought,
                ...(turn.thinking.signature === undefined ? {} : { signature: turn.thinking.signature }),
              },
            ];
      const calls = turn.calls.map((call, index) => ({
        type: 'tool_call' as const,
        id: ids[index] ?? '',
        name: 'read_file',
        parameters: call.parameters as JsonValue,
      }));
      const said = [...thinking, ...(answer === undefined ? [] : [{ type: 'text' as const, text: answer }])];
      // Claude Code stores one assistant turn as several entries; other formats as one.
      if (turn.splitCalls) {
        if (said.length > 0) history.push({ speaker: 'ai', blocks: said });
        history.push(...calls.map((block): HistoryEntry => ({ speaker: 'ai', blocks: [block] })));
      } else {
        history.push({ speaker: 'ai', blocks: [...said, ...calls] });
      }
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
