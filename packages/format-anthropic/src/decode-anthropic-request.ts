import {
  isJsonObject,
  parseConversation,
  type ContentBlock,
  type Conversation,
  type DecodeResult,
  type EntryMetadata,
  type EntryUsage,
  type FormatWarning,
  type HistoryEntry,
  type JsonObject,
  type JsonValue,
  type MediaBlock,
  type TextBlock,
  type ThinkingBlock,
  type ToolCallBlock,
  type ToolDefinition,
  type ToolResponseBlock,
} from '@ctx/core';
import {
  createUniqueCallIds,
  fieldsExcept,
  imageMediaTypeFromUrl,
  parseNativeValue,
  type CallIdUse,
  type UniqueCallIds,
} from '@ctx/format-utils';
import {
  anthropicRequestSchema,
  knownAnthropicBlockTypes,
  type AnthropicContentBlockParam,
  type AnthropicDocumentBlockParam,
  type AnthropicImageBlockParam,
  type AnthropicMessageParam,
  type AnthropicRedactedThinkingBlockParam,
  type AnthropicRequest,
  type AnthropicTextBlockParam,
  type AnthropicThinkingBlockParam,
  type AnthropicToolParam,
  type AnthropicToolResultBlockParam,
  type AnthropicToolUseBlockParam,
} from './anthropic-request-schema.js';
import {
  type AnthropicConversationMarkers,
  type AnthropicEntryMarkers,
  conversationProviderMetadata,
  entryProviderMetadata,
  fieldsWithLayout,
  inputSchemaAbsentMarker,
  keepInputMarker,
  recordedIdMarker,
  type OpaqueBlock,
  toProviderMetadata,
} from './anthropic-provider-metadata.js';

const format = 'anthropic-messages';

/** Block types the API accepts only in assistant messages, and only in user messages. */
const assistantOnlyTypes: ReadonlySet<string> = new Set(['tool_use', 'thinking', 'redacted_thinking']);
const userOnlyTypes: ReadonlySet<string> = new Set(['tool_result']);

/** State shared while decoding one request. */
interface DecodeState {
  readonly warnings: FormatWarning[];
  /** Tool names by (history) tool_use id, for the `toolName` of the tool_result blocks that answer them. */
  readonly toolNames: Map<string, string>;
  /** The history's ids for the request's tool_use ids (renamed where a tool_use reuses an earlier one's id). */
  readonly ids: UniqueCallIds;
  /** Every tool_use read, in order: what `toolNames` was given. */
  readonly named: (readonly [id: string, name: string])[];
  /** Every tool_use id used, in order: what `ids` was told. */
  readonly uses: CallIdUse[];
}

