import {
  parseConversation,
  type ContentBlock,
  type Conversation,
  type DecodeResult,
  type FormatWarning,
  type HistoryEntry,
  type JsonValue,
  type MediaBlock,
  type TextBlock,
  type ToolCallBlock,
  type ToolDefinition,
} from '@ctx/core';
import {
  createUniqueCallIds,
  fieldsExcept,
  imageMediaTypeFromUrl,
  parseNativeValue,
  type CallIdUse,
  type UniqueCallIds,
} from '@ctx/format-utils';
import { parseDataUrl } from './data-url.js';
import { audioMediaType, audioFormat } from './audio-format.js';
import {
  openAIChatRequestSchema,
  type OpenAIAssistantMessage,
  type OpenAIChatRequest,
  type OpenAIAudioPart,
  type OpenAIContentPart,
  type OpenAIFilePart,
  type OpenAIImagePart,
  type OpenAIMessage,
  type OpenAIRefusalPart,
  type OpenAITextPart,
  type OpenAITool,
  type OpenAIToolCall,
} from './openai-chat-request-schema.js';
import {
  blockMarkers,
  entryProviderMetadata,
  fieldsWithLayout,
  openAIKey,
  systemProviderMetadata,
  toProviderMetadata,
  type ContentForm,
  type OpaquePart,
  type OpenAIEntryMarkers,
  type OpenAISystemMarkers,
} from './openai-provider-metadata.js';
import { parseToolCallArguments, serializeToolCallArguments } from './tool-call-arguments.js';

const format = 'openai-chat';

/** State shared while decoding one request. */
interface DecodeState {
  readonly warnings: FormatWarning[];
  /** Tool names by (history) call id, for the `toolName` of the tool messages that answer them. */
  readonly toolNames: Map<string, string>;
  /** The history's ids for the request's call ids (renamed where a call reuses an earlier call's id). */
  readonly ids: UniqueCallIds;
  /** The legacy `function_call` of the latest assistant message, until a `function` message answers it. */
  pendingFunctionCall: PendingFunctionCall | undefined;
  /** Every tool call read, in order: what `toolNames` was given. */
  readonly named: (readonly [id: string, name: string])[];
  /** Every call id used, in order: what `ids` was told. */
  readonly uses: CallIdUse[];
}

/** The history's id for a call the request made with `recorded`, and the layout marker that writes it back. */
function callIdOf(recorded: string, state: DecodeState): { readonly id: string; readonly layout: object } {
  const id = state.ids.callId(recorded);
  state.uses.push(['call', recorded]);
  return { id, layout: id === recorded ? {} : { [blockMarkers.recordedId]: recorded } };
}

/**
 * An id for a block the request gives none (a legacy `function_call`, or a `function` message answering nothing):
 * `base`, unless a call of the history already has it (a recorded tool call with the id `function_call_3`), else a
 * renamed copy; a recorded call after it that uses `base` gets a copy instead.
 */
function madeUpCallId(base: string, state: DecodeState): string {
  state.uses.push(['made-up', base]);
  return state.ids.madeUpId(base);
}

/** A legacy `function_call` waiting for the `function` message that answers it. */
export interface PendingFunctionCall {
  readonly id: string;
  readonly name: string;
}

function withMetadata<T extends ContentBlock>(block: T, fields: object): T {
  const providerMetadata = toProviderMetadata(fields);
  return providerMetadata === undefined ? block : { ...block, providerMetadata };
}

function nonEmpty(fields: Record<string, JsonValue>, key: string): Record<string, JsonValue> {
  return Object.keys(fields).length === 0 ? {} : { [key]: fields };
}

function decodeText(part: OpenAITextPart): TextBlock {
  return withMetadata({ type: 'text', text: part.text }, fieldsExcept(part, ['type', 'text']));
}

