import {
  InvalidFormatError,
  parseConversation,
  type ContentBlock,
  type Conversation,
  type DecodeResult,
  type FormatWarning,
  type HistoryEntry,
  type JsonValue,
  type TextBlock,
  type ToolDefinition,
  type ValidationIssue,
} from '@ctx/core';
import { createUniqueCallIds } from '@ctx/format-utils';
import { FunctionCallTurn } from './function-call-turn.js';
import { geminiMetadataField } from './gemini-provider-metadata.js';
import {
  GEMINI_CONTENT_FORMAT,
  geminiPartDataFields,
  type GeminiContent,
  type GeminiFunctionDeclaration,
  type GeminiPart,
  type GeminiRequest,
  type GeminiTool,
} from './gemini-request.js';

type JsonRecord = Record<string, JsonValue>;

/** The kind of the last entry made, which decides how the encoder will group the next one. */
type EntryKind = 'model' | 'tool' | 'human';

const dataFields: ReadonlySet<string> = new Set(geminiPartDataFields);

/** The keys of a part beyond its data field and the ones the canonical block already holds. */
function partExtras(part: GeminiPart, consumed: readonly string[] = []): JsonRecord | undefined {
  let extras: JsonRecord | undefined;
  for (const [key, value] of Object.entries(part) as [string, JsonValue | undefined][]) {
    if (value === undefined || dataFields.has(key) || consumed.includes(key)) continue;
    extras ??= {};
    extras[key] = value;
  }
  return extras;
}

/** The fields of an object other than `known`, or undefined when there are none. */
function otherFields(value: object, known: readonly string[]): JsonRecord | undefined {
  let extras: JsonRecord | undefined;
  for (const [key, field] of Object.entries(value) as [string, JsonValue | undefined][]) {
    if (field === undefined || known.includes(key)) continue;
    extras ??= {};
    extras[key] = field;
  }
  return extras;
}

function entryMetadata(fields: Readonly<Record<string, JsonValue | undefined>>): Pick<HistoryEntry, 'metadata'> {
  const field = geminiMetadataField(fields);
  return field.providerMetadata === undefined ? {} : { metadata: { providerMetadata: field.providerMetadata } };
}

/** Every id a call or response of the request gives itself. */
function explicitIds(contents: readonly GeminiContent[]): Set<string> {
  const used = new Set<string>();
  for (const content of contents) {
    for (const part of content.parts) {
      if (part.functionCall?.id !== undefined) used.add(part.functionCall.id);
      if (part.functionResponse?.id !== undefined) used.add(part.functionResponse.id);
    }
  }
  return used;
}

/** Generates call ids that no explicit id in the request (`used`, which it extends) already uses. */
function createIdGenerator(used: Set<string>): (prefix: string, contentIndex: number, partIndex: number) => string {
  return (prefix, contentIndex, partIndex) => {
    const base = `gemini-${prefix}-${contentIndex}-${partIndex}`;
    let candidate = base;
    for (let suffix = 1; used.has(candidate); suffix += 1) candidate = `${base}-${suffix}`;
    used.add(candidate);
    return candidate;
  };
}

function decodeTextPart(part: GeminiPart & { readonly text: string }, options: { readonly asThinking: boolean }): ContentBlock {
  if (options.asThinking && part.thought === true) {
    return {
      type: 'thinking',
      thought: part.text,
      ...(part.thoughtSignature === undefined ? {} : { signature: part.thoughtSignature }),
      // An empty `gemini` record still says "this signature is Gemini's", so the encoder may send it back.
      ...geminiMetadataField(
        { part: partExtras(part, ['thought', 'thoughtSignature']) },
        { keepEmpty: part.thoughtSignature !== undefined },
      ),
    };
  }
  return { type: 'text', text: part.text, ...geminiMetadataField({ part: partExtras(part) }) };
}

function decodeMediaPart(part: GeminiPart): ContentBlock | undefined {
  if (part.inlineData !== undefined) {
    const { mimeType, data, displayName } = part.inlineData;
    return {
      type: 'media',
      mediaType: mimeType,
      data,
      ...(displayName === undefined ? {} : { filename: displayName }),
      ...geminiMetadataField({ part: partExtras(part), displayName }),
    };
  }
  if (part.fileData !== undefined) {
    const { mimeType, fileUri, displayName } = part.fileData;
    return {
      type: 'media',
      // The canonical block needs a media type; the API infers it when omitted, so remember that it was.
      mediaType: mimeType ?? 'application/octet-stream',
      url: fileUri,
      ...(displayName === undefined ? {} : { filename: displayName }),
      ...geminiMetadataField({
        part: partExtras(part),
        displayName,
        mimeTypeOmitted: mimeType === undefined ? true : undefined,
      }),
    };
  }
  return undefined;
}

