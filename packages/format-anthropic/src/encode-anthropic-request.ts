import {
  isJsonArray,
  isJsonObject,
  type ContentBlock,
  type Conversation,
  type EncodeResult,
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
  conversationHoldsLoneSurrogate,
  describeForeignMetadata,
  loneSurrogateWarning,
  repairLoneSurrogates,
} from '@ctx/format-utils';
import {
  type AnthropicEntryMarkers,
  anthropicKey,
  inputSchemaAbsentMarker,
  keepInputMarker,
  recordedIdMarker,
  readConversationMarkers,
  readEntryMarkers,
  readLayout,
  readNativeFields,
} from './anthropic-provider-metadata.js';
import type { AnthropicRequest } from './anthropic-request-schema.js';

const format = 'anthropic-messages';

type Role = 'user' | 'assistant';

/** A native block and whether the default rules may drop it (a blank text block from another format's entry). */
interface RenderedBlock {
  readonly block: JsonObject;
  readonly droppable: boolean;
}

/** An entry with its markers and its native blocks. */
interface MessageEntry {
  readonly entry: HistoryEntry;
  readonly index: number;
  readonly markers: AnthropicEntryMarkers;
  readonly rendered: readonly RenderedBlock[];
}

/** Consecutive entries that become one message. */
interface MessageGroup {
  readonly role: Role;
  readonly entries: MessageEntry[];
}

function isPlainText(block: JsonObject | undefined): block is { readonly type: 'text'; readonly text: string } {
  return (
    block !== undefined && block.type === 'text' && typeof block.text === 'string' && Object.keys(block).length === 2
  );
}

function isBlankText(block: JsonObject): boolean {
  return block.type === 'text' && typeof block.text === 'string' && block.text.trim() === '';
}

class AnthropicEncoder {
  readonly warnings: FormatWarning[] = [];
  private readonly toolUseIds = new Set<string>();
  /** The id each tool_use of the current assistant turn was written with, by its history id, for the results answering it. */
  private writtenIds = new Map<string, string>();
  private previousSpeaker: HistoryEntry['speaker'] | undefined;

  private warn(type: FormatWarning['type'], message: string, path: string): void {
    this.warnings.push({ type, message, path });
  }

  text(block: TextBlock): JsonObject {
    const fields = readNativeFields(block.providerMetadata);
    // A plain-text document was decoded to its text; put the text back into the document's source.
    if (fields.type === 'document' && isJsonObject(fields.source)) {
      return { ...fields, source: { ...fields.source, data: block.text } };
    }
    return { ...fields, type: 'text', text: block.text };
  }

  private thinking(block: ThinkingBlock, path: string): JsonObject | undefined {
    const fields = readNativeFields(block.providerMetadata);
    if (block.redacted === true) return { ...fields, type: 'redacted_thinking', data: block.thought };
    if (block.signature === undefined) {
      this.warn('lossy', 'dropped a thinking block without a signature: Anthropic accepts only signed thinking', path);
      return undefined;
    }
    return { ...fields, type: 'thinking', thinking: block.thought, signature: block.signature };
  }

  private toolCall(block: ToolCallBlock, path: string): JsonObject {
    const fields = readNativeFields(block.providerMetadata);
    const layout = readLayout(block.providerMetadata);
    let input = block.parameters;
    if (!isJsonObject(input) && layout[keepInputMarker] !== true) {
      this.warn(
        'lossy',
        `tool_use input must be an object; the ${describeJson(input)} parameters were wrapped as { value }`,
        path,
      );
      input = { value: input };
    }
    // A request that reused an id gets it back (the history holds a renamed copy).
    const recorded = layout[recordedIdMarker];
    let id = typeof recorded === 'string' ? recorded : block.id;
    if (typeof recorded !== 'string' && this.toolUseIds.has(id)) {
      // The API wants tool_use ids unique in the request; a history from elsewhere may reuse them across turns.
      let suffix = 2;
      while (this.toolUseIds.has(`${block.id}_${suffix}`)) suffix++;
      id = `${block.id}_${suffix}`;
      this.warn(
        'other',
        `tool_use id ${block.id} was already used in this request; renamed to ${id} here and in its tool_result`,
        path,
      );
    }
    this.writtenIds.set(block.id, id);
    this.toolUseIds.add(id);
    return { ...fields, type: 'tool_use', id, name: block.name, input };
  }

