import { isJsonObject, type JsonValue } from '@ctx/core';
import { createRequestSchemaCheck, findLoneSurrogates, type RequestValidationOptions } from '@ctx/format-utils';
import {
  anthropicMessageSchema,
  anthropicRequestSchema,
  type AnthropicContentBlockParam,
  type AnthropicMessageParam,
  type AnthropicRequest,
} from './anthropic-request-schema.js';

/** The request rule a problem breaks. */
export type AnthropicRequestRule =
  /** Not the request shape at all (a field of the wrong type, a missing `role`, …). */
  | 'schema'
  /** A field the API does not accept on a message, block or custom tool (e.g. a response's `id` or `usage`). */
  | 'extra-field'
  | 'empty-messages'
  | 'first-message-role'
  /** Two messages of the same role in a row (the API merges them into one turn; ctx writes alternating roles). */
  | 'roles-not-alternating'
  /** Empty content in a message other than a final assistant message. */
  | 'empty-content'
  /** A text block that is empty or only whitespace. */
  | 'empty-text'
  /** A final assistant message whose text ends with whitespace. */
  | 'trailing-whitespace'
  /** A block in a role that cannot hold it (`tool_use` or `thinking` in a user message, `tool_result` in an assistant message). */
  | 'block-not-allowed'
  /** A `tool_use` without a `tool_result` in the next (user) turn. */
  | 'unanswered-tool-use'
  /** A `tool_result` that answers no `tool_use` of the previous (assistant) turn. */
  | 'orphan-tool-result'
  | 'duplicate-tool-result'
  /** A `tool_result` after another kind of block in its user turn. */
  | 'tool-result-not-first'
  | 'duplicate-tool-use-id'
  | 'tool-use-id-format'
  | 'tool-use-input'
  | 'image-media-type'
  | 'too-many-cache-breakpoints'
  | 'tool-name-format'
  | 'duplicate-tool-name'
  /**
   * With thinking on, the assistant message that opens the turn still in its tool loop does not start with its
   * `thinking` / `redacted_thinking` block (see `validateAnthropicRequest`).
   */
  | 'tool-loop-thinking'
  /**
   * A string anywhere in the request (text, tool input or result, system, tool definition, …) holding an unpaired
   * UTF-16 surrogate half: not valid Unicode, so the API rejects the request.
   */
  | 'lone-surrogate';

/** One way a request breaks the API's rules. */
export interface AnthropicRequestProblem {
  readonly rule: AnthropicRequestRule;
  /** Where, e.g. `messages[3].content[0].tool_use_id`; empty for the request itself. */
  readonly path: string;
  readonly message: string;
}

// A map: block types come from the request, and an object would answer `constructor` with a function.
const allowedBlockKeys: ReadonlyMap<string, readonly string[]> = new Map([
  ['text', ['type', 'text', 'cache_control', 'citations']],
  ['image', ['type', 'source', 'cache_control']],
  ['document', ['type', 'source', 'cache_control', 'citations', 'context', 'title']],
  ['tool_use', ['type', 'id', 'name', 'input', 'cache_control', 'caller']],
  ['tool_result', ['type', 'tool_use_id', 'content', 'is_error', 'cache_control']],
  ['thinking', ['type', 'thinking', 'signature']],
  ['redacted_thinking', ['type', 'data']],
]);
const allowedCustomToolKeys = [
  'name',
  'description',
  'input_schema',
  'type',
  'cache_control',
  'strict',
  'defer_loading',
  'allowed_callers',
  'input_examples',
  'eager_input_streaming',
];
const toolResultContentTypes: ReadonlySet<string> = new Set([
  'text',
  'image',
  'document',
  'search_result',
  'tool_reference',
]);
const userOnlyBlocks: ReadonlySet<string> = new Set(['tool_result']);
const assistantOnlyBlocks: ReadonlySet<string> = new Set([
  'tool_use',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
]);
const imageMediaTypes: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const toolUseIdPattern = /^[a-zA-Z0-9_-]+$/;
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const maxCacheBreakpoints = 4;

