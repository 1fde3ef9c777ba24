// Generators of valid AI SDK prompts for property tests: user, assistant and system turns, tool calls answered by
// tool messages or executed by the provider, approvals, provider options, binary and URL media.
import fc from 'fast-check';
import type {
  AiSdkAssistantMessage,
  AiSdkModelMessage,
  AiSdkPrompt,
  AiSdkProviderOptions,
  AiSdkToolApprovalResponsePart,
  AiSdkToolResultOutput,
  AiSdkToolResultPart,
  AiSdkUserMessage,
} from '../ai-sdk-prompt.js';

type UserPart = Exclude<AiSdkUserMessage['content'], string>[number];
type AssistantPart = Exclude<AiSdkAssistantMessage['content'], string>[number];

const word = fc.constantFrom('read', 'the', 'file', 'ok', '', 'ünïcødé', '{"json": true}', 'https://example.com');
const text = fc.array(word, { maxLength: 5 }).map((words) => words.join(' '));
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const options = fc.option(
  fc.constantFrom<AiSdkProviderOptions>({ anthropic: { cacheControl: { type: 'ephemeral' } } }, { openai: { itemId: 'msg_1' } }),
  { nil: undefined },
);
const withOptions = <T extends object>(value: T, providerOptions: AiSdkProviderOptions | undefined): T =>
  providerOptions === undefined ? value : { ...value, providerOptions };

const userPart: fc.Arbitrary<UserPart> = fc.oneof(
  fc.tuple(text, options).map(([value, providerOptions]) => withOptions({ type: 'text' as const, text: value }, providerOptions)),
  fc.constantFrom<UserPart>(
    { type: 'image', image: 'iVBORw0KGgo=' },
    { type: 'image', image: 'https://example.com/a.png', mediaType: 'image/png' },
    { type: 'image', image: new Uint8Array([1, 2, 3]), mediaType: 'image/jpeg' },
    { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
    { type: 'file', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
  ),
);

const reasoning: fc.Arbitrary<AssistantPart> = fc.oneof(
  text.map((value) => ({ type: 'reasoning' as const, text: value })),
  text.map((value) => ({ type: 'reasoning' as const, text: value, providerOptions: { anthropic: { signature: 'EqQBsig' } } })),
  fc.constant<AssistantPart>({ type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'ENC' } } }),
  text.map((value) => ({ type: 'reasoning' as const, text: value, providerOptions: { google: { thoughtSignature: 'c2ln' } } })),
);

const output: fc.Arbitrary<AiSdkToolResultOutput> = fc.oneof(
  text.map((value) => ({ type: 'text' as const, value })),
  json.map((value) => ({ type: 'json' as const, value: value as never })),
  text.map((value) => ({ type: 'error-text' as const, value })),
  json.map((value) => ({ type: 'error-json' as const, value: value as never })),
  fc.constant<AiSdkToolResultOutput>({ type: 'content', value: [{ type: 'text', text: 'x' }, { type: 'media', data: 'AA==', mediaType: 'image/png' }] }),
  fc.constantFrom<AiSdkToolResultOutput>({ type: 'execution-denied' }, { type: 'execution-denied', reason: 'no' }),
);

const callSpec = fc.record({
  name: fc.constantFrom('read', 'run'),
  input: json,
  output,
  providerExecuted: fc.boolean(),
  options,
  needsApproval: fc.boolean(),
});

/**
 * A turn of the prompt, given its place in the prompt (which makes its tool call ids unique in the prompt, unless
 * `numberedPerTurn`: then it numbers its calls from 0, as some providers do in every turn).
 */
type Turn = (turnIndex: number, numberedPerTurn: boolean) => AiSdkModelMessage[];