function decodeRefusal(part: OpenAIRefusalPart): TextBlock {
  return withMetadata(
    { type: 'text', text: part.refusal },
    { ...fieldsExcept(part, ['type', 'refusal']), [blockMarkers.refusalPart]: true },
  );
}

/** A base64 data URL becomes inline data; a web URL stays a URL. */
function decodeImage(part: OpenAIImagePart): MediaBlock {
  const { url } = part.image_url;
  const fields = {
    ...fieldsExcept(part, ['type', 'image_url']),
    ...nonEmpty(fieldsExcept(part.image_url, ['url']), 'imageUrl'),
  };
  const dataUrl = parseDataUrl(url);
  if (dataUrl !== undefined)
    return withMetadata({ type: 'media', mediaType: dataUrl.mediaType, data: dataUrl.data }, fields);
  return withMetadata({ type: 'media', mediaType: imageMediaTypeFromUrl(url), url }, fields);
}

function decodeAudio(part: OpenAIAudioPart): MediaBlock {
  const { data, format: audio } = part.input_audio;
  const mediaType = audioMediaType(audio);
  const inner = fieldsExcept(part.input_audio, ['data', 'format']);
  // Keep the format itself when the media type would not give it back (e.g. `mpeg` → audio/mpeg → `mp3`).
  if (audioFormat(mediaType) !== audio) inner.format = audio;
  return withMetadata(
    { type: 'media', mediaType, data },
    { ...fieldsExcept(part, ['type', 'input_audio']), ...nonEmpty(inner, 'inputAudio') },
  );
}

/** A file sent inline as a data URL becomes a media block; an uploaded `file_id` has no canonical form. */
function decodeFile(part: OpenAIFilePart): MediaBlock | undefined {
  const { file } = part;
  if (file.file_data === undefined || file.file_id !== undefined) return undefined;
  const dataUrl = parseDataUrl(file.file_data);
  if (dataUrl === undefined) return undefined;
  return withMetadata(
    {
      type: 'media',
      mediaType: dataUrl.mediaType,
      data: dataUrl.data,
      ...(file.filename === undefined ? {} : { filename: file.filename }),
    },
    { ...fieldsExcept(part, ['type', 'file']), ...nonEmpty(fieldsExcept(file, ['file_data', 'filename']), 'file') },
  );
}

/** Decodes one content part; undefined means "keep it opaque". */
function decodePart(part: OpenAIContentPart, role: OpenAIMessage['role']): ContentBlock | undefined {
  // Assistant content holds text and refusals, system and developer content text only; anything else there stays
  // as it is (the encoder would drop it as invalid otherwise).
  if (role === 'assistant') {
    if (part.type === 'text') return decodeText(part as OpenAITextPart);
    if (part.type === 'refusal') return decodeRefusal(part as OpenAIRefusalPart);
    return undefined;
  }
  if (role !== 'user') return part.type === 'text' ? decodeText(part as OpenAITextPart) : undefined;
  switch (part.type) {
    case 'text':
      return decodeText(part as OpenAITextPart);
    case 'image_url':
      return decodeImage(part as OpenAIImagePart);
    case 'input_audio':
      return decodeAudio(part as OpenAIAudioPart);
    case 'file':
      return decodeFile(part as OpenAIFilePart);
    default:
      return undefined;
  }
}

interface DecodedContent {
  readonly blocks: ContentBlock[];
  readonly opaqueParts: OpaquePart[];
  /** How the content was written, when the encoder's default would write it otherwise. */
  readonly form: ContentForm | undefined;
}

function isPlainTextPart(part: OpenAIContentPart | undefined): boolean {
  return part?.type === 'text' && Object.keys(part).length === 2;
}