function withMetadata<T extends ContentBlock>(block: T, nativeFields: JsonObject): T {
  const providerMetadata = toProviderMetadata(nativeFields);
  return providerMetadata === undefined ? block : { ...block, providerMetadata };
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

function hasExactKeys(value: object, keys: readonly string[]): boolean {
  const actual = Object.keys(value);
  return actual.length === keys.length && keys.every((key) => key in value);
}

function decodeText(block: AnthropicTextBlockParam): TextBlock {
  return withMetadata({ type: 'text', text: block.text }, fieldsExcept(block, ['type', 'text']));
}

/** An image becomes a media block when its source is plain base64 or a URL; anything else stays opaque. */
function decodeImage(block: AnthropicImageBlockParam): MediaBlock | undefined {
  const { source } = block;
  const nativeFields = fieldsExcept(block, ['type', 'source']);
  if (source.type === 'base64' && hasExactKeys(source, ['type', 'media_type', 'data'])) {
    if (!source.media_type.startsWith('image/')) return undefined;
    return withMetadata({ type: 'media', mediaType: source.media_type, data: source.data }, nativeFields);
  }
  if (source.type === 'url' && hasExactKeys(source, ['type', 'url'])) {
    return withMetadata({ type: 'media', mediaType: imageMediaTypeFromUrl(source.url), url: source.url }, nativeFields);
  }
  return undefined;
}

/**
 * A PDF document becomes a media block and a plain-text document a text block (the text is what the model reads;
 * the document framing is kept in metadata). Custom-content and file documents stay opaque.
 */
function decodeDocument(block: AnthropicDocumentBlockParam): MediaBlock | TextBlock | undefined {
  const { source } = block;
  const nativeFields = fieldsExcept(block, ['type', 'source']);
  if (source.type === 'base64' && hasExactKeys(source, ['type', 'media_type', 'data'])) {
    // The API reads base64 documents as PDFs; anything else stays opaque so it comes back as it was.
    if (source.media_type !== 'application/pdf') return undefined;
    return withMetadata({ type: 'media', mediaType: source.media_type, data: source.data }, nativeFields);
  }
  if (source.type === 'url' && hasExactKeys(source, ['type', 'url'])) {
    return withMetadata({ type: 'media', mediaType: 'application/pdf', url: source.url }, nativeFields);
  }
  if (source.type === 'text' && hasExactKeys(source, ['type', 'media_type', 'data'])) {
    return withMetadata(
      { type: 'text', text: source.data },
      { ...nativeFields, type: 'document', source: { type: 'text', media_type: source.media_type } },
    );
  }
  return undefined;
}

function decodeToolUse(block: AnthropicToolUseBlockParam, path: string, state: DecodeState): ToolCallBlock {
  const layout: Record<string, JsonValue> = {};
  if (!isJsonObject(block.input)) {
    state.warnings.push({ type: 'malformed', message: 'tool_use input is not an object; it is kept as it is', path });
    layout[keepInputMarker] = true;
  }
  const id = state.ids.callId(block.id);
  state.uses.push(['call', block.id]);
  if (id !== block.id) {
    state.warnings.push({
      type: 'malformed',
      message: `tool_use id ${block.id} is used more than once; the history holds this one as ${id}, and encoding writes ${block.id} back`,
      path,
    });
    layout[recordedIdMarker] = block.id;
  }
  state.toolNames.set(id, block.name);
  state.named.push([id, block.name]);
  return withMetadata(
    { type: 'tool_call', id, name: block.name, parameters: block.input },
    fieldsWithLayout(fieldsExcept(block, ['type', 'id', 'name', 'input']), layout),
  );
}

function decodeToolResult(block: AnthropicToolResultBlockParam, path: string, state: DecodeState): ToolResponseBlock {
  const callId = state.ids.answeredId(block.tool_use_id);
  state.uses.push(['answer', block.tool_use_id]);
  const toolName = state.toolNames.get(callId);
  if (toolName === undefined) {
    state.warnings.push({
      type: 'other',
      message: `tool_result answers tool_use ${block.tool_use_id}, which is not in this input; its toolName is left empty`,
      path,
    });
  }
  const response: ToolResponseBlock = {
    type: 'tool_response',
    callId,
    toolName: toolName ?? '',
    // A tool_result without content is a valid "no output" answer; null stands for it.
    result: block.content ?? null,
    ...(block.is_error === undefined ? {} : { isError: block.is_error }),
  };
  return withMetadata(
    response,
    fieldsWithLayout(
      fieldsExcept(block, ['type', 'tool_use_id', 'content', 'is_error']),
      callId === block.tool_use_id ? {} : { [recordedIdMarker]: block.tool_use_id },
    ),
  );
}

function decodeThinking(block: AnthropicThinkingBlockParam): ThinkingBlock {
  return withMetadata(
    { type: 'thinking', thought: block.thinking, signature: block.signature },
    fieldsExcept(block, ['type', 'thinking', 'signature']),
  );
}

function decodeRedactedThinking(block: AnthropicRedactedThinkingBlockParam): ThinkingBlock {
  return withMetadata({ type: 'thinking', thought: block.data, redacted: true }, fieldsExcept(block, ['type', 'data']));
}

/** Decodes a block that is not a tool_result; undefined means "keep it opaque". */
function decodeBlock(block: AnthropicContentBlockParam, path: string, state: DecodeState): ContentBlock | undefined {
  switch (block.type) {
    case 'text':
      return decodeText(block as AnthropicTextBlockParam);
    case 'image':
      return decodeImage(block as AnthropicImageBlockParam);
    case 'document':
      return decodeDocument(block as AnthropicDocumentBlockParam);
    case 'tool_use':
      return decodeToolUse(block as AnthropicToolUseBlockParam, path, state);
    case 'thinking':
      return decodeThinking(block as AnthropicThinkingBlockParam);
    case 'redacted_thinking':
      return decodeRedactedThinking(block as AnthropicRedactedThinkingBlockParam);
    default:
      return undefined;
  }
}

function opaqueWarning(block: AnthropicContentBlockParam, role: string, path: string): FormatWarning {
  const misplaced =
    (role === 'user' && assistantOnlyTypes.has(block.type)) || (role === 'assistant' && userOnlyTypes.has(block.type));
  if (misplaced) {
    return {
      type: 'malformed',
      message: `a ${block.type} block is not allowed in a ${role} message; it is kept as it is and other formats drop it`,
      path,
    };
  }
  const why = knownAnthropicBlockTypes.has(block.type)
    ? `this ${block.type} source has no canonical form`
    : `ctx has no canonical form for ${block.type} blocks`;
  return { type: 'unsupported', message: `${why}; the block is kept as it is and other formats drop it`, path };
}

/** The blocks of one entry being built: canonical blocks plus opaque ones at their positions. */
class EntryPart {
  readonly blocks: ContentBlock[] = [];
  readonly opaqueBlocks: OpaqueBlock[] = [];
  size = 0;

  add(block: ContentBlock | undefined, native: AnthropicContentBlockParam): void {
    if (block === undefined) this.opaqueBlocks.push({ index: this.size, block: native });
    else this.blocks.push(block);
    this.size++;
  }
}

function hasBlankText(blocks: readonly ContentBlock[]): boolean {
  return blocks.some((block) => block.type === 'text' && isBlank(block.text));
}

/** True when the encoder's default (a one-block array of plain text → string) would not give `content` back. */
function isOnePlainTextBlockArray(content: AnthropicMessageParam['content']): boolean {
  if (typeof content === 'string' || content.length !== 1) return false;
  const [block] = content;
  return block !== undefined && block.type === 'text' && hasExactKeys(block, ['type', 'text']);
}

function endsWithWhitespace(content: AnthropicMessageParam['content']): boolean {
  const last = typeof content === 'string' ? content : content.at(-1);
  const text = typeof last === 'string' ? last : last?.type === 'text' ? (last as AnthropicTextBlockParam).text : '';
  return /\s$/.test(text);
}

function toUsage(usage: JsonValue | undefined): EntryUsage | undefined {
  if (!isJsonObject(usage)) return undefined;
  const count = (value: JsonValue | undefined) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
  const fields: [keyof EntryUsage, number | undefined][] = [
    ['inputTokens', count(usage.input_tokens)],
    ['outputTokens', count(usage.output_tokens)],
    ['cacheReadTokens', count(usage.cache_read_input_tokens)],
    ['cacheWriteTokens', count(usage.cache_creation_input_tokens)],
  ];
  const present = fields.filter((field): field is [keyof EntryUsage, number] => field[1] !== undefined);
  return present.length === 0 ? undefined : Object.fromEntries(present);
}

function entryMetadata(markers: AnthropicEntryMarkers, speaker: HistoryEntry['speaker']): EntryMetadata | undefined {
  const message = markers.message ?? {};
  const usage = speaker === 'ai' ? toUsage(message.usage) : undefined;
  const providerMetadata = entryProviderMetadata(markers);
  const metadata: EntryMetadata = {
    ...(typeof message.id === 'string' ? { id: message.id } : {}),
    ...(speaker === 'ai' && typeof message.model === 'string' ? { model: message.model } : {}),
    ...(usage === undefined ? {} : { usage }),
    ...(providerMetadata === undefined ? {} : { providerMetadata }),
  };
  return Object.keys(metadata).length === 0 ? undefined : metadata;
}

function makeEntry(speaker: HistoryEntry['speaker'], part: EntryPart, markers: AnthropicEntryMarkers): HistoryEntry {
  const allMarkers: AnthropicEntryMarkers = {
    ...markers,
    ...(part.opaqueBlocks.length > 0 ? { opaqueBlocks: part.opaqueBlocks } : {}),
    ...(hasBlankText(part.blocks) ? { keepBlankText: true } : {}),
  };
  const metadata = entryMetadata(allMarkers, speaker);
  return metadata === undefined ? { speaker, blocks: part.blocks } : { speaker, blocks: part.blocks, metadata };
}

/**
 * One message becomes one entry, except a user message holding tool_result blocks: those form a tool entry
 * (tool entries answer the assistant turn before them), and its other blocks a human entry right after it.
 */
function decodeMessage(
  message: AnthropicMessageParam,
  index: number,
  previous: AnthropicMessageParam | undefined,
  state: DecodeState,
): HistoryEntry[] {
  const path = `messages[${index}]`;
  const { content, role } = message;
  const fields = fieldsExcept(message, ['role', 'content']);
  const messageMarkers: AnthropicEntryMarkers = {
    ...(Object.keys(fields).length > 0 ? { message: fields } : {}),
    ...(previous?.role === role ? { separateMessage: true } : {}),
    ...(isOnePlainTextBlockArray(content) ? { contentArray: true } : {}),
    ...(role === 'assistant' && endsWithWhitespace(content) ? { keepTrailingWhitespace: true } : {}),
  };

  if (typeof content === 'string') {
    const part = new EntryPart();
    part.blocks.push({ type: 'text', text: content });
    part.size = 1;
    return [makeEntry(role === 'user' ? 'human' : 'ai', part, messageMarkers)];
  }

  const main = new EntryPart();
  const toolPart = new EntryPart();
  const toolResultPositions: number[] = [];
  content.forEach((block, blockIndex) => {
    const blockPath = `${path}.content[${blockIndex}]`;
    if (role === 'user' && block.type === 'tool_result') {
      toolPart.add(decodeToolResult(block as AnthropicToolResultBlockParam, blockPath, state), block);
      toolResultPositions.push(blockIndex);
      return;
    }
    const misplaced = role === 'user' ? assistantOnlyTypes.has(block.type) : userOnlyTypes.has(block.type);
    const decoded = misplaced ? undefined : decodeBlock(block, blockPath, state);
    if (decoded === undefined) state.warnings.push(opaqueWarning(block, role, blockPath));
    main.add(decoded, block);
  });

  if (role === 'assistant') return [makeEntry('ai', main, messageMarkers)];
  if (toolPart.size === 0) return [makeEntry('human', main, messageMarkers)];
  const entries = [makeEntry('tool', toolPart, messageMarkers)];
  if (main.size > 0) {
    const inOrder = toolResultPositions.every((position, order) => position === order);
    entries.push(makeEntry('human', main, inOrder ? {} : { toolResultPositions }));
  }
  return entries;
}

function decodeTool(tool: AnthropicToolParam): ToolDefinition {
  const isCustom = tool.type === undefined || tool.type === null || tool.type === 'custom';
  const layout: JsonObject = isCustom && tool.input_schema === undefined ? { [inputSchemaAbsentMarker]: true } : {};
  const providerMetadata = toProviderMetadata(
    fieldsWithLayout(fieldsExcept(tool, ['name', 'description', 'input_schema']), layout),
  );
  return {
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.input_schema === undefined ? {} : { inputSchema: tool.input_schema }),
    ...(providerMetadata === undefined ? {} : { providerMetadata }),
  };
}

