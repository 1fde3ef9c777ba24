import {
  isSameJson,
  parseConversation,
  type ContentBlock,
  type Conversation,
  type DecodeResult,
  type FormatWarning,
  type HistoryEntry,
  type JsonValue,
  type TextBlock,
  type ToolDefinition,
} from '@ctx/core';
import { createUniqueCallIds, LAYOUT_KEY, type UniqueCallIds } from '@ctx/format-utils';
import { aiSdkMetadataField } from './ai-sdk-provider-metadata.js';
import type {
  AiSdkAssistantMessage,
  AiSdkCustomPart,
  AiSdkFilePart,
  AiSdkImagePart,
  AiSdkPrompt,
  AiSdkProviderOptions,
  AiSdkReasoningPart,
  AiSdkToolApprovalRequestPart,
  AiSdkToolApprovalResponsePart,
  AiSdkToolResultPart,
} from './ai-sdk-prompt.js';
import { decodeDataContent, sniffImageMediaType } from './binary-data.js';
import { isBlankTextPart } from './blank-text-part.js';
import { deriveReasoningOptions, deriveToolOutputType, isPlainTextPart } from './derived-fields.js';

type Options = AiSdkProviderOptions | undefined;

function options(providerOptions: Options): JsonValue | undefined {
  return providerOptions === undefined ? undefined : (structuredClone(providerOptions));
}

function decodeMedia(
  part: AiSdkImagePart | AiSdkFilePart,
  context: { readonly inUserMessage: boolean; readonly partType?: 'reasoning-file' },
): ContentBlock {
  const content = decodeDataContent(part.type === 'image' ? part.image : part.data);
  const source = content.data === undefined ? { url: content.url ?? '' } : { data: content.data };
  if (part.type === 'image') {
    return {
      type: 'media',
      // The canonical block needs a media type; remember that the part had none, so encode leaves it out again.
      mediaType: part.mediaType ?? sniffImageMediaType(content.data) ?? 'image/*',
      ...source,
      ...aiSdkMetadataField({
        providerOptions: options(part.providerOptions),
        dataKind: content.kind,
        mediaTypeOmitted: part.mediaType === undefined ? true : undefined,
      }),
    };
  }
  // Encode writes an image part for a user's image without file name; a file part there must say it was one.
  const wouldBeImage = context.inUserMessage && part.mediaType.startsWith('image/') && part.filename === undefined;
  return {
    type: 'media',
    mediaType: part.mediaType,
    ...source,
    ...(part.filename === undefined ? {} : { filename: part.filename }),
    ...aiSdkMetadataField({
      providerOptions: options(part.providerOptions),
      dataKind: content.kind,
      partType: context.partType ?? (wouldBeImage ? 'file' : undefined),
    }),
  };
}

function decodeReasoning(part: AiSdkReasoningPart): ContentBlock {
  const anthropic = part.providerOptions?.anthropic;
  const signature = anthropic?.signature ?? part.providerOptions?.google?.thoughtSignature;
  const redactedData = anthropic?.redactedData;
  const block =
    typeof redactedData === 'string'
      ? { type: 'thinking' as const, thought: redactedData, redacted: true }
      : { type: 'thinking' as const, thought: part.text, ...(typeof signature === 'string' ? { signature } : {}) };
  // Keep the options only when encode could not derive them from the block (as it can for Anthropic's).
  const derived = deriveReasoningOptions(block, { fromGemini: false });
  return {
    ...block,
    ...aiSdkMetadataField({
      providerOptions: isSameJson(part.providerOptions, derived) ? undefined : options(part.providerOptions),
      text: block.redacted === true && part.text !== '' ? part.text : undefined,
    }),
  };
}

/**
 * The layout marker of a call (or result) the history holds under another id than the prompt's, because an earlier
 * call had it; encode writes the prompt's id back.
 */
function recordedIdLayout(id: string, recorded: string): JsonValue | undefined {
  return id === recorded ? undefined : { recordedId: recorded };
}