function decodeContent(
  content: string | readonly OpenAIContentPart[] | null | undefined,
  role: OpenAIMessage['role'],
  path: string,
  state: DecodeState,
): DecodedContent {
  if (content === undefined) return { blocks: [], opaqueParts: [], form: 'absent' };
  if (content === null) return { blocks: [], opaqueParts: [], form: undefined };
  if (typeof content === 'string')
    return { blocks: [{ type: 'text', text: content }], opaqueParts: [], form: undefined };
  const blocks: ContentBlock[] = [];
  const opaqueParts: OpaquePart[] = [];
  content.forEach((part, index) => {
    const block = decodePart(part, role);
    if (block !== undefined) {
      blocks.push(block);
      return;
    }
    opaqueParts.push({ index, part });
    state.warnings.push({
      type: 'unsupported',
      message: `ctx has no canonical form for a ${part.type} part in a ${role} message; it is kept as it is and other formats drop it`,
      path: `${path}.content[${index}]`,
    });
  });
  // The default writes one plain text part as a string, and no parts as null (assistant) or [] (others).
  const defaultIsString = content.length === 1 && isPlainTextPart(content[0]);
  const defaultIsNull = content.length === 0 && role === 'assistant';
  return { blocks, opaqueParts, form: defaultIsString || defaultIsNull ? 'parts' : undefined };
}

function entry(speaker: HistoryEntry['speaker'], blocks: ContentBlock[], markers: OpenAIEntryMarkers): HistoryEntry {
  const providerMetadata = entryProviderMetadata(markers);
  return providerMetadata === undefined ? { speaker, blocks } : { speaker, blocks, metadata: { providerMetadata } };
}

function contentMarkers(decoded: DecodedContent): OpenAIEntryMarkers {
  return {
    ...(decoded.form === undefined ? {} : { content: decoded.form }),
    ...(decoded.opaqueParts.length > 0 ? { opaqueParts: decoded.opaqueParts } : {}),
  };
}

function decodeToolCall(toolCall: OpenAIToolCall, state: DecodeState): ToolCallBlock {
  const { id, layout } = callIdOf(toolCall.id, state);
  if (toolCall.type === 'custom') {
    state.toolNames.set(id, toolCall.custom.name);
    state.named.push([id, toolCall.custom.name]);
    return withMetadata(
      { type: 'tool_call', id, name: toolCall.custom.name, parameters: toolCall.custom.input },
      fieldsWithLayout(
        {
          ...fieldsExcept(toolCall, ['id', 'type', 'custom']),
          ...nonEmpty(fieldsExcept(toolCall.custom, ['name', 'input']), 'custom'),
          type: 'custom',
        },
        layout,
      ),
    );
  }
  const { name, arguments: raw } = toolCall.function;
  state.toolNames.set(id, name);
  state.named.push([id, name]);
  const parameters = parseToolCallArguments(raw);
  return withMetadata(
    { type: 'tool_call', id, name, parameters },
    fieldsWithLayout(
      {
        ...fieldsExcept(toolCall, ['id', 'type', 'function']),
        ...nonEmpty(fieldsExcept(toolCall.function, ['name', 'arguments']), 'function'),
      },
      {
        ...layout,
        // Keep the model's own string whenever writing the parameters again would not give the same bytes.
        ...(serializeToolCallArguments(parameters) === raw ? {} : { [blockMarkers.arguments]: raw }),
      },
    ),
  );
}

