import type {
  ContentBlock,
  Conversation,
  EncodeResult,
  HistoryEntry,
  JsonValue,
  MediaBlock,
  ProviderMetadata,
  ThinkingBlock,
  ToolCallBlock,
  ToolDefinition,
  ToolResponseBlock,
} from '@ctx/core';
import { isFlagSet, LossCollector, readObjectField, readStringField } from '@ctx/format-utils';
import { GEMINI_METADATA_KEY, readGeminiMetadata, type GeminiMetadata } from './gemini-provider-metadata.js';
import type {
  GeminiContent,
  GeminiFunctionDeclaration,
  GeminiPart,
  GeminiRequest,
  GeminiSystemInstruction,
  GeminiTool,
} from './gemini-request.js';

/** Options of the Gemini encoder. */
export interface GeminiEncodeOptions {
  /**
   * A `thoughtSignature` to put on the first `functionCall` part of every model content whose calls carry none,
   * e.g. `'skip_thought_signature_validator'`, the value Google documents for histories that come from another
   * model. Gemini 3 rejects function calls of the current turn without a signature; Gemini 2.5 does not need one.
   * `undefined` adds nothing, which keeps the round trip of Gemini's own requests exact.
   * @default undefined
   */
  readonly unsignedFunctionCallSignature?: string;
}

type JsonRecord = Record<string, JsonValue>;
type MutablePart = Record<string, JsonValue>;

interface WorkingContent {
  readonly content: { role?: 'user' | 'model'; parts: MutablePart[] };
  /** What made the content: the encoder merges only like with like. */
  readonly kind: 'model' | 'tool' | 'human';
  /** The part order to restore when a human entry is merged back into this tool content. */
  readonly partOrder?: string;
}

function reportForeignMetadata(providerMetadata: ProviderMetadata | undefined, path: string, losses: LossCollector): void {
  if (providerMetadata === undefined) return;
  for (const key of Object.keys(providerMetadata)) {
    if (key === GEMINI_METADATA_KEY) continue;
    losses.add(`metadata:${key}`, {
      type: 'lossy',
      message: `providerMetadata.${key} has no place in a Gemini request and was dropped`,
      path,
    });
  }
}

function withExtras(part: MutablePart, metadata: GeminiMetadata | undefined): MutablePart {
  const extras = readObjectField(metadata, 'part');
  return extras === undefined ? part : { ...part, ...structuredClone(extras) };
}

function encodeMedia(block: MediaBlock, path: string, losses: LossCollector): MutablePart {
  const metadata = readGeminiMetadata(block);
  const displayName = readStringField(metadata, 'displayName');
  if (block.filename !== undefined && displayName === undefined) {
    // `displayName` exists on Vertex AI only; the Gemini API rejects it, so a foreign file name is not sent.
    losses.add('filename', { type: 'lossy', message: 'media filename has no place in a Gemini part and was dropped', path });
  }
  const named: JsonRecord = displayName === undefined ? {} : { displayName };
  if (block.data !== undefined) {
    return withExtras({ inlineData: { mimeType: block.mediaType, data: block.data, ...named } }, metadata);
  }
  const mimeType: JsonRecord = isFlagSet(metadata, 'mimeTypeOmitted') ? {} : { mimeType: block.mediaType };
  return withExtras({ fileData: { ...mimeType, fileUri: block.url ?? '', ...named } }, metadata);
}

function encodeThinking(block: ThinkingBlock, path: string, losses: LossCollector): MutablePart | undefined {
  const metadata = readGeminiMetadata(block);
  if (block.redacted === true) {
    losses.add('redacted-thinking', {
      type: 'lossy',
      message: 'redacted thinking from another provider cannot be sent to Gemini and was dropped',
      path,
    });
    return undefined;
  }
  const part: MutablePart = { text: block.thought, thought: true };
  if (block.signature !== undefined) {
    // Only Gemini can verify its own signatures; another provider's would make the request fail.
    if (metadata !== undefined) part.thoughtSignature = block.signature;
    else {
      losses.add('thinking-signature', {
        type: 'lossy',
        message: 'thinking signature from another provider was dropped (the thought is sent as a thought summary)',
        path,
      });
    }
  }
  return withExtras(part, metadata);
}

/** The id each tool call was written with, by its id in the history: what its responses are written with. */
type WrittenIds = Map<string, string | undefined>;

function encodeToolCall(block: ToolCallBlock, path: string, losses: LossCollector, writtenIds: WrittenIds): MutablePart {
  const metadata = readGeminiMetadata(block);
  // A renamed copy of an id the provider reused is written as recorded.
  const id = isFlagSet(metadata, 'idOmitted') ? undefined : (readStringField(metadata, 'recordedId') ?? block.id);
  writtenIds.set(block.id, id);
  let args: JsonValue | undefined = block.parameters;
  if (isFlagSet(metadata, 'argsOmitted')) args = undefined;
  else if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    losses.add('non-object-args', {
      type: 'lossy',
      message: 'tool call parameters that are not an object were wrapped as { value } (Gemini args are an object)',
      path,
    });
    args = { value: args };
  }
  const functionCall: JsonRecord = {
    ...(id === undefined ? {} : { id }),
    name: block.name,
    ...(args === undefined ? {} : { args: structuredClone(args) }),
  };
  return withExtras({ functionCall }, metadata);
}

