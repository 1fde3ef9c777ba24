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
  type ToolCallBlock,
  type ToolDefinition,
  type ToolResponseBlock,
} from '@ctx/core';
import {
  conversationHoldsLoneSurrogate,
  describeForeignMetadata,
  loneSurrogateWarning,
  repairLoneSurrogates,
  setOwnField,
} from '@ctx/format-utils';
import { audioFormat } from './audio-format.js';
import { toDataUrl } from './data-url.js';
import type { OpenAIChatRequest } from './openai-chat-request-schema.js';
import {
  blockMarkers,
  type ContentForm,
  type OpenAIEntryMarkers,
  openAIKey,
  readBlockFields,
  readEntryMarkers,
  readLayout,
  readSystemMarkers,
} from './openai-provider-metadata.js';
import { toolCallArgumentsFor } from './tool-call-arguments.js';

const format = 'openai-chat';

const systemMarkerKeys = ['role', 'message'];
const textMarkerKeys = [blockMarkers.refusalPart, blockMarkers.messageRefusal];

function without(fields: JsonObject, keys: readonly string[]): Record<string, JsonValue> {
  const result: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(fields)) if (!keys.includes(key)) setOwnField(result, key, value);
  return result;
}

function nested(fields: JsonObject, key: string): JsonObject {
  const value = fields[key];
  return isJsonObject(value) ? value : {};
}

function isPlainTextPart(part: JsonObject | undefined): part is { readonly type: 'text'; readonly text: string } {
  return part !== undefined && part.type === 'text' && typeof part.text === 'string' && Object.keys(part).length === 2;
}

/**
 * A message's `content`: one plain text part as a string; no parts as `null` for an assistant and `[]` for the
 * others; parts otherwise, unless the original wrote it another way.
 */
function toContent(parts: readonly JsonObject[], role: string, form: ContentForm | undefined): JsonValue | undefined {
  if (form === 'absent') return undefined;
  if (form === 'parts') return parts;
  const [only] = parts;
  if (parts.length === 1 && isPlainTextPart(only)) return only.text;
  if (parts.length === 0 && role === 'assistant') return null;
  return parts;
}

/** Puts opaque parts back at their positions among the encoded parts. */
function withOpaqueParts(parts: JsonObject[], markers: OpenAIEntryMarkers): JsonObject[] {
  for (const opaque of markers.opaqueParts ?? []) parts.splice(Math.min(opaque.index, parts.length), 0, opaque.part);
  return parts;
}

/** What one ai entry contributes to its assistant message. */
interface AssistantPart {
  readonly index: number;
  readonly markers: OpenAIEntryMarkers;
  readonly parts: JsonObject[];
  readonly toolCalls: JsonObject[];
  functionCall: JsonObject | undefined;
  refusal: string | undefined;
}

function isEmptyAssistantPart(part: AssistantPart): boolean {
  return (
    part.parts.length === 0 &&
    part.toolCalls.length === 0 &&
    part.functionCall === undefined &&
    part.refusal === undefined
  );
}

class OpenAIEncoder {
  readonly warnings: FormatWarning[] = [];
  readonly messages: JsonObject[] = [];
  private assistant: AssistantPart[] = [];
  private pendingUserParts: JsonObject[] = [];
  /** The id written for each tool call, by its history id: the recorded id where the history renamed it. */
  private readonly writtenIds = new Map<string, string>();

  private warn(type: FormatWarning['type'], message: string, path: string): void {
    this.warnings.push({ type, message, path });
  }

  private textPart(block: TextBlock, markerKeys: readonly string[]): JsonObject {
    const fields = readBlockFields(block.providerMetadata);
    const partFields = without(fields, markerKeys);
    if (fields[blockMarkers.refusalPart] === true) return { ...partFields, type: 'refusal', refusal: block.text };
    return { ...partFields, type: 'text', text: block.text };
  }

