import type {
  ContentBlock,
  Conversation,
  EncodeResult,
  FormatWarning,
  HistoryEntry,
  JsonValue,
  MediaBlock,
  ProviderMetadata,
  ThinkingBlock,
  ToolResponseBlock,
} from '@ctx/core';
import { isFlagSet, LAYOUT_KEY, LossCollector, readObjectField, readStringField } from '@ctx/format-utils';
import { AI_SDK_METADATA_KEY, readAiSdkMetadata, type AiSdkMetadata } from './ai-sdk-provider-metadata.js';
import type {
  AiSdkAssistantMessage,
  AiSdkFilePart,
  AiSdkImagePart,
  AiSdkModelMessage,
  AiSdkPrompt,
  AiSdkProviderOptions,
  AiSdkReasoningFilePart,
  AiSdkReasoningPart,
  AiSdkTextPart,
  AiSdkToolDefinition,
  AiSdkToolResultContentItem,
  AiSdkToolResultOutput,
  AiSdkToolResultPart,
} from './ai-sdk-prompt.js';
import { encodeDataContent, type DataKind } from './binary-data.js';
import { isBlankTextPart } from './blank-text-part.js';
import { MessageAssembly, type EncodedEntry, type EntryLoss, type StoredApproval } from './message-assembly.js';
import { deriveReasoningOptions, deriveToolOutputType } from './derived-fields.js';

type AssistantPart = Exclude<AiSdkAssistantMessage['content'], string>[number];
type UserPart = AiSdkTextPart | AiSdkImagePart | AiSdkFilePart;

/** Where losses are reported: a `LossCollector`, or the list one entry's losses are recorded in. */
interface LossSink {
  add(key: string, warning: FormatWarning): void;
}

/** Reports every `providerMetadata` key other than this codec's own as dropped. */
function addForeignMetadata(losses: LossSink, providerMetadata: ProviderMetadata | undefined, path: string): void {
  for (const key of Object.keys(providerMetadata ?? {})) {
    if (key === AI_SDK_METADATA_KEY) continue;
    losses.add(`metadata:${key}`, {
      type: 'lossy',
      message: `providerMetadata.${key} has no place in AI SDK messages and was dropped`,
      path,
    });
  }
}

/** The tool input schema written for a tool definition that has none (the AI SDK requires one). */
const emptyObjectSchema: JsonValue = { type: 'object', properties: {} };

function providerOptionsOf(metadata: AiSdkMetadata | undefined): { providerOptions?: AiSdkProviderOptions } {
  const stored = readObjectField(metadata, 'providerOptions');
  return stored === undefined ? {} : { providerOptions: structuredClone(stored) as AiSdkProviderOptions };
}

function encodeMedia(block: MediaBlock, context: { readonly inUserMessage: boolean }): AiSdkImagePart | AiSdkFilePart | AiSdkReasoningFilePart {
  const metadata = readAiSdkMetadata(block);
  const kind = readStringField(metadata, 'dataKind') as DataKind | undefined;
  const data = encodeDataContent({
    ...(block.data === undefined ? {} : { data: block.data }),
    ...(block.url === undefined ? {} : { url: block.url }),
    ...(kind === undefined ? {} : { kind }),
  });
  // A file the model produced while reasoning (AI SDK 7) goes back as one, in the assistant message it came from.
  if (!context.inUserMessage && readStringField(metadata, 'partType') === 'reasoning-file') {
    return { type: 'reasoning-file', data, mediaType: block.mediaType, ...providerOptionsOf(metadata) };
  }
  const asImage =
    context.inUserMessage &&
    readStringField(metadata, 'partType') !== 'file' &&
    block.mediaType.startsWith('image/') &&
    block.filename === undefined;
  if (asImage) {
    return {
      type: 'image',
      image: data,
      ...(isFlagSet(metadata, 'mediaTypeOmitted') ? {} : { mediaType: block.mediaType }),
      ...providerOptionsOf(metadata),
    };
  }
  return {
    type: 'file',
    data,
    ...(block.filename === undefined ? {} : { filename: block.filename }),
    mediaType: block.mediaType,
    ...providerOptionsOf(metadata),
  };
}

function encodeReasoning(block: ThinkingBlock): AiSdkReasoningPart {
  const metadata = readAiSdkMetadata(block);
  const stored = providerOptionsOf(metadata).providerOptions;
  const providerOptions = stored ?? deriveReasoningOptions(block, { fromGemini: block.providerMetadata?.gemini !== undefined });
  return {
    type: 'reasoning',
    text: block.redacted === true ? (readStringField(metadata, 'text') ?? '') : block.thought,
    ...(providerOptions === undefined ? {} : { providerOptions }),
  };
}