function decodeToolResult(part: AiSdkToolResultPart, ids: UniqueCallIds): ContentBlock {
  const { output } = part;
  let result: JsonValue;
  let isError = false;
  let reasonOmitted: true | undefined;
  switch (output.type) {
    case 'text':
    case 'json':
    case 'content':
      result = structuredClone<JsonValue>(output.value);
      break;
    case 'error-text':
    case 'error-json':
      result = structuredClone<JsonValue>(output.value);
      isError = true;
      break;
    case 'execution-denied':
      // A denial is a failed call for every other format; its reason (or a standard sentence) is the result.
      result = output.reason ?? 'Tool execution denied.';
      reasonOmitted = output.reason === undefined ? true : undefined;
      isError = true;
      break;
  }
  const outputOptions = 'providerOptions' in output ? output.providerOptions : undefined;
  const callId = ids.answeredId(part.toolCallId);
  return {
    type: 'tool_response',
    callId,
    toolName: part.toolName,
    result,
    ...(isError ? { isError: true } : {}),
    ...aiSdkMetadataField({
      [LAYOUT_KEY]: recordedIdLayout(callId, part.toolCallId),
      providerOptions: options(part.providerOptions),
      outputType: deriveToolOutputType(result, { isError }) === output.type ? undefined : output.type,
      outputProviderOptions: options(outputOptions),
      reasonOmitted,
    }),
  };
}

type AssistantPart = Exclude<AiSdkAssistantMessage['content'], string>[number];
type ApprovalPart = AiSdkToolApprovalRequestPart | AiSdkToolApprovalResponsePart | AiSdkCustomPart;

function isApprovalPart(part: { readonly type: string }): part is ApprovalPart {
  return part.type === 'tool-approval-request' || part.type === 'tool-approval-response' || part.type === 'custom';
}

/**
 * Tool approval parts and custom parts have no canonical block: they are kept verbatim in the entry's metadata, each
 * with the number of other parts before it, so encode puts them back where they were. Undefined if the content has
 * none.
 */
function approvalsOf(content: readonly { readonly type: string }[]): JsonValue | undefined {
  const approvals: JsonValue[] = [];
  let before = 0;
  for (const part of content) {
    if (isApprovalPart(part)) approvals.push({ before, part: JSON.parse(JSON.stringify(part)) as JsonValue });
    else before += 1;
  }
  return approvals.length === 0 ? undefined : approvals;
}

function decodeAssistantPart(
  part: Exclude<AssistantPart, AiSdkToolResultPart | AiSdkToolApprovalRequestPart | AiSdkCustomPart>,
  ids: UniqueCallIds,
): ContentBlock {
  switch (part.type) {
    case 'reasoning-file':
      return decodeMedia(
        { type: 'file', data: part.data, mediaType: part.mediaType, ...(part.providerOptions === undefined ? {} : { providerOptions: part.providerOptions }) },
        { inUserMessage: false, partType: 'reasoning-file' },
      );
    case 'text':
      return { type: 'text', text: part.text, ...aiSdkMetadataField({ providerOptions: options(part.providerOptions) }) };
    case 'file':
      return decodeMedia(part, { inUserMessage: false });
    case 'reasoning':
      return decodeReasoning(part);
    case 'tool-call': {
      const id = ids.callId(part.toolCallId);
      return {
        type: 'tool_call',
        id,
        name: part.toolName,
        parameters: structuredClone(part.input),
        ...aiSdkMetadataField({
          [LAYOUT_KEY]: recordedIdLayout(id, part.toolCallId),
          providerOptions: options(part.providerOptions),
          providerExecuted: part.providerExecuted,
        }),
      };
    }
  }
}

function entryMetadata(fields: Readonly<Record<string, JsonValue | undefined>>): Pick<HistoryEntry, 'metadata'> {
  const field = aiSdkMetadataField(fields);
  return field.providerMetadata === undefined ? {} : { metadata: { providerMetadata: field.providerMetadata } };
}

/**
 * An assistant message as entries: an ai entry with its parts, then — when it holds results of provider-executed
 * tools — a tool entry with those results, marked as continuing the message. Results go after the calls so the
 * history stays pair-valid (one assistant turn, then its results); the original part order is kept for encode.
 */