/** Code execution parts have no canonical block: they travel as text holding the code or output, kept opaque. */
function decodeOpaquePart(part: GeminiPart, path: string, warnings: FormatWarning[]): ContentBlock {
  const text = part.executableCode?.code ?? part.codeExecutionResult?.output ?? '';
  const kind = part.executableCode === undefined ? 'codeExecutionResult' : 'executableCode';
  warnings.push({
    type: 'unsupported',
    message: `${kind} has no canonical block: kept opaque (as text for other formats, verbatim for Gemini)`,
    path,
  });
  return { type: 'text', text, ...geminiMetadataField({ opaquePart: structuredClone(part) as JsonRecord }) };
}

function decodeFunctionResponse(
  part: GeminiPart & { readonly functionResponse: NonNullable<GeminiPart['functionResponse']> },
  context: {
    readonly turn: FunctionCallTurn | undefined;
    readonly path: string;
    readonly generateId: () => string;
    readonly warnings: FormatWarning[];
  },
): ContentBlock {
  const { id, name, response } = part.functionResponse;
  const call = context.turn?.answer({ ...(id === undefined ? {} : { id }), name });
  if (call === undefined) {
    context.warnings.push({
      type: 'other',
      message: `functionResponse ${name} answers no functionCall of the model turn right before it`,
      path: context.path,
    });
  }
  const callId = call?.callId ?? id ?? context.generateId();
  const keys = Object.keys(response);
  // By API convention `{ output }` is a success and `{ error }` a failure; anything else is the output as a whole.
  const shape = keys.length === 1 && keys[0] === 'output' ? 'output' : keys.length === 1 && keys[0] === 'error' ? 'error' : 'raw';
  const result: JsonValue = shape === 'output' ? (response.output as JsonValue) : shape === 'error' ? (response.error as JsonValue) : response;
  return {
    type: 'tool_response',
    callId,
    toolName: name,
    result,
    ...(shape === 'error' ? { isError: true } : {}),
    ...geminiMetadataField({
      part: partExtras(part),
      functionResponse: otherFields(part.functionResponse, ['id', 'name', 'response']),
      idOmitted: id === undefined ? true : undefined,
      responseId: id !== undefined && id !== callId ? id : undefined,
      responseShape: shape === 'raw' ? 'raw' : undefined,
    }),
  };
}

function decodeSystemInstruction(
  systemInstruction: NonNullable<GeminiRequest['systemInstruction']>,
  issues: ValidationIssue[],
): TextBlock[] {
  const blocks: TextBlock[] = [];
  systemInstruction.parts.forEach((part, partIndex) => {
    if (part.text === undefined) {
      issues.push({
        path: `systemInstruction.parts[${partIndex}]`,
        message: 'Expected a text part: ctx keeps system instructions as text',
      });
      return;
    }
    blocks.push({ type: 'text', text: part.text, ...geminiMetadataField({ part: partExtras(part) }) });
  });
  return blocks;
}

function decodeFunctionDeclaration(declaration: GeminiFunctionDeclaration): ToolDefinition {
  const { name, description, parameters, parametersJsonSchema } = declaration;
  const usesParameters = parametersJsonSchema === undefined && parameters !== undefined;
  const inputSchema = parametersJsonSchema ?? parameters;
  const extras = otherFields(declaration, usesParameters ? ['name', 'description', 'parameters'] : ['name', 'description', 'parametersJsonSchema']);
  return {
    name,
    ...(description === undefined ? {} : { description }),
    ...(inputSchema === undefined ? {} : { inputSchema }),
    ...geminiMetadataField({ declaration: extras, schemaField: usesParameters ? 'parameters' : undefined }),
  };
}

/** Whether `tools` has the shape the encoder writes by default: one entry holding every declaration. */
function isDefaultToolLayout(tools: readonly GeminiTool[]): boolean {
  if (tools.length !== 1) return false;
  const [tool] = tools as [GeminiTool];
  return Object.keys(tool).length === 1 && (tool.functionDeclarations?.length ?? 0) > 0;
}

function decodeTools(tools: readonly GeminiTool[]): { definitions: ToolDefinition[]; layout: JsonValue | undefined } {
  const definitions = tools.flatMap((tool) => (tool.functionDeclarations ?? []).map(decodeFunctionDeclaration));
  if (isDefaultToolLayout(tools)) return { definitions, layout: undefined };
  // Built-in tools and the grouping of declarations, with each declaration list replaced by its length.
  const layout = tools.map((tool) => {
    const { functionDeclarations, ...builtIn } = tool;
    return {
      ...(structuredClone(builtIn) as JsonRecord),
      ...(functionDeclarations === undefined ? {} : { functionDeclarations: functionDeclarations.length }),
    };
  });
  return { definitions, layout };
}

/**
 * Turns a structurally valid Gemini request into a canonical conversation (see the codec for the mapping).
 *
 * @throws `InvalidFormatError` for constructs the structure allows but the format does not: a `functionCall` in a
 *   user content, a `functionResponse` in a model content, a non-text system instruction part.
 */
