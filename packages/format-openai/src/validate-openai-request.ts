import { isJsonObject } from '@ctx/core';
import { createRequestSchemaCheck, findLoneSurrogates, type RequestValidationOptions } from '@ctx/format-utils';
import {
  openAIChatRequestSchema,
  openAIMessageSchema,
  type OpenAIChatRequest,
  type OpenAIContentPart,
  type OpenAIMessage,
} from './openai-chat-request-schema.js';

/** The request rule a problem breaks. */
export type OpenAIRequestRule =
  /** Not the request shape at all (a field of the wrong type, an unknown role, …). */
  | 'schema'
  /** A field the API does not accept (additional properties are not allowed), e.g. a trajectory's `thought`. */
  | 'extra-field'
  | 'empty-messages'
  /** A tool message without `tool_call_id`. */
  | 'missing-tool-call-id'
  /** A tool message that does not answer a call of the assistant message right before its run of tool messages. */
  | 'orphan-tool-message'
  | 'duplicate-tool-message'
  /** A tool call without a tool message in the run right after its assistant message. */
  | 'unanswered-tool-call'
  | 'duplicate-tool-call-id'
  /** An assistant message with neither content nor tool calls. */
  | 'empty-assistant'
  /** A content array without parts. */
  | 'empty-content'
  /** A content part the role cannot hold (an image in a system message, …). */
  | 'part-not-allowed'
  | 'audio-format'
  /** An image URL that is neither http(s) nor a base64 data URL. */
  | 'image-url'
  | 'tool-name-format'
  | 'duplicate-tool-name'
  /**
   * A string anywhere in the request (content, tool call arguments, tool definition, …) holding an unpaired UTF-16
   * surrogate half: not valid Unicode, so the API rejects the request.
   */
  | 'lone-surrogate';

/** One way a request breaks the API's rules. */
export interface OpenAIRequestProblem {
  readonly rule: OpenAIRequestRule;
  /** Where, e.g. `messages[3].tool_call_id`; empty for the request itself. */
  readonly path: string;
  readonly message: string;
}

const allowedMessageKeys: Readonly<Record<OpenAIMessage['role'], readonly string[]>> = {
  system: ['role', 'content', 'name'],
  developer: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'function_call', 'refusal', 'audio'],
  tool: ['role', 'content', 'tool_call_id'],
  function: ['role', 'content', 'name'],
};
const allowedPartKeys: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text'],
  image_url: ['type', 'image_url'],
  input_audio: ['type', 'input_audio'],
  file: ['type', 'file'],
  refusal: ['type', 'refusal'],
};
const allowedInnerKeys: Readonly<Record<string, readonly string[]>> = {
  image_url: ['url', 'detail'],
  input_audio: ['data', 'format'],
  file: ['file_data', 'file_id', 'filename'],
};
const allowedPartTypes: Readonly<Record<OpenAIMessage['role'], ReadonlySet<string>>> = {
  system: new Set(['text']),
  developer: new Set(['text']),
  user: new Set(['text', 'image_url', 'input_audio', 'file']),
  assistant: new Set(['text', 'refusal']),
  tool: new Set(['text']),
  function: new Set(),
};
const audioFormats: ReadonlySet<string> = new Set(['wav', 'mp3']);
const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

class RequestChecker {
  readonly problems: OpenAIRequestProblem[] = [];

  report(rule: OpenAIRequestRule, path: string, message: string): void {
    this.problems.push({ rule, path, message });
  }