  /** A media block as a user content part: image_url, input_audio or file. */
  private mediaPart(block: MediaBlock, path: string): JsonObject | undefined {
    const fields = readBlockFields(block.providerMetadata);
    const partFields = without(fields, ['imageUrl', 'inputAudio', 'file']);
    if (block.mediaType.startsWith('image/')) {
      const url = block.data === undefined ? block.url ?? '' : toDataUrl(block.mediaType, block.data);
      return { ...partFields, type: 'image_url', image_url: { ...nested(fields, 'imageUrl'), url } };
    }
    if (block.data === undefined) {
      this.warn('lossy', `dropped a ${block.mediaType} attachment given by URL: OpenAI takes only images by URL`, path);
      return undefined;
    }
    const audio = audioFormat(block.mediaType);
    if (audio !== undefined) {
      const inner = nested(fields, 'inputAudio');
      return {
        ...partFields,
        type: 'input_audio',
        input_audio: { ...inner, data: block.data, format: inner.format ?? audio },
      };
    }
    return {
      ...partFields,
      type: 'file',
      file: {
        ...nested(fields, 'file'),
        file_data: toDataUrl(block.mediaType, block.data),
        ...(block.filename === undefined ? {} : { filename: block.filename }),
      },
    };
  }

  private toolCall(block: ToolCallBlock): JsonObject {
    const fields = readBlockFields(block.providerMetadata);
    const layout = readLayout(block.providerMetadata);
    const raw = layout[blockMarkers.arguments];
    const original = typeof raw === 'string' ? raw : undefined;
    const recorded = layout[blockMarkers.recordedId];
    const id = typeof recorded === 'string' ? recorded : block.id;
    this.writtenIds.set(block.id, id);
    if (fields.type === 'custom') {
      const input = typeof block.parameters === 'string' ? block.parameters : JSON.stringify(block.parameters);
      const callFields = without(fields, ['type', 'custom']);
      return {
        ...callFields,
        id,
        type: 'custom',
        custom: { ...nested(fields, 'custom'), name: block.name, input },
      };
    }
    const callFields = without(fields, ['function', 'type']);
    return {
      ...callFields,
      id,
      type: 'function',
      function: {
        ...nested(fields, 'function'),
        name: block.name,
        arguments: toolCallArgumentsFor(block.parameters, original),
      },
    };
  }

  private assistantPart(entry: HistoryEntry, index: number, markers: OpenAIEntryMarkers): AssistantPart {
    const part: AssistantPart = {
      index,
      markers,
      parts: [],
      toolCalls: [],
      functionCall: undefined,
      refusal: undefined,
    };
    entry.blocks.forEach((block, blockIndex) => {
      const path = `history[${index}].blocks[${blockIndex}]`;
      switch (block.type) {
        case 'text':
          if (readBlockFields(block.providerMetadata)[blockMarkers.messageRefusal] === true) part.refusal = block.text;
          else part.parts.push(this.textPart(block, textMarkerKeys));
          return;
        case 'tool_call': {
          const fields = readBlockFields(block.providerMetadata);
          const layout = readLayout(block.providerMetadata);
          if (layout[blockMarkers.functionCall] === true && part.functionCall === undefined) {
            const raw = layout[blockMarkers.arguments];
            part.functionCall = {
              ...nested(fields, 'function'),
              name: block.name,
              arguments: toolCallArgumentsFor(block.parameters, typeof raw === 'string' ? raw : undefined),
            };
          } else {
            part.toolCalls.push(this.toolCall(block));
          }
          return;
        }
        case 'thinking':
          this.warn('lossy', 'dropped a thinking block: OpenAI chat messages cannot carry reasoning', path);
          return;
        case 'media':
          this.warn('lossy', `dropped a ${block.mediaType} attachment: OpenAI assistant messages hold text only`, path);
          return;
        case 'tool_response':
          return;
      }
    });
    withOpaqueParts(part.parts, markers);
    return part;
  }