function decodeAssistant(
  message: OpenAIAssistantMessage,
  index: number,
  previous: OpenAIMessage | undefined,
  state: DecodeState,
): HistoryEntry {
  const path = `messages[${index}]`;
  const content = decodeContent(message.content, 'assistant', path, state);
  const blocks = [...content.blocks];
  if (typeof message.refusal === 'string') {
    blocks.push({
      type: 'text',
      text: message.refusal,
      providerMetadata: { [openAIKey]: { [blockMarkers.messageRefusal]: true } },
    });
  }
  const toolCalls = message.tool_calls ?? [];
  blocks.push(...toolCalls.map((toolCall) => decodeToolCall(toolCall, state)));
  state.pendingFunctionCall = undefined;
  if (message.function_call !== undefined && message.function_call !== null) {
    const { name, arguments: raw } = message.function_call;
    // Legacy function calls have no id; make one no other call of the history has (none is written back).
    const id = madeUpCallId(`function_call_${index}`, state);
    state.pendingFunctionCall = { id, name };
    const parameters = parseToolCallArguments(raw);
    blocks.push(
      withMetadata(
        { type: 'tool_call', id, name, parameters },
        fieldsWithLayout(nonEmpty(fieldsExcept(message.function_call, ['name', 'arguments']), 'function'), {
          ...(serializeToolCallArguments(parameters) === raw ? {} : { [blockMarkers.arguments]: raw }),
          [blockMarkers.functionCall]: true,
        }),
      ),
    );
  }
  // Kept as message fields when they carry nothing canonical: `refusal: null`, `tool_calls: []`, `function_call: null`.
  const omitted = ['role', 'content'];
  if (typeof message.refusal === 'string') omitted.push('refusal');
  if (toolCalls.length > 0) omitted.push('tool_calls');
  if (message.function_call !== undefined && message.function_call !== null) omitted.push('function_call');
  const fields = fieldsExcept(message, omitted);
  return entry('ai', blocks, {
    ...(Object.keys(fields).length > 0 ? { message: fields } : {}),
    ...(previous?.role === 'assistant' ? { separateMessage: true } : {}),
    ...contentMarkers(content),
  });
}

function decodeToolMessage(
  message: Extract<OpenAIMessage, { role: 'tool' }>,
  index: number,
  state: DecodeState,
): HistoryEntry {
  const path = `messages[${index}]`;
  const recordedId = message.tool_call_id ?? message.tool_call_ids?.[0] ?? '';
  const callId = state.ids.answeredId(recordedId);
  state.uses.push(['answer', recordedId]);
  if (message.tool_call_id === undefined && (message.tool_call_ids?.length ?? 0) > 1) {
    state.warnings.push({
      type: 'malformed',
      message: `the tool message names ${message.tool_call_ids?.length} calls in tool_call_ids; it is read as the answer to the first`,
      path: `${path}.tool_call_ids`,
    });
  }
  const toolName = state.toolNames.get(callId);
  if (toolName === undefined) {
    state.warnings.push({
      type: 'other',
      message: `the tool message answers call ${recordedId}, which is not in this input; its toolName is left empty`,
      path,
    });
  }
  const { content } = message;
  const cleanParts = typeof content === 'string' || content.every((part) => isPlainTextPart(part));
  const fields = fieldsExcept(message, ['role', 'content', 'tool_call_id']);
  return entry(
    'tool',
    [
      withMetadata(
        { type: 'tool_response', callId, toolName: toolName ?? '', result: content },
        fieldsWithLayout({}, {
          ...(callId === recordedId ? {} : { [blockMarkers.recordedId]: recordedId }),
          ...(cleanParts ? {} : { [blockMarkers.rawContent]: true }),
        }),
      ),
    ],
    {
      ...(Object.keys(fields).length > 0 ? { message: fields } : {}),
      ...(message.tool_call_id === undefined ? { toolCallIdAbsent: true } : {}),
    },
  );
}

function decodeFunctionMessage(
  message: Extract<OpenAIMessage, { role: 'function' }>,
  index: number,
  state: DecodeState,
): HistoryEntry {
  const pending = state.pendingFunctionCall;
  let callId: string;
  if (pending?.name === message.name) {
    callId = pending.id;
    state.pendingFunctionCall = undefined;
  } else {
    callId = madeUpCallId(`function_result_${index}`, state);
    state.warnings.push({
      type: 'other',
      message: `the function message answers no function_call of the assistant message before it`,
      path: `messages[${index}]`,
    });
  }
  const fields = fieldsExcept(message, ['role', 'content', 'name']);
  return entry('tool', [{ type: 'tool_response', callId, toolName: message.name, result: message.content }], {
    role: 'function',
    ...(Object.keys(fields).length > 0 ? { message: fields } : {}),
  });
}