export function decodeGeminiRequest(request: GeminiRequest): DecodeResult {
  const warnings: FormatWarning[] = [];
  const issues: ValidationIssue[] = [];
  const used = explicitIds(request.contents);
  // A provider may reuse a call's id in a later turn; the history holds a renamed copy (`<id>_2`) that takes no id
  // the request uses, and the call's own id is kept for the encoder (`recordedId`). Responses pair within a turn.
  const callIds = createUniqueCallIds(used);
  const generateId = createIdGenerator(used);
  const history: HistoryEntry[] = [];
  let lastKind: EntryKind | undefined;
  let turn: FunctionCallTurn | undefined;

  request.contents.forEach((content, contentIndex) => {
    const contentPath = `contents[${contentIndex}]`;
    if (content.role === 'model') {
      if (lastKind !== 'model') turn = new FunctionCallTurn();
      const blocks: ContentBlock[] = [];
      content.parts.forEach((part, partIndex) => {
        const path = `${contentPath}.parts[${partIndex}]`;
        if (part.text !== undefined) blocks.push(decodeTextPart({ ...part, text: part.text }, { asThinking: true }));
        else if (part.functionCall !== undefined) {
          const { id, name, args } = part.functionCall;
          const callId = id === undefined ? generateId('call', contentIndex, partIndex) : callIds.callId(id);
          turn?.add({ callId, recordedId: id, name, path });
          blocks.push({
            type: 'tool_call',
            id: callId,
            name,
            parameters: args ?? {},
            ...geminiMetadataField({
              part: partExtras(part),
              idOmitted: id === undefined ? true : undefined,
              recordedId: id !== undefined && id !== callId ? id : undefined,
              argsOmitted: args === undefined ? true : undefined,
            }),
          });
        } else if (part.functionResponse !== undefined) {
          issues.push({ path, message: 'Expected functionResponse parts only in user contents, found one in a model content' });
        } else blocks.push(decodeMediaPart(part) ?? decodeOpaquePart(part, path, warnings));
      });
      history.push({ speaker: 'ai', blocks, ...entryMetadata({ startsContent: lastKind === 'model' ? true : undefined }) });
      lastKind = 'model';
      return;
    }

    const turnIsOpen = lastKind === 'model' || lastKind === 'tool';
    const responses: ContentBlock[] = [];
    const others: ContentBlock[] = [];
    let order = '';
    content.parts.forEach((part, partIndex) => {
      const path = `${contentPath}.parts[${partIndex}]`;
      if (part.functionResponse !== undefined) {
        order += 't';
        responses.push(
          decodeFunctionResponse(
            { ...part, functionResponse: part.functionResponse },
            {
              turn: turnIsOpen ? turn : undefined,
              path,
              generateId: () => generateId('response', contentIndex, partIndex),
              warnings,
            },
          ),
        );
        return;
      }
      order += 'h';
      if (part.functionCall !== undefined) {
        issues.push({ path, message: 'Expected functionCall parts only in model contents, found one in a user content' });
      } else if (part.text !== undefined) others.push(decodeTextPart({ ...part, text: part.text }, { asThinking: false }));
      else others.push(decodeMediaPart(part) ?? decodeOpaquePart(part, path, warnings));
    });
    const roleOmitted = content.role === undefined ? true : undefined;
    if (responses.length === 0) {
      history.push({ speaker: 'human', blocks: others, ...entryMetadata({ roleOmitted }) });
      lastKind = 'human';
      return;
    }
    // Responses first, so the tool entry follows its calls (the canonical pairing rule); the part order is kept
    // for the encoder when it was not already responses-then-the-rest.
    const ordered = 't'.repeat(responses.length) + 'h'.repeat(order.length - responses.length);
    history.push({
      speaker: 'tool',
      blocks: responses,
      ...entryMetadata({
        startsContent: lastKind === 'tool' ? true : undefined,
        roleOmitted,
        partOrder: order === ordered ? undefined : order,
      }),
    });
    lastKind = 'tool';
    if (others.length > 0) {
      history.push({ speaker: 'human', blocks: others, ...entryMetadata({ sameContent: true }) });
      lastKind = 'human';
    }
  });

  const system =
    request.systemInstruction === undefined ? undefined : decodeSystemInstruction(request.systemInstruction, issues);
  if (issues.length > 0) throw new InvalidFormatError({ format: GEMINI_CONTENT_FORMAT, issues });

  const { definitions, layout } = request.tools === undefined ? { definitions: undefined, layout: undefined } : decodeTools(request.tools);
  const { systemInstruction: _system, contents: _contents, tools: _tools, ...settings } = request;
  const conversationFields = geminiMetadataField({
    request: Object.keys(settings).length === 0 ? undefined : (structuredClone(settings)),
    systemInstructionRole: request.systemInstruction?.role,
    emptySystemInstruction: system !== undefined && system.length === 0 ? true : undefined,
    toolLayout: layout,
  });
  const conversation: Conversation = {
    ...(system === undefined || system.length === 0 ? {} : { system }),
    ...(definitions === undefined ? {} : { tools: definitions }),
    history,
    ...conversationFields,
  };
  // Validates the result against the canonical model and returns a frozen copy that shares nothing with the input.
  return { conversation: parseConversation(conversation), warnings };
}