function decodeSystem(system: AnthropicRequest['system']): TextBlock[] | undefined {
  if (system === undefined) return undefined;
  if (typeof system === 'string') return [{ type: 'text', text: system }];
  return system.map(decodeText);
}

/** What one message of a request decodes to, and what it tells the messages after it. */
export interface DecodedAnthropicMessage {
  readonly entries: readonly HistoryEntry[];
  readonly warnings: readonly FormatWarning[];
  /** The tool_use blocks it holds, as `[id, name]` in order: later tool_result blocks take their names from these. */
  readonly named: readonly (readonly [id: string, name: string])[];
  /** The tool_use ids it used, in order: what it told the `ids` it was decoded with. */
  readonly uses: readonly CallIdUse[];
}

/** What the messages before one tell how to decode it. */
export interface AnthropicMessageContext {
  /** The tool names of every tool_use before it, by history id; its own are added. */
  readonly toolNames: Map<string, string>;
  /** The history ids of the tool_use ids used before it; told its own. */
  readonly ids: UniqueCallIds;
}

/**
 * Decodes the message at `index` of a (validated) request, given the message before it and what the messages
 * before it tell (updated with what it adds).
 */
export function decodeAnthropicMessage(
  message: AnthropicMessageParam,
  index: number,
  previous: AnthropicMessageParam | undefined,
  context: AnthropicMessageContext,
): DecodedAnthropicMessage {
  const state: DecodeState = { ...context, warnings: [], named: [], uses: [] };
  const entries = decodeMessage(message, index, previous, state);
  return { entries, warnings: state.warnings, named: state.named, uses: state.uses };
}