function encodeToolResponse(block: ToolResponseBlock, writtenIds: WrittenIds): MutablePart {
  const metadata = readGeminiMetadata(block);
  const result = structuredClone<JsonValue>(block.result);
  let response: JsonValue;
  if (readStringField(metadata, 'responseShape') === 'raw' && typeof result === 'object' && result !== null && !Array.isArray(result)) {
    response = result;
  } else response = block.isError === true ? { error: result } : { output: result };
  // Without its own record (a strategy rebuilt it), a response is written with the id its call was written with.
  const id = isFlagSet(metadata, 'idOmitted')
    ? undefined
    : (readStringField(metadata, 'responseId') ?? writtenIds.get(block.callId) ?? block.callId);
  const extras = readObjectField(metadata, 'functionResponse');
  return withExtras(
    {
      functionResponse: {
        ...(id === undefined ? {} : { id }),
        name: block.toolName,
        response,
        ...(extras === undefined ? {} : (structuredClone(extras))),
      },
    },
    metadata,
  );
}

function encodeBlock(block: ContentBlock, path: string, losses: LossCollector, writtenIds: WrittenIds): MutablePart | undefined {
  reportForeignMetadata(block.providerMetadata, path, losses);
  const metadata = readGeminiMetadata(block);
  const opaque = readObjectField(metadata, 'opaquePart');
  if (opaque !== undefined) return structuredClone(opaque);
  switch (block.type) {
    case 'text':
      return withExtras({ text: block.text }, metadata);
    case 'media':
      return encodeMedia(block, path, losses);
    case 'thinking':
      return encodeThinking(block, path, losses);
    case 'tool_call':
      return encodeToolCall(block, path, losses, writtenIds);
    case 'tool_response':
      return encodeToolResponse(block, writtenIds);
  }
}

function encodeParts(entry: HistoryEntry, entryIndex: number, losses: LossCollector, writtenIds: WrittenIds): MutablePart[] {
  const parts: MutablePart[] = [];
  entry.blocks.forEach((block, blockIndex) => {
    const path = `history[${entryIndex}].blocks[${blockIndex}]`;
    if (entry.speaker === 'tool' && block.type !== 'tool_response' && readObjectField(readGeminiMetadata(block), 'opaquePart') === undefined) {
      losses.add('tool-entry-content', {
        type: 'lossy',
        message: `a ${block.type} block of a tool entry is sent as a user part; it decodes as a human entry`,
        path,
      });
    }
    const part = encodeBlock(block, path, losses, writtenIds);
    if (part !== undefined) parts.push(part);
  });
  return parts;
}

/** Interleaves tool and human parts in the order decode recorded, when the counts still match. */
function restorePartOrder(toolParts: readonly MutablePart[], humanParts: readonly MutablePart[], order: string | undefined): MutablePart[] {
  const expected = toolParts.length + humanParts.length;
  const toolCount = order === undefined ? -1 : order.split('').filter((mark) => mark === 't').length;
  if (order === undefined || order.length !== expected || toolCount !== toolParts.length) return [...toolParts, ...humanParts];
  let toolIndex = 0;
  let humanIndex = 0;
  return order.split('').map((mark) => (mark === 't' ? toolParts[toolIndex++] : humanParts[humanIndex++]) as MutablePart);
}

function encodeSystem(conversation: Conversation, conversationMetadata: GeminiMetadata | undefined): GeminiSystemInstruction | undefined {
  const blocks = conversation.system ?? [];
  if (blocks.length === 0 && !isFlagSet(conversationMetadata, 'emptySystemInstruction')) return undefined;
  const role = readStringField(conversationMetadata, 'systemInstructionRole');
  return {
    ...(role === undefined ? {} : { role }),
    parts: blocks.map((block) => withExtras({ text: block.text }, readGeminiMetadata(block)) as GeminiPart),
  };
}

function encodeDeclaration(tool: ToolDefinition): GeminiFunctionDeclaration {
  const metadata = readGeminiMetadata(tool);
  const schemaField = readStringField(metadata, 'schemaField') === 'parameters' ? 'parameters' : 'parametersJsonSchema';
  const extras = readObjectField(metadata, 'declaration');
  return {
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.inputSchema === undefined ? {} : { [schemaField]: structuredClone(tool.inputSchema) }),
    ...(extras === undefined ? {} : structuredClone(extras)),
  };
}