  private flushAssistant(): void {
    const [first, ...rest] = this.assistant;
    this.assistant = [];
    if (first === undefined) return;
    const parts = [first, ...rest].flatMap((part) => part.parts);
    const toolCalls = [first, ...rest].flatMap((part) => part.toolCalls);
    const functionCall = [first, ...rest].find((part) => part.functionCall !== undefined)?.functionCall;
    const refusal = [first, ...rest].find((part) => part.refusal !== undefined)?.refusal;
    for (const extra of rest) {
      if (extra.markers.message !== undefined) {
        this.warn(
          'lossy',
          "merged two assistant messages; the second one's fields were dropped",
          `history[${extra.index}]`,
        );
      }
    }
    const content = toContent(parts, 'assistant', first.markers.content);
    this.messages.push({
      ...first.markers.message,
      role: 'assistant',
      ...(content === undefined ? {} : { content }),
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      ...(functionCall === undefined ? {} : { function_call: functionCall }),
      ...(refusal === undefined ? {} : { refusal }),
    });
  }

  private flushPendingUser(): void {
    if (this.pendingUserParts.length === 0) return;
    this.messages.push({ role: 'user', content: toContent(this.pendingUserParts, 'user', undefined) ?? [] });
    this.pendingUserParts = [];
  }

  private toolContent(block: ToolResponseBlock, path: string): JsonValue {
    const { result } = block;
    if (typeof result === 'string') return result;
    if (isJsonArray(result)) {
      const raw = readLayout(block.providerMetadata)[blockMarkers.rawContent] === true;
      if (raw || result.every((item) => isJsonObject(item) && isPlainTextPart(item))) return result;
      const parts = result.flatMap((item) =>
        isJsonObject(item) && item.type === 'text' && typeof item.text === 'string'
          ? [{ type: 'text', text: item.text }]
          : [],
      );
      if (parts.length === 0) {
        // No text part at all (e.g. gemini-cli's functionResponse parts): the output itself must not be lost.
        this.warn('other', 'the tool result has no text parts; it was written as JSON text', path);
        return JSON.stringify(result);
      }
      this.warn(
        'lossy',
        'kept only the text parts of the tool result, without their extra fields: OpenAI tool messages hold plain text',
        path,
      );
      return parts;
    }
    if (result === null) {
      this.warn('other', 'wrote an empty tool result as an empty string', path);
      return '';
    }
    this.warn('other', `the ${typeof result} tool result was written as JSON text`, path);
    return JSON.stringify(result);
  }

  /**
   * The `tool_call_id` of a response: the id its call was written with, so the two always match (even when a
   * strategy rebuilt the response without its metadata); its own recorded id when its call is not in the history.
   */
  private writtenCallId(block: ToolResponseBlock): string {
    const written = this.writtenIds.get(block.callId);
    if (written !== undefined) return written;
    const recorded = readLayout(block.providerMetadata)[blockMarkers.recordedId];
    return typeof recorded === 'string' ? recorded : block.callId;
  }

  private tool(entry: HistoryEntry, index: number, markers: OpenAIEntryMarkers): void {
    const responses = entry.blocks.filter((block) => block.type === 'tool_response').length;
    entry.blocks.forEach((block, blockIndex) => {
      const path = `history[${index}].blocks[${blockIndex}]`;
      if (block.type !== 'tool_response') {
        // Tool entries of other formats may hold text or media next to the results; they go in a user message
        // after the run of tool messages, which must stay unbroken.
        const part = this.humanPart(block, path, 'user');
        if (part !== undefined) this.pendingUserParts.push(part);
        return;
      }
      if (block.isError === true)
        this.warn('lossy', 'OpenAI tool messages have no error flag; isError was dropped', path);
      const fields = responses === 1 ? markers.message : undefined;
      if (markers.role === 'function') {
        const content =
          block.result === null || typeof block.result === 'string' ? block.result : JSON.stringify(block.result);
        this.messages.push({ ...fields, role: 'function', name: block.toolName, content });
        return;
      }
      this.messages.push({
        ...fields,
        role: 'tool',
        ...(markers.toolCallIdAbsent === true ? {} : { tool_call_id: this.writtenCallId(block) }),
        content: this.toolContent(block, path),
      });
    });
  }

  private humanPart(block: ContentBlock, path: string, role: string): JsonObject | undefined {
    if (block.type === 'text') return this.textPart(block, textMarkerKeys);
    if (block.type === 'media') {
      if (role === 'user') return this.mediaPart(block, path);
      this.warn('lossy', `dropped a ${block.mediaType} attachment: OpenAI ${role} messages hold text only`, path);
    }
    return undefined;
  }