  private toolResultContent(result: JsonValue, path: string): JsonValue | undefined {
    if (result === null) return undefined;
    if (typeof result === 'string') return result;
    if (isJsonArray(result) && result.every((item) => isJsonObject(item) && typeof item.type === 'string')) {
      return result;
    }
    this.warn('other', `the ${describeJson(result)} tool result was written as JSON text`, path);
    return JSON.stringify(result);
  }

  /**
   * The `tool_use_id` of a result: the id its tool_use (in the turn before) was written with, so the two always match,
   * even when a strategy rebuilt the result without its metadata; its own recorded id when its call is not there.
   */
  private writtenCallId(block: ToolResponseBlock): string {
    const written = this.writtenIds.get(block.callId);
    if (written !== undefined) return written;
    const recorded = readLayout(block.providerMetadata)[recordedIdMarker];
    return typeof recorded === 'string' ? recorded : block.callId;
  }

  private toolResponse(block: ToolResponseBlock, path: string): JsonObject {
    const fields = readNativeFields(block.providerMetadata);
    const content = this.toolResultContent(block.result, path);
    return {
      ...fields,
      type: 'tool_result',
      tool_use_id: this.writtenCallId(block),
      ...(content === undefined ? {} : { content }),
      ...(block.isError === undefined ? {} : { is_error: block.isError }),
    };
  }

  private media(block: MediaBlock, path: string): JsonObject | undefined {
    const fields = readNativeFields(block.providerMetadata);
    const source: JsonObject =
      block.data === undefined
        ? { type: 'url', url: block.url ?? '' }
        : { type: 'base64', media_type: block.mediaType, data: block.data };
    if (block.mediaType.startsWith('image/')) return { ...fields, type: 'image', source };
    if (block.mediaType === 'application/pdf') {
      const title: JsonObject = 'title' in fields || block.filename === undefined ? {} : { title: block.filename };
      return { ...fields, ...title, type: 'document', source };
    }
    this.warn('lossy', `dropped a ${block.mediaType} attachment: Anthropic accepts images and PDF documents`, path);
    return undefined;
  }

  private block(block: ContentBlock, path: string): JsonObject | undefined {
    switch (block.type) {
      case 'text':
        return this.text(block);
      case 'thinking':
        return this.thinking(block, path);
      case 'tool_call':
        return this.toolCall(block, path);
      case 'tool_response':
        return this.toolResponse(block, path);
      case 'media':
        return this.media(block, path);
    }
  }

  /** An entry's native blocks, with its opaque blocks put back at their positions. */
  render(entry: HistoryEntry, index: number, markers: AnthropicEntryMarkers): RenderedBlock[] {
    if (entry.speaker === 'ai' && this.previousSpeaker !== 'ai') this.writtenIds = new Map();
    this.previousSpeaker = entry.speaker;
    const rendered: RenderedBlock[] = [];
    entry.blocks.forEach((block, blockIndex) => {
      const native = this.block(block, `history[${index}].blocks[${blockIndex}]`);
      if (native !== undefined) {
        rendered.push({ block: native, droppable: markers.keepBlankText !== true && isBlankText(native) });
      }
    });
    for (const opaque of markers.opaqueBlocks ?? []) {
      rendered.splice(Math.min(opaque.index, rendered.length), 0, { block: opaque.block, droppable: false });
    }
    return rendered;
  }