  extraKeys(value: object, allowed: readonly string[], path: string): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        this.report('extra-field', `${path}.${key}`, `additional properties are not allowed ('${key}' was unexpected)`);
    }
  }

  private part(part: OpenAIContentPart, role: OpenAIMessage['role'], path: string): void {
    if (!allowedPartTypes[role].has(part.type)) {
      this.report('part-not-allowed', `${path}.type`, `a ${part.type} part is not allowed in a ${role} message`);
      return;
    }
    this.extraKeys(part, allowedPartKeys[part.type] ?? [], path);
    const inner = part[part.type];
    const innerKeys = allowedInnerKeys[part.type];
    if (isJsonObject(inner) && innerKeys !== undefined) this.extraKeys(inner, innerKeys, `${path}.${part.type}`);
    if (
      part.type === 'input_audio' &&
      isJsonObject(inner) &&
      typeof inner.format === 'string' &&
      !audioFormats.has(inner.format)
    ) {
      this.report('audio-format', `${path}.input_audio.format`, `audio format ${inner.format} is not one of wav, mp3`);
    }
    if (
      part.type === 'image_url' &&
      isJsonObject(inner) &&
      typeof inner.url === 'string' &&
      !/^(https?:|data:[^;,]+;base64,)/.test(inner.url)
    ) {
      this.report('image-url', `${path}.image_url.url`, 'expected an http(s) URL or a base64 data URL');
    }
  }

  content(content: OpenAIMessage['content'], role: OpenAIMessage['role'], path: string): void {
    if (!Array.isArray(content)) return;
    if (content.length === 0) this.report('empty-content', path, 'expected an array with at least one part');
    content.forEach((part, index) => this.part(part, role, `${path}[${index}]`));
  }

  messages(messages: readonly OpenAIMessage[]): void {
    if (messages.length === 0) this.report('empty-messages', 'messages', 'at least one message is required');
    const callIds = new Set<string>();
    /** The calls of the assistant message the current run of tool messages answers. */
    let openCalls: Map<string, { path: string; answered: boolean }> | undefined;
    const closeTurn = () => {
      for (const [id, call] of openCalls ?? []) {
        if (!call.answered)
          this.report('unanswered-tool-call', call.path, `tool call ${id} has no tool message responding to it`);
      }
      openCalls = undefined;
    };

    messages.forEach((message, index) => {
      const path = `messages[${index}]`;
      this.extraKeys(message, allowedMessageKeys[message.role], path);
      this.content(message.content, message.role, `${path}.content`);
      if (message.role !== 'tool') closeTurn();
      switch (message.role) {
        case 'assistant': {
          const toolCalls = message.tool_calls ?? [];
          const hasContent = message.content !== undefined && message.content !== null;
          if (!hasContent && toolCalls.length === 0 && (message.function_call ?? undefined) === undefined) {
            this.report(
              'empty-assistant',
              `${path}.content`,
              'an assistant message needs content, tool_calls or function_call',
            );
          }
          if (toolCalls.length > 0) openCalls = new Map();
          toolCalls.forEach((toolCall, callIndex) => {
            const callPath = `${path}.tool_calls[${callIndex}]`;
            if (callIds.has(toolCall.id))
              this.report(
                'duplicate-tool-call-id',
                `${callPath}.id`,
                `tool call id ${toolCall.id} is used more than once`,
              );
            callIds.add(toolCall.id);
            openCalls?.set(toolCall.id, { path: callPath, answered: false });
          });
          return;
        }
        case 'tool': {
          if (message.tool_call_id === undefined) {
            this.report(
              'missing-tool-call-id',
              `${path}.tool_call_id`,
              'a tool message needs the tool_call_id it responds to',
            );
            return;
          }
          const call = openCalls?.get(message.tool_call_id);
          if (call === undefined) {
            this.report(
              'orphan-tool-message',
              `${path}.tool_call_id`,
              `messages with role 'tool' must respond to a tool call of the preceding assistant message; ${message.tool_call_id} is not one`,
            );
          } else if (call.answered) {
            this.report(
              'duplicate-tool-message',
              `${path}.tool_call_id`,
              `tool call ${message.tool_call_id} is answered more than once`,
            );
          } else {
            call.answered = true;
          }
          return;
        }
        default:
          return;
      }
    });
    closeTurn();
  }

  tools(tools: NonNullable<OpenAIChatRequest['tools']>): void {
    const names = new Set<string>();
    tools.forEach((tool, index) => {
      const path = `tools[${index}]`;
      const name = tool.type === 'custom' ? tool.custom.name : tool.function.name;
      const namePath = `${path}.${tool.type}.name`;
      if (!namePattern.test(name))
        this.report('tool-name-format', namePath, `tool name ${JSON.stringify(name)} must match ${namePattern.source}`);
      if (names.has(name)) this.report('duplicate-tool-name', namePath, `tool name ${name} is used more than once`);
      names.add(name);
    });
  }
}

/** Options of {@link validateOpenAIRequest}: `loneSurrogates` and `isSchemaValidMessage` (see `RequestValidationOptions`). */
export type ValidateOpenAIRequestOptions = RequestValidationOptions;

/** The request schema, parsing only the messages a caller does not vouch for. */
const checkSchema = createRequestSchemaCheck(openAIChatRequestSchema, openAIMessageSchema);

/**
 * Checks a request against the OpenAI Chat Completions API's rules and lists every problem; an empty list means
 * the API should accept the conversation part of the request. Checks: shape and extra fields (the API rejects
 * additional properties, such as the `thought` or `agent` keys of trajectory files), content parts allowed per
 * role and non-empty content arrays, assistant messages with content or calls, tool pairing (every tool call
 * answered by a tool message in the run right after its assistant message, no orphan or duplicate answers, unique
 * call ids, `tool_call_id` present), audio formats, image URLs, tool name format and uniqueness; and that no
 * string anywhere in the request holds an unpaired UTF-16 surrogate half (`lone-surrogate`, reported after the rest).
 *
 * @param request - A value such as `openAIChatCodec.encode(conversation).value`.
 * @param options - `loneSurrogates: false` skips that rule; `isSchemaValidMessage` names messages known to match the
 *   schema's message shape, which are then not parsed again.
 * @returns The problems, in the order found (an unanswered call when its turn ends).
 *
 * @example
 * ```ts
 * const problems = validateOpenAIRequest(openAIChatCodec.encode(conversation).value);
 * if (problems.length > 0) throw new Error(problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
 * ```
 */
export function validateOpenAIRequest(request: unknown, options: ValidateOpenAIRequestOptions = {}): OpenAIRequestProblem[] {
  const issues = checkSchema(request, options.isSchemaValidMessage);
  if (issues.length > 0) return issues.map((issue) => ({ rule: 'schema', ...issue }));
  const checker = new RequestChecker();
  const { messages, tools } = request as OpenAIChatRequest;
  if (tools !== undefined) checker.tools(tools);
  checker.messages(messages);
  for (const path of options.loneSurrogates === false ? [] : findLoneSurrogates(request)) {
    checker.report(
      'lone-surrogate',
      path,
      'text holds an unpaired UTF-16 surrogate half (not valid Unicode); replace it, e.g. with String.prototype.toWellFormed()',
    );
  }
  return checker.problems;
}