interface LocatedBlock {
  readonly block: AnthropicContentBlockParam;
  readonly path: string;
}

/** Consecutive messages of one role, as the API merges them into one turn. */
interface Turn {
  readonly role: AnthropicMessageParam['role'];
  readonly blocks: LocatedBlock[];
}

class RequestChecker {
  readonly problems: AnthropicRequestProblem[] = [];
  private cacheBreakpoints = 0;
  private firstExtraBreakpointPath: string | undefined;

  report(rule: AnthropicRequestRule, path: string, message: string): void {
    this.problems.push({ rule, path, message });
  }

  extraKeys(value: object, allowed: readonly string[], path: string): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        this.report('extra-field', `${path}.${key}`, `${key}: extra inputs are not permitted`);
    }
  }

  cacheControl(value: object, path: string): void {
    if (!('cache_control' in value) || value.cache_control === null || value.cache_control === undefined) return;
    this.cacheBreakpoints++;
    if (this.cacheBreakpoints === maxCacheBreakpoints + 1) this.firstExtraBreakpointPath = `${path}.cache_control`;
  }

  finishCacheControl(): void {
    if (this.firstExtraBreakpointPath === undefined) return;
    this.report(
      'too-many-cache-breakpoints',
      this.firstExtraBreakpointPath,
      `${this.cacheBreakpoints} blocks have cache_control; at most ${maxCacheBreakpoints} are allowed`,
    );
  }

  loneSurrogates(request: unknown): void {
    for (const path of findLoneSurrogates(request)) {
      this.report(
        'lone-surrogate',
        path,
        'text holds an unpaired UTF-16 surrogate half (not valid Unicode); replace it, e.g. with String.prototype.toWellFormed()',
      );
    }
  }

  text(text: string, path: string): void {
    if (text.trim() === '') this.report('empty-text', path, 'text content blocks must contain non-whitespace text');
  }

  block(block: AnthropicContentBlockParam, role: AnthropicMessageParam['role'], path: string): void {
    const allowed = allowedBlockKeys.get(block.type);
    if (allowed !== undefined) this.extraKeys(block, allowed, path);
    this.cacheControl(block, path);
    if (
      (role === 'user' && assistantOnlyBlocks.has(block.type)) ||
      (role === 'assistant' && userOnlyBlocks.has(block.type))
    ) {
      this.report('block-not-allowed', `${path}.type`, `a ${block.type} block is not allowed in a ${role} message`);
    }
    if (block.type === 'text' && typeof block.text === 'string') this.text(block.text, `${path}.text`);
    if (block.type === 'image') this.imageSource(block.source, `${path}.source`);
    if (block.type === 'tool_use') {
      if (typeof block.id === 'string' && !toolUseIdPattern.test(block.id)) {
        this.report(
          'tool-use-id-format',
          `${path}.id`,
          `tool_use id ${JSON.stringify(block.id)} must match ${toolUseIdPattern.source}`,
        );
      }
      if (!isJsonObject(block.input))
        this.report('tool-use-input', `${path}.input`, 'tool_use input must be an object');
    }
    if (block.type === 'tool_result' && Array.isArray(block.content)) {
      block.content.forEach((item, index) => this.toolResultItem(item, `${path}.content[${index}]`));
    }
  }

  private imageSource(source: JsonValue | undefined, path: string): void {
    if (!isJsonObject(source) || source.type !== 'base64' || typeof source.media_type !== 'string') return;
    if (!imageMediaTypes.has(source.media_type)) {
      this.report(
        'image-media-type',
        `${path}.media_type`,
        `image media type ${source.media_type} is not one of ${[...imageMediaTypes].join(', ')}`,
      );
    }
  }

  private toolResultItem(item: JsonValue | undefined, path: string): void {
    if (!isJsonObject(item) || typeof item.type !== 'string') return;
    if (!toolResultContentTypes.has(item.type)) {
      this.report('block-not-allowed', `${path}.type`, `a ${item.type} block is not allowed in tool_result content`);
      return;
    }
    const allowed = allowedBlockKeys.get(item.type);
    if (allowed !== undefined) this.extraKeys(item, allowed, path);
    this.cacheControl(item, path);
    if (item.type === 'text' && typeof item.text === 'string') this.text(item.text, `${path}.text`);
    if (item.type === 'image') this.imageSource(item.source, `${path}.source`);
  }

  /** Checks the messages; returns them grouped into the turns the API merges them into. */
  messages(messages: readonly AnthropicMessageParam[]): Turn[] {
    if (messages.length === 0) {
      this.report('empty-messages', 'messages', 'at least one message is required');
      return [];
    }
    if (messages[0]?.role !== 'user')
      this.report('first-message-role', 'messages[0].role', 'first message must use the "user" role');
    const turns: Turn[] = [];
    messages.forEach((message, index) => {
      const path = `messages[${index}]`;
      this.extraKeys(message, ['role', 'content'], path);
      const isFinalAssistant = index === messages.length - 1 && message.role === 'assistant';
      const previous = turns.at(-1);
      let turn = previous;
      if (previous?.role === message.role) {
        this.report(
          'roles-not-alternating',
          `${path}.role`,
          `message follows another ${message.role} message; roles must alternate`,
        );
      } else {
        turn = { role: message.role, blocks: [] };
        turns.push(turn);
      }
      const { content } = message;
      if (content.length === 0 && !isFinalAssistant) {
        this.report(
          'empty-content',
          `${path}.content`,
          'all messages must have non-empty content except for the optional final assistant message',
        );
      }
      if (typeof content === 'string') {
        if (content.length > 0) this.text(content, `${path}.content`);
      } else {
        content.forEach((block, blockIndex) => {
          const blockPath = `${path}.content[${blockIndex}]`;
          this.block(block, message.role, blockPath);
          turn?.blocks.push({ block, path: blockPath });
        });
      }
      if (isFinalAssistant && endsWithWhitespace(content)) {
        this.report(
          'trailing-whitespace',
          `${path}.content`,
          'final assistant content cannot end with trailing whitespace',
        );
      }
    });
    this.toolPairing(turns);
    return turns;
  }

  /**
   * The API's rule for extended thinking with tool use: "When `thinking` is enabled, a final `assistant` message
   * must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks)" (its
   * 400 error), and the docs' "Preserving thinking blocks": while tools run, the thinking of the assistant turn
   * whose results go back must come back with it, complete and unmodified; that of earlier turns may be left out.
   * The turn is the tool loop that ends the request, opened by its first assistant message (later steps of the
   * loop may lack thinking: without interleaved thinking the model thinks once per turn).
   *
   * @param thinkingSetting - The request's `thinking` parameter. When absent, a thinking block in any assistant
   *   message is taken as the sign that thinking is on (a request cannot carry signed thinking otherwise).
   */
  toolLoopThinking(turns: readonly Turn[], thinkingSetting: JsonValue | undefined): void {
    const thinkingType = isJsonObject(thinkingSetting) ? thinkingSetting.type : undefined;
    const thinkingOn =
      thinkingType === undefined
        ? turns.some((turn) => turn.role === 'assistant' && turn.blocks.some(({ block }) => isThinkingBlock(block)))
        : thinkingType !== 'disabled';
    if (!thinkingOn) return;
    const opening = openingOfCurrentToolLoop(turns);
    const first = opening?.blocks[0];
    if (opening === undefined || first === undefined || isThinkingBlock(first.block)) return;
    const ids = opening.blocks
      .map(({ block }) => (block.type === 'tool_use' ? block.id : undefined))
      .filter(isString);
    this.report(
      'tool-loop-thinking',
      `${first.path}.type`,
      `the assistant message with tool_use ${ids.join(', ')} opens the turn still in its tool loop and starts with a ${first.block.type} block; with thinking on, it must start with its thinking or redacted_thinking block`,
    );
  }

  private toolPairing(turns: readonly Turn[]): void {
    const seenToolUseIds = new Set<string>();
    turns.forEach((turn, turnIndex) => {
      if (turn.role === 'assistant') {
        const next = turns[turnIndex + 1];
        const answered = new Set(
          next?.role === 'user' ? next.blocks.map(({ block }) => toolResultId(block)).filter(isString) : [],
        );
        for (const { block, path } of turn.blocks) {
          if (block.type !== 'tool_use' || typeof block.id !== 'string') continue;
          if (seenToolUseIds.has(block.id))
            this.report('duplicate-tool-use-id', `${path}.id`, `tool_use id ${block.id} is used more than once`);
          seenToolUseIds.add(block.id);
          if (!answered.has(block.id)) {
            this.report(
              'unanswered-tool-use',
              path,
              `tool_use ${block.id} has no tool_result block in the next message`,
            );
          }
        }
        return;
      }
      const previous = turns[turnIndex - 1];
      const calls = new Set(
        previous?.role === 'assistant'
          ? previous.blocks.map(({ block }) => (block.type === 'tool_use' ? block.id : undefined)).filter(isString)
          : [],
      );
      const answered = new Set<string>();
      let otherBlockSeen = false;
      for (const located of turn.blocks) {
        const id = toolResultId(located.block);
        if (id === undefined) {
          otherBlockSeen = true;
          continue;
        }
        if (!calls.has(id)) {
          this.report(
            'orphan-tool-result',
            `${located.path}.tool_use_id`,
            `tool_result ${id} answers no tool_use of the previous assistant message`,
          );
        } else if (answered.has(id)) {
          this.report(
            'duplicate-tool-result',
            `${located.path}.tool_use_id`,
            `tool_use ${id} is answered more than once`,
          );
        }
        answered.add(id);
        if (otherBlockSeen) {
          this.report(
            'tool-result-not-first',
            located.path,
            'tool_result blocks must come before any other block of their user message',
          );
        }
      }
    });
  }

  tools(tools: NonNullable<AnthropicRequest['tools']>): void {
    const names = new Set<string>();
    tools.forEach((tool, index) => {
      const path = `tools[${index}]`;
      this.cacheControl(tool, path);
      const isCustom = tool.type === undefined || tool.type === null || tool.type === 'custom';
      if (isCustom) {
        this.extraKeys(tool, allowedCustomToolKeys, path);
        if (!toolNamePattern.test(tool.name)) {
          this.report(
            'tool-name-format',
            `${path}.name`,
            `tool name ${JSON.stringify(tool.name)} must match ${toolNamePattern.source}`,
          );
        }
        if (!isJsonObject(tool.input_schema)) {
          this.report('schema', `${path}.input_schema`, 'a custom tool needs an input_schema object');
        }
      }
      if (names.has(tool.name))
        this.report('duplicate-tool-name', `${path}.name`, `tool name ${tool.name} is used more than once`);
      names.add(tool.name);
    });
  }
}