  /**
   * A user message: tool_result blocks first (the API requires them before any other block), then the rest. A
   * message that was split into a tool entry and a human entry gets its original order back.
   */
  private userContent(entries: readonly MessageEntry[]): RenderedBlock[] {
    const [first, second] = entries;
    const positions = second?.markers.toolResultPositions;
    if (entries.length === 2 && first?.entry.speaker === 'tool' && second?.entry.speaker === 'human' && positions) {
      const interleaved = interleave(first.rendered, second.rendered, positions);
      if (interleaved !== undefined) return interleaved;
    }
    const toolResults: RenderedBlock[] = [];
    const rest: RenderedBlock[] = [];
    for (const messageEntry of entries) {
      for (const rendered of messageEntry.rendered) {
        (rendered.block.type === 'tool_result' ? toolResults : rest).push(rendered);
      }
    }
    return [...toolResults, ...rest];
  }

  message(group: MessageGroup): JsonObject {
    const [first] = group.entries;
    let rendered =
      group.role === 'assistant'
        ? group.entries.flatMap((messageEntry) => messageEntry.rendered)
        : this.userContent(group.entries);
    // Anthropic rejects blank text blocks; drop those from other formats when something else remains.
    if (rendered.some((item) => item.droppable) && rendered.some((item) => !item.droppable)) {
      rendered = rendered.filter((item) => !item.droppable);
    }
    const blocks = rendered.map((item) => item.block);
    const [only] = blocks;
    const content =
      blocks.length === 1 && isPlainText(only) && first?.markers.contentArray !== true ? only.text : blocks;
    for (const extra of group.entries.slice(1)) {
      if (extra.markers.message !== undefined) {
        this.warn(
          'lossy',
          "merged two messages of the same role; the second one's fields (id, usage, …) were dropped",
          `history[${extra.index}]`,
        );
      }
    }
    return { ...first?.markers.message, role: group.role, content };
  }

  /** Notes an entry left out because nothing of it could be written (or only blank text). */
  droppedEntry(entry: HistoryEntry, index: number, rendered: readonly RenderedBlock[]): void {
    // Blocks dropped one by one were already reported; blank text is reported here.
    if (rendered.length > 0)
      this.warn(
        'lossy',
        `dropped a ${entry.speaker} entry holding only blank text, which Anthropic rejects`,
        `history[${index}]`,
      );
  }

  tool(tool: ToolDefinition, index: number): JsonObject {
    const fields = readNativeFields(tool.providerMetadata);
    const isServerTool = typeof fields.type === 'string' && fields.type !== 'custom';
    let inputSchema = tool.inputSchema;
    if (
      inputSchema === undefined &&
      !isServerTool &&
      readLayout(tool.providerMetadata)[inputSchemaAbsentMarker] !== true
    ) {
      this.warn(
        'other',
        `tool ${tool.name} has no input schema; wrote an empty object schema, which Anthropic requires`,
        `tools[${index}]`,
      );
      inputSchema = { type: 'object', properties: {} };
    }
    return {
      ...fields,
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(inputSchema === undefined ? {} : { input_schema: inputSchema }),
    };
  }

  /**
   * The API rejects a final assistant message whose text ends with whitespace (it would be a prefill); trim it
   * unless the message came from Anthropic that way.
   */
  trimFinalAssistantText(messages: JsonObject[], groups: readonly MessageGroup[]): void {
    const last = messages.at(-1);
    const group = groups.at(-1);
    if (last?.role !== 'assistant' || group === undefined) return;
    if (group.entries.some((messageEntry) => messageEntry.markers.keepTrailingWhitespace === true)) return;
    const { content } = last;
    const path = `history[${group.entries.at(-1)?.index ?? 0}]`;
    if (typeof content === 'string') {
      if (!/\s$/.test(content)) return;
      messages[messages.length - 1] = { ...last, content: content.trimEnd() };
    } else if (isJsonArray(content)) {
      const lastBlock = content.at(-1);
      if (!isJsonObject(lastBlock) || lastBlock.type !== 'text' || typeof lastBlock.text !== 'string') return;
      if (!/\s$/.test(lastBlock.text)) return;
      const trimmed = { ...lastBlock, text: lastBlock.text.trimEnd() };
      messages[messages.length - 1] = { ...last, content: [...content.slice(0, -1), trimmed] };
    } else {
      return;
    }
    this.warn('other', 'trimmed trailing whitespace from the final assistant message, which Anthropic rejects', path);
  }
}