/** An assistant message (text, reasoning, calls) followed by tool messages answering every client-executed call. */
const assistantTurn = fc
  .tuple(
    fc.array(fc.oneof(text.map((value) => ({ type: 'text' as const, text: value })), reasoning), { maxLength: 3 }),
    fc.array(callSpec, { maxLength: 3 }),
    fc.boolean(),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([leading, calls, splitResults, stringContent, approvalsApart]): Turn => (turnIndex, numberedPerTurn) => {
    const ids = calls.map((_, index) => (numberedPerTurn ? `call-${index}` : `call-${turnIndex}-${index}`));
    const result = (index: number): AiSdkToolResultPart => {
      const call = calls[index] as (typeof calls)[number];
      return withOptions({ type: 'tool-result' as const, toolCallId: ids[index] as string, toolName: call.name, output: call.output }, call.options);
    };
    const content: AssistantPart[] = [...leading];
    calls.forEach((call, index) => {
      content.push(
        withOptions(
          {
            type: 'tool-call' as const,
            toolCallId: ids[index] as string,
            toolName: call.name,
            input: call.input as never,
            ...(call.providerExecuted ? { providerExecuted: true } : {}),
          },
          call.options,
        ),
      );
      if (call.needsApproval) content.push({ type: 'tool-approval-request', approvalId: `approval-${turnIndex}-${index}`, toolCallId: ids[index] as string });
      if (call.providerExecuted) content.push(result(index));
    });
    // AI SDK 6 / 7 tool approvals: the user's answers in a tool message of their own or before the results.
    const approvals: AiSdkToolApprovalResponsePart[] = calls.flatMap((call, index) =>
      call.needsApproval ? [{ type: 'tool-approval-response' as const, approvalId: `approval-${turnIndex}-${index}`, approved: index % 2 === 0 }] : [],
    );
    const assistant: AiSdkModelMessage =
      stringContent && calls.length === 0 ? { role: 'assistant', content: 'plain answer' } : { role: 'assistant', content };
    const answered = calls.flatMap((call, index) => (call.providerExecuted ? [] : [result(index)]));
    const approvalMessages: AiSdkModelMessage[] = approvals.length > 0 && (approvalsApart || answered.length === 0) ? [{ role: 'tool', content: approvals }] : [];
    const leadingApprovals = approvalMessages.length === 0 ? approvals : [];
    if (answered.length === 0) return [assistant, ...approvalMessages];
    const tools: AiSdkModelMessage[] = splitResults
      ? answered.map((part, index) => ({ role: 'tool', content: index === 0 ? [...leadingApprovals, part] : [part] }))
      : [{ role: 'tool', content: [...leadingApprovals, ...answered] }];
    return [assistant, ...approvalMessages, ...tools];
  });

const userTurn = fc
  .tuple(fc.oneof(text, fc.array(userPart, { maxLength: 3 })), options)
  .map(([content, providerOptions]): Turn => () => [withOptions({ role: 'user' as const, content }, providerOptions)]);

const systemTurn = text.map((content): Turn => () => [{ role: 'system', content }]);

/** A valid prompt: optional system string and tools, leading system messages, then up to ten turns. */
export const promptArbitrary: fc.Arbitrary<AiSdkPrompt> = fc
  .record({
    system: fc.option(text, { nil: undefined }),
    leadingSystem: fc.array(systemTurn, { maxLength: 2 }),
    turns: fc.array(fc.oneof({ weight: 3, arbitrary: userTurn }, { weight: 3, arbitrary: assistantTurn }, { weight: 1, arbitrary: systemTurn }), {
      maxLength: 10,
    }),
    numberedPerTurn: fc.boolean(),
    tools: fc.option(
      fc.constantFrom<NonNullable<AiSdkPrompt['tools']>>({}, { read: { description: 'Read', inputSchema: { type: 'object' } } }, { run: { inputSchema: {}, providerOptions: { x: { y: 1 } } } }),
      { nil: undefined },
    ),
  })
  .map(({ system, leadingSystem, turns, numberedPerTurn, tools }) => {
    const messages = leadingSystem.flatMap((turn) => turn(0, false));
    turns.forEach((turn, turnIndex) => {
      // Consecutive assistant messages are one turn for the providers: their calls are numbered together.
      messages.push(...turn(turnIndex, numberedPerTurn && messages.at(-1)?.role !== 'assistant'));
    });
    return { ...(system === undefined ? {} : { system }), messages, ...(tools === undefined ? {} : { tools }) };
  });