/**
 * The conversation of a (validated) request whose messages decoded to `history`: its system instructions, tools
 * and request fields, validated and frozen (entries validated before are taken as they are).
 */
export function anthropicConversationOf(request: AnthropicRequest, history: readonly HistoryEntry[]): Conversation {
  const requestFields = fieldsExcept(request, ['system', 'messages', 'tools']);
  const conversationMarkers: AnthropicConversationMarkers = {
    ...(Object.keys(requestFields).length > 0 ? { request: requestFields } : {}),
    ...(Array.isArray(request.system) && isOnePlainTextBlockArray(request.system) ? { systemArray: true } : {}),
  };
  const system = decodeSystem(request.system);
  const providerMetadata = conversationProviderMetadata(conversationMarkers);
  const conversation: Conversation = {
    ...(system === undefined ? {} : { system }),
    ...(request.tools === undefined ? {} : { tools: request.tools.map(decodeTool) }),
    history,
    ...(providerMetadata === undefined ? {} : { providerMetadata }),
  };
  return parseConversation(conversation);
}

/**
 * Validates `input` as an Anthropic Messages request and returns it typed.
 *
 * @throws `InvalidFormatError` (from `@ctx/core`) naming every path that is not valid Anthropic input.
 */
export function parseAnthropicRequest(input: unknown): AnthropicRequest {
  return parseNativeValue(anthropicRequestSchema, input, { format });
}

/**
 * Decodes an Anthropic Messages request (`{ system?, messages, tools? }`, response `Message` fields allowed on
 * messages) into a canonical conversation. See {@link anthropicMessagesCodec} for the mapping.
 *
 * @throws `InvalidFormatError` (from `@ctx/core`) naming every path that is not valid Anthropic input.
 */
export function decodeAnthropicRequest(input: unknown): DecodeResult {
  const request = parseAnthropicRequest(input);
  const context = { toolNames: new Map<string, string>(), ids: createUniqueCallIds() };
  const history: HistoryEntry[] = [];
  const warnings: FormatWarning[] = [];
  request.messages.forEach((message, index) => {
    const decoded = decodeAnthropicMessage(message, index, request.messages[index - 1], context);
    history.push(...decoded.entries);
    warnings.push(...decoded.warnings);
  });
  return { conversation: anthropicConversationOf(request, history), warnings };
}