/** Rebuilds a user message that was split into tool results and other blocks; undefined if the positions do not fit. */
function interleave(
  toolResults: readonly RenderedBlock[],
  others: readonly RenderedBlock[],
  positions: readonly number[],
): RenderedBlock[] | undefined {
  const total = toolResults.length + others.length;
  const fits =
    positions.length === toolResults.length &&
    positions.every((position, order) => position < total && (order === 0 || position > (positions[order - 1] ?? 0)));
  if (!fits) return undefined;
  const result: RenderedBlock[] = [];
  let toolIndex = 0;
  let otherIndex = 0;
  for (let position = 0; position < total; position++) {
    const next = positions[toolIndex] === position ? toolResults[toolIndex++] : others[otherIndex++];
    if (next !== undefined) result.push(next);
  }
  return result;
}

function describeJson(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Groups entries into messages. Consecutive entries of the same role merge (tool and human entries are both
 * `user`), which keeps roles alternating and puts every tool result in the message right after its tool use;
 * an entry marked `separateMessage` (it followed a same-role message in the original) starts a new one. An entry
 * whose blocks were all dropped (only unsigned thinking, only blank text, …) is left out, so its neighbours can
 * merge.
 */
function groupMessages(history: readonly HistoryEntry[], encoder: AnthropicEncoder): MessageGroup[] {
  const groups: MessageGroup[] = [];
  let current: MessageGroup | undefined;
  history.forEach((entry, index) => {
    const markers = readEntryMarkers(entry.metadata?.providerMetadata);
    const rendered = encoder.render(entry, index, markers);
    if (entry.blocks.length > 0 && rendered.every((item) => item.droppable)) {
      encoder.droppedEntry(entry, index, rendered);
      return;
    }
    const role: Role = entry.speaker === 'ai' ? 'assistant' : 'user';
    if (current === undefined || current.role !== role || markers.separateMessage === true) {
      current = { role, entries: [] };
      groups.push(current);
    }
    current.entries.push({ entry, index, markers, rendered });
  });
  return groups;
}

/**
 * Encodes a canonical conversation as an Anthropic Messages request. See {@link anthropicMessagesCodec} for the
 * mapping and what is lost from other formats (every loss is a warning).
 */
export function encodeAnthropicRequest(conversation: Conversation): EncodeResult<AnthropicRequest> {
  const encoder = new AnthropicEncoder();
  const markers = readConversationMarkers(conversation.providerMetadata);

  let system: JsonValue | undefined;
  if (conversation.system !== undefined) {
    const blocks = conversation.system.map((block) => encoder.text(block));
    const [only] = blocks;
    system = blocks.length === 1 && isPlainText(only) && markers.systemArray !== true ? only.text : blocks;
  }

  const groups = groupMessages(conversation.history, encoder);
  const messages = groups.map((group) => encoder.message(group));
  encoder.trimFinalAssistantText(messages, groups);

  const request: JsonObject = {
    ...markers.request,
    ...(system === undefined ? {} : { system }),
    messages,
    ...(conversation.tools === undefined
      ? {}
      : { tools: conversation.tools.map((tool, index) => encoder.tool(tool, index)) }),
  };
  // Text cut in the middle of an emoji (a lone surrogate half) is not valid Unicode: the API rejects the request.
  // The request's strings are the conversation's (whole, trimmed or joined) or JSON text: without a lone surrogate in
  // the conversation (entries already checked are remembered) there is none to repair, and the output is not walked.
  const { value, repairedPaths } = conversationHoldsLoneSurrogate(conversation)
    ? repairLoneSurrogates(request)
    : { value: request, repairedPaths: [] };
  const warnings = [
    ...encoder.warnings,
    ...(repairedPaths.length > 0 ? [loneSurrogateWarning(repairedPaths)] : []),
    ...describeForeignMetadata(conversation, { ownKey: anthropicKey, format }),
  ];
  return { value: value as AnthropicRequest, warnings };
}