function isContentItems(result: JsonValue): result is readonly AiSdkToolResultContentItem[] {
  return Array.isArray(result) && result.every((item) => typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string');
}

/** The stored output type when it still fits the result (a strategy may have replaced it), else the derived one. */
function outputTypeFor(block: ToolResponseBlock, metadata: AiSdkMetadata | undefined): AiSdkToolResultOutput['type'] {
  const stored = readStringField(metadata, 'outputType');
  const isString = typeof block.result === 'string';
  switch (stored) {
    case 'json':
    case 'error-json':
      return stored;
    case 'text':
    case 'error-text':
    case 'execution-denied':
      if (isString) return stored;
      break;
    case 'content':
      if (isContentItems(block.result)) return stored;
      break;
  }
  return deriveToolOutputType(block.result, { isError: block.isError === true });
}

/**
 * The prompt's id of a call (or of the call a result answers) that the history renamed, as decode marked it. Each
 * entry is encoded on its own (and kept for the next call), so a result reads its own marker, not its call's: a
 * strategy that rebuilt a result without its metadata would send the renamed id (ctx's strategies keep it).
 */
function recordedIdOf(metadata: AiSdkMetadata | undefined): string | undefined {
  return readStringField(readObjectField(metadata, LAYOUT_KEY), 'recordedId');
}

function encodeToolResult(block: ToolResponseBlock): AiSdkToolResultPart {
  const metadata = readAiSdkMetadata(block);
  const outputOptions = readObjectField(metadata, 'outputProviderOptions');
  const withOptions = outputOptions === undefined ? {} : { providerOptions: structuredClone(outputOptions) as AiSdkProviderOptions };
  const result = structuredClone<JsonValue>(block.result);
  const type = outputTypeFor(block, metadata);
  let output: AiSdkToolResultOutput;
  switch (type) {
    case 'text':
    case 'error-text':
      output = { type, value: result as string, ...withOptions };
      break;
    case 'json':
    case 'error-json':
      output = { type, value: result, ...withOptions };
      break;
    case 'content':
      output = { type, value: result as readonly AiSdkToolResultContentItem[] };
      break;
    case 'execution-denied':
      output = { type, ...(isFlagSet(metadata, 'reasonOmitted') ? {} : { reason: result as string }), ...withOptions };
      break;
  }
  return {
    type: 'tool-result',
    toolCallId: recordedIdOf(metadata) ?? block.callId,
    toolName: block.toolName,
    output,
    ...providerOptionsOf(metadata),
  };
}

function encodeAssistantBlock(block: ContentBlock): AssistantPart | undefined {
  const metadata = readAiSdkMetadata(block);
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text, ...providerOptionsOf(metadata) };
    case 'media':
      return encodeMedia(block, { inUserMessage: false }) as AiSdkFilePart | AiSdkReasoningFilePart;
    case 'thinking':
      return encodeReasoning(block);
    case 'tool_call': {
      const providerExecuted = metadata?.providerExecuted;
      return {
        type: 'tool-call',
        toolCallId: recordedIdOf(metadata) ?? block.id,
        toolName: block.name,
        input: structuredClone<JsonValue>(block.parameters),
        ...providerOptionsOf(metadata),
        ...(typeof providerExecuted === 'boolean' ? { providerExecuted } : {}),
      };
    }
    case 'tool_response':
      return encodeToolResult(block);
  }
}

function encodeUserBlock(block: ContentBlock): UserPart | undefined {
  if (block.type === 'text') return { type: 'text', text: block.text, ...providerOptionsOf(readAiSdkMetadata(block)) };
  if (block.type === 'media') return encodeMedia(block, { inUserMessage: true }) as AiSdkImagePart | AiSdkFilePart;
  return undefined;
}

/**
 * An assistant message's parts without its whitespace-only text parts, when something else remains: Anthropic rejects
 * such a part (and, in a turn still in its tool loop, one before the thinking), and providers pass them on as they
 * are. Transcripts hold them (Claude Code records a blank text block before some thinking blocks); an AI SDK prompt's
 * own are kept (decode flags them).
 */
function withoutBlankText(parts: AssistantPart[], losses: LossSink, path: string): AssistantPart[] {
  if (!parts.some(isBlankTextPart) || parts.every(isBlankTextPart)) return parts;
  losses.add('blank-text', {
    type: 'other',
    message: 'whitespace-only text parts of assistant messages were dropped (Anthropic rejects them)',
    path,
  });
  return parts.filter((part) => !isBlankTextPart(part));
}

/** A single plain text part is written as a string, as the AI SDK's own messages usually are. */
function toContent<Part extends { readonly type: string; readonly providerOptions?: unknown }>(
  parts: Part[],
  metadata: AiSdkMetadata | undefined,
): string | Part[] {
  const [first] = parts;
  if (parts.length === 1 && first?.type === 'text' && first.providerOptions === undefined && !isFlagSet(metadata, 'contentArray')) {
    return (first as unknown as AiSdkTextPart).text;
  }
  return parts;
}