function encodeTools(conversation: Conversation, conversationMetadata: GeminiMetadata | undefined, losses: LossCollector): GeminiTool[] | undefined {
  const tools = conversation.tools ?? [];
  tools.forEach((tool, index) => reportForeignMetadata(tool.providerMetadata, `tools[${index}]`, losses));
  const declarations = tools.map(encodeDeclaration);
  const layout = conversationMetadata?.toolLayout;
  if (Array.isArray(layout)) {
    const items = (layout as readonly JsonValue[]).map((item) => (typeof item === 'object' && item !== null ? (item as JsonRecord) : {}));
    const counts = items.map((item) => (typeof item.functionDeclarations === 'number' ? item.functionDeclarations : 0));
    if (counts.reduce((sum, count) => sum + count, 0) === declarations.length) {
      let next = 0;
      return items.map((item, index): GeminiTool => {
        const { functionDeclarations, ...builtIn } = structuredClone(item);
        if (functionDeclarations === undefined) return builtIn;
        const taken = declarations.slice(next, next + (counts[index] ?? 0));
        next += taken.length;
        return { ...builtIn, functionDeclarations: taken };
      });
    }
    losses.add('tool-layout', {
      type: 'lossy',
      message: 'the tool list changed since decoding: built-in tools and declaration grouping were not restored',
      path: 'tools',
    });
  }
  return declarations.length === 0 ? undefined : [{ functionDeclarations: declarations }];
}

function signUnsignedCalls(contents: readonly WorkingContent[], signature: string): void {
  for (const { content, kind } of contents) {
    if (kind !== 'model') continue;
    const calls = content.parts.filter((part) => part.functionCall !== undefined);
    if (calls.length === 0 || calls.some((part) => part.thoughtSignature !== undefined)) continue;
    (calls[0] as MutablePart).thoughtSignature = signature;
  }
}

/**
 * Turns a canonical conversation into a Gemini request (see the codec for the mapping and the grouping rules).
 *
 * @param conversation - A valid conversation; it is not modified.
 * @param options - See {@link GeminiEncodeOptions}.
 * @returns The request and one warning per kind of loss.
 */
export function encodeGeminiRequest(conversation: Conversation, options: GeminiEncodeOptions = {}): EncodeResult<GeminiRequest> {
  const losses = new LossCollector();
  const conversationMetadata = readGeminiMetadata(conversation);
  reportForeignMetadata(conversation.providerMetadata, 'providerMetadata', losses);
  (conversation.system ?? []).forEach((block, index) => reportForeignMetadata(block.providerMetadata, `system[${index}]`, losses));

  const contents: WorkingContent[] = [];
  const writtenIds: WrittenIds = new Map();
  conversation.history.forEach((entry, entryIndex) => {
    const entryMetadata = readGeminiMetadata(entry.metadata);
    const { providerMetadata, ...facts } = entry.metadata ?? {};
    reportForeignMetadata(providerMetadata, `history[${entryIndex}].metadata`, losses);
    if (Object.keys(facts).length > 0) {
      losses.add('entry-metadata', {
        type: 'lossy',
        message: `entry metadata (${Object.keys(facts).join(', ')}) has no place in a Gemini content and was dropped`,
        path: `history[${entryIndex}].metadata`,
      });
    }
    const parts = encodeParts(entry, entryIndex, losses, writtenIds);
    const last = contents.at(-1);
    const startsContent = isFlagSet(entryMetadata, 'startsContent');
    const role = isFlagSet(entryMetadata, 'roleOmitted') ? {} : { role: entry.speaker === 'ai' ? ('model' as const) : ('user' as const) };

    if (entry.speaker === 'ai') {
      // Consecutive ai entries are one assistant turn: one model content, as Gemini pairs responses per content.
      if (last?.kind === 'model' && !startsContent) last.content.parts.push(...parts);
      else contents.push({ content: { ...role, parts }, kind: 'model' });
    } else if (entry.speaker === 'tool') {
      // All responses of a turn go in one user content: Gemini wants as many responses as calls, together.
      if (last?.kind === 'tool' && !startsContent) last.content.parts.push(...parts);
      else {
        const partOrder = readStringField(entryMetadata, 'partOrder');
        contents.push({ content: { ...role, parts }, kind: 'tool', ...(partOrder === undefined ? {} : { partOrder }) });
      }
    } else if (isFlagSet(entryMetadata, 'sameContent') && last?.kind === 'tool') {
      contents[contents.length - 1] = {
        content: { ...last.content, parts: restorePartOrder(last.content.parts, parts, last.partOrder) },
        kind: 'human',
      };
    } else contents.push({ content: { ...role, parts }, kind: 'human' });
  });

  if (options.unsignedFunctionCallSignature !== undefined) signUnsignedCalls(contents, options.unsignedFunctionCallSignature);

  const systemInstruction = encodeSystem(conversation, conversationMetadata);
  const tools = encodeTools(conversation, conversationMetadata, losses);
  const settings = readObjectField(conversationMetadata, 'request');
  const value: GeminiRequest = {
    ...(systemInstruction === undefined ? {} : { systemInstruction }),
    contents: contents.map(({ content }) => content as GeminiContent),
    ...(tools === undefined ? {} : { tools }),
    ...(settings === undefined ? {} : structuredClone(settings)),
  };
  return { value, warnings: losses.toWarnings() };
}