function toolResultId(block: AnthropicContentBlockParam): string | undefined {
  return block.type === 'tool_result' && typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined;
}

function isThinkingBlock(block: AnthropicContentBlockParam): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/**
 * The assistant turn that opens the agentic turn still in its tool loop, or undefined when the request does not
 * end in one. The request must end with a user turn holding tool results (text may ride along); walking back over
 * (assistant turn with `tool_use`, user turn of tool results only) pairs, the earliest such assistant turn opens
 * the loop. A user turn that holds text beside its tool results (a prompt typed after an interruption) starts a
 * new turn: the assistant turn after it opens the loop.
 */
function openingOfCurrentToolLoop(turns: readonly Turn[]): Turn | undefined {
  const last = turns.at(-1);
  if (last?.role !== 'user' || !last.blocks.some(({ block }) => block.type === 'tool_result')) return undefined;
  let opening: Turn | undefined;
  for (let index = turns.length - 2; index >= 0; index -= 2) {
    const assistant = turns[index];
    if (assistant?.role !== 'assistant' || !assistant.blocks.some(({ block }) => block.type === 'tool_use')) break;
    opening = assistant;
    const before = turns[index - 1];
    const onlyToolResults =
      before?.role === 'user' &&
      before.blocks.length > 0 &&
      before.blocks.every(({ block }) => block.type === 'tool_result');
    if (!onlyToolResults) break;
  }
  return opening;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function endsWithWhitespace(content: AnthropicMessageParam['content']): boolean {
  if (typeof content === 'string') return /\s$/.test(content);
  const last = content.at(-1);
  return last?.type === 'text' && typeof last.text === 'string' && /\s$/.test(last.text);
}

/** Options of {@link validateAnthropicRequest}: `loneSurrogates` and `isSchemaValidMessage` (see `RequestValidationOptions`). */
export type ValidateAnthropicRequestOptions = RequestValidationOptions;

/** The request schema, parsing only the messages a caller does not vouch for. */
const checkSchema = createRequestSchemaCheck(anthropicRequestSchema, anthropicMessageSchema);

/**
 * Checks a request against the Anthropic Messages API's rules and lists every problem; an empty list means the
 * API should accept the conversation part of the request. Checks: shape and extra fields, roles (first message
 * `user`, alternation), empty or blank content, trailing whitespace of a final assistant message, block
 * placement, tool pairing (every `tool_use` answered by a `tool_result` at the start of the next user turn, no
 * orphan or duplicate results, unique ids), `tool_use` id format and object `input`, image media types, at most 4
 * `cache_control` breakpoints, tool name format and uniqueness; and, with thinking on (the request's `thinking`
 * parameter, or when it has none, a thinking block in some assistant message), that the assistant message opening
 * the tool loop that ends the request starts with its thinking or redacted thinking block (`tool-loop-thinking`:
 * the API answers "a final `assistant` message must start with a thinking block" otherwise); and that no string
 * anywhere in the request holds an unpaired UTF-16 surrogate half (`lone-surrogate`, reported after the rest).
 * Consecutive same-role messages are checked as the one turn the API merges them into (and reported once as
 * `roles-not-alternating`).
 *
 * @param request - A value such as `anthropicMessagesCodec.encode(conversation).value`.
 * @param options - `loneSurrogates: false` skips that rule; `isSchemaValidMessage` names messages known to match the
 *   schema's message shape, which are then not parsed again.
 * @returns The problems, in request order (tool pairing problems after the per-message ones).
 *
 * @example
 * ```ts
 * const problems = validateAnthropicRequest(anthropicMessagesCodec.encode(conversation).value);
 * if (problems.length > 0) throw new Error(problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
 * ```
 */
export function validateAnthropicRequest(request: unknown, options: ValidateAnthropicRequestOptions = {}): AnthropicRequestProblem[] {
  const issues = checkSchema(request, options.isSchemaValidMessage);
  if (issues.length > 0) return issues.map((issue) => ({ rule: 'schema', ...issue }));
  const checker = new RequestChecker();
  const { system, messages, tools } = request as AnthropicRequest;
  if (Array.isArray(system)) {
    system.forEach((block, index) => {
      const path = `system[${index}]`;
      checker.extraKeys(block, allowedBlockKeys.get('text') ?? [], path);
      checker.cacheControl(block, path);
      checker.text(block.text, `${path}.text`);
    });
  }
  if (tools !== undefined) checker.tools(tools);
  const turns = checker.messages(messages);
  checker.toolLoopThinking(turns, (request as AnthropicRequest).thinking);
  checker.finishCacheControl();
  if (options.loneSurrogates !== false) checker.loneSurrogates(request);
  return checker.problems;
}