  private human(entry: HistoryEntry, index: number, markers: OpenAIEntryMarkers): void {
    const role = markers.role === 'system' || markers.role === 'developer' ? markers.role : 'user';
    const parts: JsonObject[] = [];
    entry.blocks.forEach((block, blockIndex) => {
      const part = this.humanPart(block, `history[${index}].blocks[${blockIndex}]`, role);
      if (part !== undefined) parts.push(part);
    });
    if (parts.length === 0 && entry.blocks.length > 0) return;
    withOpaqueParts(parts, markers);
    this.messages.push({ ...markers.message, role, content: toContent(parts, role, markers.content) ?? [] });
  }

  entry(entry: HistoryEntry, index: number): void {
    const markers = readEntryMarkers(entry.metadata?.providerMetadata);
    if (entry.speaker !== 'tool') this.flushPendingUser();
    if (entry.speaker === 'ai') {
      const part = this.assistantPart(entry, index, markers);
      // An entry whose blocks were all dropped (only thinking, say) is left out, so its neighbours can merge.
      if (isEmptyAssistantPart(part) && entry.blocks.length > 0) return;
      // Consecutive ai entries form one assistant turn: one message, so every tool message follows its call.
      if (markers.separateMessage === true) this.flushAssistant();
      this.assistant.push(part);
      return;
    }
    this.flushAssistant();
    if (entry.speaker === 'tool') this.tool(entry, index, markers);
    else this.human(entry, index, markers);
  }

  finish(): void {
    this.flushAssistant();
    this.flushPendingUser();
  }

  system(blocks: readonly TextBlock[]): JsonObject[] {
    const groups: TextBlock[][] = [];
    for (const block of blocks) {
      const current = groups.at(-1);
      if (current !== undefined && readSystemMarkers(block.providerMetadata).continuesMessage === true)
        current.push(block);
      else groups.push([block]);
    }
    return groups.map((group) => {
      const markers = readSystemMarkers(group[0]?.providerMetadata);
      const role = markers.role ?? 'system';
      const parts = group.map((block) => this.textPart(block, systemMarkerKeys));
      return { ...markers.message, role, content: toContent(parts, role, markers.content) ?? [] };
    });
  }
}

function encodeTool(tool: ToolDefinition): JsonObject {
  const fields = readBlockFields(tool.providerMetadata);
  const description: JsonObject = tool.description === undefined ? {} : { description: tool.description };
  const parameters: JsonObject = tool.inputSchema === undefined ? {} : { parameters: tool.inputSchema };
  if (fields.type === 'custom') {
    return {
      ...nested(fields, 'tool'),
      type: 'custom',
      custom: { ...without(fields, ['type', 'tool']), name: tool.name, ...description },
    };
  }
  return {
    ...nested(fields, 'tool'),
    type: 'function',
    function: {
      ...without(fields, ['tool']),
      name: tool.name,
      ...description,
      ...parameters,
    },
  };
}

/**
 * Encodes a canonical conversation as an OpenAI Chat Completions request. See {@link openAIChatCodec} for the
 * mapping and what is lost from other formats (every loss is a warning).
 */
export function encodeOpenAIRequest(conversation: Conversation): EncodeResult<OpenAIChatRequest> {
  const encoder = new OpenAIEncoder();
  const stored = conversation.providerMetadata?.[openAIKey];
  const requestFields = isJsonObject(stored?.request) ? stored.request : {};
  const system = conversation.system === undefined ? [] : encoder.system(conversation.system);
  conversation.history.forEach((entry, index) => encoder.entry(entry, index));
  encoder.finish();
  const request: JsonObject = {
    ...requestFields,
    messages: [...system, ...encoder.messages],
    ...(conversation.tools === undefined ? {} : { tools: conversation.tools.map(encodeTool) }),
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
    ...describeForeignMetadata(conversation, { ownKey: openAIKey, format }),
  ];
  return { value: value as OpenAIChatRequest, warnings };
}