function decodeAssistantMessage(message: AiSdkAssistantMessage, ids: UniqueCallIds): HistoryEntry[] {
  const messageFields = {
    providerOptions: options(message.providerOptions),
    contentArray: typeof message.content !== 'string' && isPlainTextPart(message.content) ? true : undefined,
    approvals: typeof message.content === 'string' ? undefined : approvalsOf(message.content),
    // The message's own whitespace-only text parts go back as they were (encode drops those of other formats).
    blankText: typeof message.content !== 'string' && message.content.some(isBlankTextPart) ? true : undefined,
  };
  if (typeof message.content === 'string') {
    return [{ speaker: 'ai', blocks: [{ type: 'text', text: message.content }], ...entryMetadata(messageFields) }];
  }
  const blocks: ContentBlock[] = [];
  const results: ContentBlock[] = [];
  let order = '';
  for (const part of message.content) {
    if (part.type === 'tool-approval-request' || part.type === 'custom') continue;
    if (part.type === 'tool-result') {
      results.push(decodeToolResult(part, ids));
      order += 't';
    } else {
      blocks.push(decodeAssistantPart(part, ids));
      order += 'a';
    }
  }
  const entries: HistoryEntry[] = [{ speaker: 'ai', blocks, ...entryMetadata(messageFields) }];
  if (results.length > 0) {
    const ordered = 'a'.repeat(blocks.length) + 't'.repeat(results.length);
    entries.push({
      speaker: 'tool',
      blocks: results,
      ...entryMetadata({ continuesMessage: true, partOrder: order === ordered ? undefined : order }),
    });
  }
  return entries;
}

/**
 * Turns structurally valid AI SDK prompt fields into a canonical conversation (see the codec for the mapping).
 *
 * @param ids - The history's ids for the tool call ids of the messages before these (none by default); told these
 *   messages' own.
 */
export function decodeAiSdkPrompt(prompt: AiSdkPrompt, ids: UniqueCallIds = createUniqueCallIds()): DecodeResult {
  const warnings: FormatWarning[] = [];
  const system: TextBlock[] = prompt.system === undefined ? [] : [{ type: 'text', text: prompt.system }];
  const history: HistoryEntry[] = [];

  prompt.messages.forEach((message, messageIndex) => {
    switch (message.role) {
      case 'system':
        // Leading system messages are system instructions; later ones have no canonical place but a human entry.
        if (history.length === 0) {
          system.push({
            type: 'text',
            text: message.content,
            ...aiSdkMetadataField({ systemMessage: true, providerOptions: options(message.providerOptions) }),
          });
          return;
        }
        warnings.push({
          type: 'other',
          message: 'a system message after the conversation started is carried as a human entry marked aiSdk.role = system',
          path: `messages[${messageIndex}]`,
        });
        history.push({
          speaker: 'human',
          blocks: [{ type: 'text', text: message.content }],
          ...entryMetadata({ role: 'system', providerOptions: options(message.providerOptions) }),
        });
        return;
      case 'user': {
        const fields = {
          providerOptions: options(message.providerOptions),
          contentArray: typeof message.content !== 'string' && isPlainTextPart(message.content) ? true : undefined,
        };
        const blocks: ContentBlock[] =
          typeof message.content === 'string'
            ? [{ type: 'text', text: message.content }]
            : message.content.map((part) =>
                part.type === 'text'
                  ? { type: 'text', text: part.text, ...aiSdkMetadataField({ providerOptions: options(part.providerOptions) }) }
                  : decodeMedia(part, { inUserMessage: true }),
              );
        history.push({ speaker: 'human', blocks, ...entryMetadata(fields) });
        return;
      }
      case 'assistant':
        history.push(...decodeAssistantMessage(message, ids));
        return;
      case 'tool':
        history.push({
          speaker: 'tool',
          blocks: message.content.flatMap((part) => (part.type === 'tool-result' ? [decodeToolResult(part, ids)] : [])),
          ...entryMetadata({ providerOptions: options(message.providerOptions), approvals: approvalsOf(message.content) }),
        });
        return;
    }
  });

  const tools: ToolDefinition[] | undefined =
    prompt.tools === undefined
      ? undefined
      : Object.entries(prompt.tools).map(([name, tool]) => ({
          name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          inputSchema: structuredClone(tool.inputSchema),
          ...aiSdkMetadataField({ providerOptions: options(tool.providerOptions) }),
        }));

  const conversation: Conversation = {
    ...(system.length === 0 ? {} : { system }),
    ...(tools === undefined ? {} : { tools }),
    history,
  };
  // Validates the result against the canonical model and returns a frozen copy that shares nothing with the input.
  return { conversation: parseConversation(conversation), warnings };
}