function decodeMessage(
  message: OpenAIMessage,
  index: number,
  previous: OpenAIMessage | undefined,
  state: DecodeState,
): HistoryEntry {
  switch (message.role) {
    case 'assistant':
      return decodeAssistant(message, index, previous, state);
    case 'tool':
      return decodeToolMessage(message, index, state);
    case 'function':
      return decodeFunctionMessage(message, index, state);
    default: {
      const content = decodeContent(message.content, message.role, `messages[${index}]`, state);
      const fields = fieldsExcept(message, ['role', 'content']);
      return entry('human', content.blocks, {
        ...(message.role === 'user' ? {} : { role: message.role }),
        ...(Object.keys(fields).length > 0 ? { message: fields } : {}),
        ...contentMarkers(content),
      });
    }
  }
}

/**
 * The leading system and developer messages become `conversation.system`, as long as each is text the system
 * blocks can hold (a string, or text parts): one text block per string or part, the first block of each message
 * remembering its role, its fields and whether it was parts.
 */
export function decodeLeadingSystem(messages: readonly OpenAIMessage[]): { system: TextBlock[]; count: number } {
  const system: TextBlock[] = [];
  let count = 0;
  for (const message of messages) {
    if (message.role !== 'system' && message.role !== 'developer') break;
    const { content } = message;
    if (typeof content !== 'string' && (content.length === 0 || content.some((part) => part.type !== 'text'))) break;
    const fields = fieldsExcept(message, ['role', 'content']);
    const first: OpenAISystemMarkers = {
      ...(message.role === 'developer' ? { role: 'developer' } : {}),
      ...(Object.keys(fields).length > 0 ? { message: fields } : {}),
      ...(typeof content !== 'string' && content.length === 1 && isPlainTextPart(content[0])
        ? { content: 'parts' }
        : {}),
    };
    if (typeof content === 'string') {
      const providerMetadata = systemProviderMetadata({}, first);
      system.push({ type: 'text', text: content, ...(providerMetadata === undefined ? {} : { providerMetadata }) });
    } else {
      content.forEach((part, partIndex) => {
        const markers: OpenAISystemMarkers = partIndex === 0 ? first : { continuesMessage: true };
        const providerMetadata = systemProviderMetadata(fieldsExcept(part, ['type', 'text']), markers);
        system.push({
          type: 'text',
          text: part.text as string,
          ...(providerMetadata === undefined ? {} : { providerMetadata }),
        });
      });
    }
    count++;
  }
  return { system, count };
}

function decodeTool(tool: OpenAITool): ToolDefinition {
  if (tool.type === 'custom') {
    const { name, description } = tool.custom;
    const providerMetadata = toProviderMetadata({
      ...fieldsExcept(tool.custom, ['name', 'description']),
      ...nonEmpty(fieldsExcept(tool, ['type', 'custom']), 'tool'),
      type: 'custom',
    });
    return {
      name,
      ...(description === undefined ? {} : { description }),
      ...(providerMetadata === undefined ? {} : { providerMetadata }),
    };
  }
  const { name, description, parameters } = tool.function;
  const providerMetadata = toProviderMetadata({
    ...fieldsExcept(tool.function, ['name', 'description', 'parameters']),
    ...nonEmpty(fieldsExcept(tool, ['type', 'function']), 'tool'),
  });
  return {
    name,
    ...(description === undefined ? {} : { description }),
    ...(parameters === undefined ? {} : { inputSchema: parameters }),
    ...(providerMetadata === undefined ? {} : { providerMetadata }),
  };
}