function encodeSystem(conversation: Conversation, losses: LossCollector): { system?: string; systemMessages: AiSdkModelMessage[] } {
  const plain: string[] = [];
  const systemMessages: AiSdkModelMessage[] = [];
  (conversation.system ?? []).forEach((block, index) => {
    addForeignMetadata(losses, block.providerMetadata, `system[${index}]`);
    const metadata = readAiSdkMetadata(block);
    if (isFlagSet(metadata, 'systemMessage')) systemMessages.push({ role: 'system', content: block.text, ...providerOptionsOf(metadata) });
    else plain.push(block.text);
  });
  if (plain.length > 1) {
    losses.add('system-blocks', {
      type: 'lossy',
      message: `${plain.length} system blocks were joined into one system string (blank line between)`,
      path: 'system',
    });
  }
  return { ...(plain.length === 0 ? {} : { system: plain.join('\n\n') }), systemMessages };
}

function encodeTools(conversation: Conversation, losses: LossCollector): Record<string, AiSdkToolDefinition> | undefined {
  if (conversation.tools === undefined) return undefined;
  const tools: Record<string, AiSdkToolDefinition> = {};
  conversation.tools.forEach((tool, index) => {
    const path = `tools[${index}]`;
    addForeignMetadata(losses, tool.providerMetadata, path);
    if (Object.hasOwn(tools, tool.name)) {
      losses.add('duplicate-tool', { type: 'lossy', message: `tool ${tool.name} is defined twice; only the first was kept`, path });
      return;
    }
    if (tool.inputSchema === undefined) {
      losses.add('tool-schema', { type: 'other', message: 'a tool without input schema was given an empty object schema', path });
    }
    tools[tool.name] = {
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: structuredClone(tool.inputSchema ?? emptyObjectSchema),
      ...providerOptionsOf(readAiSdkMetadata(tool)),
    };
  });
  return tools;
}

/**
 * Encodes one history entry on its own (see {@link EncodedEntry}); nothing it returns is shared with the entry.
 *
 * @param entry - A valid history entry.
 * @returns The entry's message, what it appends when it continues one, its approvals and its losses.
 */
export function encodeEntry(entry: HistoryEntry): EncodedEntry {
  const losses: EntryLoss[] = [];
  const sink: LossSink = { add: (key, warning) => losses.push({ key, warning }) };
  const metadata = readAiSdkMetadata(entry.metadata);
  const { providerMetadata, ...facts } = entry.metadata ?? {};
  addForeignMetadata(sink, providerMetadata, '.metadata');
  if (Object.keys(facts).length > 0) {
    sink.add('entry-metadata', {
      type: 'lossy',
      message: `entry metadata (${Object.keys(facts).join(', ')}) has no place in a model message and was dropped`,
      path: '.metadata',
    });
  }
  entry.blocks.forEach((block, blockIndex) => addForeignMetadata(sink, block.providerMetadata, `.blocks[${blockIndex}]`));
  const messageOptions = providerOptionsOf(metadata);
  const continues = isFlagSet(metadata, 'continuesMessage');

  if (entry.speaker === 'human') {
    if (readStringField(metadata, 'role') === 'system') {
      const text = entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
      return { message: { role: 'system', content: text, ...messageOptions }, approvals: [], losses };
    }
    const parts = entry.blocks.flatMap((block) => encodeUserBlock(block) ?? []);
    return { message: { role: 'user', content: toContent(parts, metadata), ...messageOptions }, approvals: [], losses };
  }

  if (entry.speaker === 'ai') {
    const encoded = entry.blocks.flatMap((block) => encodeAssistantBlock(block) ?? []);
    const parts = isFlagSet(metadata, 'blankText') ? encoded : withoutBlankText(encoded, sink, '');
    return {
      message: { role: 'assistant', content: toContent(parts, metadata), ...messageOptions },
      ...(continues ? { continuation: { parts, partOrder: undefined } } : {}),
      approvals: readApprovals(metadata),
      losses,
    };
  }

  const results = entry.blocks.flatMap((block) => (block.type === 'tool_response' ? [encodeToolResult(block)] : []));
  const others = entry.blocks.flatMap((block, blockIndex) => {
    if (block.type === 'tool_response') return [];
    sink.add('tool-entry-content', {
      type: 'lossy',
      message: `a ${block.type} block of a tool entry was moved to a user message after the tool message`,
      path: `.blocks[${blockIndex}]`,
    });
    return encodeUserBlock(block) ?? [];
  });
  return {
    message: { role: 'tool', content: results, ...messageOptions },
    ...(continues ? { continuation: { parts: results, partOrder: readStringField(metadata, 'partOrder') } } : {}),
    ...(others.length === 0 ? {} : { others: { role: 'user', content: others } }),
    approvals: readApprovals(metadata),
    losses,
  };
}

/**
 * Turns a canonical conversation into AI SDK prompt fields, each entry encoded by `encode`: {@link encodeEntry}, or
 * a cache of its results (see `createAiSdkPromptEncoder`).
 *
 * @param conversation - A valid conversation; it is not modified.
 * @param encode - Encodes one entry.
 * @returns The prompt fields and one warning per kind of loss.
 */
export function encodeAiSdkPromptWith(conversation: Conversation, encode: (entry: HistoryEntry) => EncodedEntry): EncodeResult<AiSdkPrompt> {
  const assembly = new MessageAssembly();
  for (const entry of conversation.history) assembly.append(entry, encode(entry), false);
  return finishAiSdkPrompt(conversation, assembly);
}

/**
 * The prompt fields for a conversation whose history `assembly` holds, entry by entry: the system string and
 * messages, the history's messages with their approvals put back, the tools, and the warnings of every loss (the
 * conversation's, the system's, each entry's with its index, the tools'). The assembly is not changed.
 *
 * @param conversation - A valid conversation.
 * @param assembly - Its history's entries, appended in order.
 * @returns The prompt fields and one warning per kind of loss.
 */
export function finishAiSdkPrompt(conversation: Conversation, assembly: MessageAssembly): EncodeResult<AiSdkPrompt> {
  const losses = new LossCollector();
  addForeignMetadata(losses, conversation.providerMetadata, 'providerMetadata');
  const { system, systemMessages } = encodeSystem(conversation, losses);
  for (const { entryIndex, losses: entryLosses } of assembly.entryLosses()) {
    for (const { key, warning } of entryLosses) losses.add(key, { ...warning, path: `history[${entryIndex}]${warning.path ?? ''}` });
  }
  const messages: AiSdkModelMessage[] = [...systemMessages, ...assembly.messages];
  for (const [index, stored] of assembly.approvalsByMessage()) insertApprovals(messages, systemMessages.length + index, stored);
  const tools = encodeTools(conversation, losses);
  const value: AiSdkPrompt = {
    ...(system === undefined ? {} : { system }),
    messages,
    ...(tools === undefined ? {} : { tools }),
  };
  return { value, warnings: losses.toWarnings() };
}

/**
 * Turns a canonical conversation into AI SDK prompt fields (see the codec for the mapping).
 *
 * @param conversation - A valid conversation; it is not modified.
 * @returns The prompt fields and one warning per kind of loss.
 */
export function encodeAiSdkPrompt(conversation: Conversation): EncodeResult<AiSdkPrompt> {
  return encodeAiSdkPromptWith(conversation, encodeEntry);
}

/** The approval parts decode kept in an entry's metadata; entries that are not shaped as decode writes them are skipped. */
function readApprovals(metadata: AiSdkMetadata | undefined): StoredApproval[] {
  const stored = metadata?.['approvals'];
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return [];
    const { before, part } = item as { before?: unknown; part?: unknown };
    const type = (part as { type?: unknown } | null | undefined)?.type;
    if (typeof before !== 'number' || (type !== 'tool-approval-request' && type !== 'tool-approval-response' && type !== 'custom')) return [];
    return [{ before, part: structuredClone(part) as StoredApproval['part'] }];
  });
}

/**
 * Puts approval and custom parts back into a message: each after `before` of the message's other parts (at the end
 * when the message now has fewer). Request and custom parts go into assistant content, response parts into tool
 * content.
 */
function insertApprovals(messages: AiSdkModelMessage[], index: number, approvals: readonly StoredApproval[]): void {
  const message = messages[index];
  if (message === undefined || (message.role !== 'assistant' && message.role !== 'tool')) return;
  const wanted: ReadonlySet<string> = new Set(message.role === 'assistant' ? ['tool-approval-request', 'custom'] : ['tool-approval-response']);
  const others: readonly { readonly type: string }[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content } as AiSdkTextPart] : message.content;
  const content: { readonly type: string }[] = [];
  const pending = approvals.filter((approval) => wanted.has(approval.part.type));
  let next = 0;
  const flush = (count: number) => {
    while (next < pending.length && (pending[next]?.before ?? 0) <= count) content.push((pending[next++] as StoredApproval).part);
  };
  others.forEach((part, partIndex) => {
    flush(partIndex);
    content.push(part);
  });
  flush(Number.POSITIVE_INFINITY);
  messages[index] = { ...message, content } as unknown as AiSdkModelMessage;
}