/** What one message after the leading system messages decodes to, and what it tells the messages after it. */
export interface DecodedOpenAIMessage {
  readonly entry: HistoryEntry;
  readonly warnings: readonly FormatWarning[];
  /** Its tool calls, as `[id, name]` in order: later tool messages take their names from these. */
  readonly named: readonly (readonly [id: string, name: string])[];
  /** The call ids it used, in order: what it told the `ids` it was decoded with. */
  readonly uses: readonly CallIdUse[];
  /** The legacy function call still waiting for its answer after this message. */
  readonly pendingFunctionCall: PendingFunctionCall | undefined;
}

/** What the messages before one tell how to decode it. */
export interface OpenAIMessageContext {
  /** The tool names of every tool call before it, by history id; its own calls are added. */
  readonly toolNames: Map<string, string>;
  /** The history ids of the call ids used before it; told its own. */
  readonly ids: UniqueCallIds;
  /** The legacy function call waiting before it. */
  readonly pendingFunctionCall: PendingFunctionCall | undefined;
}

/**
 * Decodes the message at `index` of a (validated) request, given the message before it and what the messages
 * before it tell (updated with what it adds).
 */
export function decodeOpenAIMessage(
  message: OpenAIMessage,
  index: number,
  previous: OpenAIMessage | undefined,
  context: OpenAIMessageContext,
): DecodedOpenAIMessage {
  const state: DecodeState = { ...context, warnings: [], named: [], uses: [] };
  const entry = decodeMessage(message, index, previous, state);
  return { entry, warnings: state.warnings, named: state.named, uses: state.uses, pendingFunctionCall: state.pendingFunctionCall };
}

/**
 * The conversation of a (validated) request whose leading system messages decoded to `system` (undefined when it has
 * none) and whose other messages decoded to `history`: with its tools and request fields, validated and frozen
 * (entries validated before are taken as they are).
 */
export function openAIConversationOf(request: OpenAIChatRequest, system: TextBlock[] | undefined, history: readonly HistoryEntry[]): Conversation {
  const requestFields = fieldsExcept(request, ['messages', 'tools']);
  const conversation: Conversation = {
    ...(system === undefined ? {} : { system }),
    ...(request.tools === undefined ? {} : { tools: request.tools.map(decodeTool) }),
    history,
    ...(Object.keys(requestFields).length > 0 ? { providerMetadata: { [openAIKey]: { request: requestFields } } } : {}),
  };
  return parseConversation(conversation);
}

/**
 * Validates `input` as an OpenAI Chat Completions request and returns it typed.
 *
 * @throws `InvalidFormatError` (from `@ctx/core`) naming every path that is not valid OpenAI chat input.
 */
export function parseOpenAIRequest(input: unknown): OpenAIChatRequest {
  return parseNativeValue(openAIChatRequestSchema, input, { format });
}

/**
 * Decodes an OpenAI Chat Completions request (`{ messages, tools? }`) into a canonical conversation. See
 * {@link openAIChatCodec} for the mapping.
 *
 * @throws `InvalidFormatError` (from `@ctx/core`) naming every path that is not valid OpenAI chat input.
 */
export function decodeOpenAIRequest(input: unknown): DecodeResult {
  const request = parseOpenAIRequest(input);
  const { messages } = request;
  const { system, count } = decodeLeadingSystem(messages);
  const toolNames = new Map<string, string>();
  const ids = createUniqueCallIds();
  let pending: PendingFunctionCall | undefined;
  const history: HistoryEntry[] = [];
  const warnings: FormatWarning[] = [];
  for (let index = count; index < messages.length; index++) {
    const context = { toolNames, ids, pendingFunctionCall: pending };
    const decoded = decodeOpenAIMessage(messages[index] as OpenAIMessage, index, messages[index - 1], context);
    history.push(decoded.entry);
    warnings.push(...decoded.warnings);
    pending = decoded.pendingFunctionCall;
  }
  return { conversation: openAIConversationOf(request, count > 0 ? system : undefined, history), warnings };
}
