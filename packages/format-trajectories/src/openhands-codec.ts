import {
  isJsonObject,
  parseConversation,
  type ContentBlock,
  type Conversation,
  type ConversationCodec,
  type DecodeResult,
  type EncodeResult,
  type FormatWarning,
  type HistoryEntry,
  type JsonObject,
  type JsonValue,
  type Speaker,
  type TextBlock,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '@ctx/core';
import { createEntryMetadata } from './entry-metadata.js';
import { openHandsSessionSchema, type OpenHandsEvent, type OpenHandsSession } from './openhands-session.js';
import { readOpenAiUsage } from './openai-usage.js';
import { buildPairValidHistory, type DraftHistory } from './pair-valid-history.js';
import { parseNativeInput } from './parse-native-input.js';
import { detachRecord, fillHoles, punchHoles, readPath, type JsonPath } from './record-skeleton.js';
import { renderText, renderToolResult } from './render-text.js';
import { decodeToolArguments, encodeToolArguments } from './tool-arguments.js';
import type { TrajectoryFormat } from './trajectory-format.js';
import {
  nativeMetadata,
  readConversationSkeleton,
  readDerivedFields,
  readNativeSkeleton,
  readTrajectoryMetadata,
  trajectoryKey,
  type TrajectoryEntryKind,
} from './trajectory-metadata.js';

const format: TrajectoryFormat = 'openhands';
const responseMessagePath: JsonPath = ['tool_call_metadata', 'model_response', 'choices', 0, 'message'];

/**
 * Event fields an entry's blocks carry, by the name stored in `providerMetadata.trajectory.derived`: `content` is an
 * observation's output, the others hold the entry's text. (`arguments` is also derived, but found by call id.)
 */
const fieldPaths = {
  content: ['content'],
  message: ['message'],
  argsContent: ['args', 'content'],
  thought: ['args', 'thought'],
  responseContent: [...responseMessagePath, 'content'],
} as const satisfies Readonly<Record<string, JsonPath>>;

function fieldPathOf(name: string): JsonPath | undefined {
  return Object.hasOwn(fieldPaths, name) ? fieldPaths[name as keyof typeof fieldPaths] : undefined;
}

interface ToolCallMetadata {
  readonly functionName: string;
  readonly toolCallId: string;
}

/** The event's `action` or `observation` name. */
function typeNameOf(event: OpenHandsEvent): string {
  const name = event.action ?? event.observation;
  return typeof name === 'string' ? name : '';
}

function toolCallMetadataOf(event: OpenHandsEvent): ToolCallMetadata | undefined {
  const metadata = event.tool_call_metadata;
  if (!isJsonObject(metadata) || typeof metadata.tool_call_id !== 'string' || typeof metadata.function_name !== 'string') {
    return undefined;
  }
  return { functionName: metadata.function_name, toolCallId: metadata.tool_call_id };
}

/**
 * Where the recorded arguments string of call `callId` sits in the event's model response, if it is there. Also
 * finds it in a skeleton, where the string has been replaced by `null`.
 */
function argumentsPathOf(event: JsonObject, callId: string): JsonPath | undefined {
  const calls = readPath(event, [...responseMessagePath, 'tool_calls']);
  if (!Array.isArray(calls)) return undefined;
  const index = (calls as readonly JsonValue[]).findIndex((call) => readPath(call, ['id']) === callId);
  const path: JsonPath = [...responseMessagePath, 'tool_calls', index, 'function', 'arguments'];
  const recorded = index >= 0 ? readPath(event, path) : undefined;
  return typeof recorded === 'string' || recorded === null ? path : undefined;
}

function textBlocks(text: JsonValue | undefined): ContentBlock[] {
  return typeof text === 'string' && text !== '' ? [{ type: 'text', text }] : [];
}

function entryFor(
  speaker: Speaker,
  blocks: ContentBlock[],
  event: OpenHandsEvent,
  derived: readonly string[],
  options: {
    readonly kind?: TrajectoryEntryKind;
    readonly carriesResponse?: boolean;
    /** Holes found by search rather than by name (the arguments of one call in the model response). */
    readonly extraHoles?: readonly JsonPath[];
  } = {},
): HistoryEntry {
  const paths = [...holesFor(derived), ...(options.extraHoles ?? [])];
  const response = options.carriesResponse === true ? readPath(event, ['tool_call_metadata', 'model_response']) : undefined;
  const model = readPath(response, ['model']);
  return {
    speaker,
    blocks,
    metadata: createEntryMetadata({
      id: typeof event.id === 'number' || typeof event.id === 'string' ? String(event.id) : undefined,
      timestamp: typeof event.timestamp === 'string' ? event.timestamp : undefined,
      model: typeof model === 'string' ? model : undefined,
      usage: readOpenAiUsage(readPath(response, ['usage'])),
      providerMetadata: nativeMetadata(punchHoles(event, paths), {
        derived,
        ...(options.kind === undefined ? {} : { kind: options.kind }),
      }),
    }),
  };
}

function holesFor(derived: readonly string[]): JsonPath[] {
  return derived.map(fieldPathOf).filter((path): path is JsonPath => path !== undefined);
}

/** `derived` names for the fields of `event` at `names` that hold exactly `text`. */
function fieldsHolding(event: OpenHandsEvent, text: string, names: readonly string[]): string[] {
  return names.filter((name) => {
    const path = fieldPathOf(name);
    return path !== undefined && readPath(event, path) === text;
  });
}

function decodeAction(
  event: OpenHandsEvent,
  path: string,
  carriesResponse: boolean,
  demoted: ReadonlySet<string>,
  warnings: FormatWarning[],
): HistoryEntry {
  const call = toolCallMetadataOf(event);
  if (call === undefined) {
    if (event.action === 'message') {
      const text = readPath(event, fieldPaths.argsContent);
      const derived = typeof text === 'string' ? fieldsHolding(event, text, ['argsContent', 'message']) : [];
      return entryFor(event.source === 'user' ? 'human' : 'ai', textBlocks(text), event, derived);
    }
    // Recall, state changes and the like: not chat messages. Their log line keeps them readable.
    const derived = typeof event.message === 'string' ? ['message'] : [];
    return entryFor(event.source === 'agent' ? 'ai' : 'human', textBlocks(event.message), event, derived, { kind: 'event' });
  }
  // The model's text comes once per response, with its first call; later calls of the same response repeat it.
  const responseContent = carriesResponse ? readPath(event, fieldPaths.responseContent) : undefined;
  const derived =
    typeof responseContent === 'string' ? fieldsHolding(event, responseContent, ['responseContent', 'thought']) : [];
  const blocks = textBlocks(responseContent);
  if (demoted.has(call.toolCallId)) {
    warnings.push({
      type: 'other',
      path,
      message: `The ${call.functionName} action (call ${call.toolCallId}) has no observation; kept as text (the call stays in providerMetadata) so the history stays pair-valid`,
    });
    return entryFor('ai', blocks, event, derived, { kind: 'unanswered-action', carriesResponse });
  }
  const argumentsPath = argumentsPathOf(event, call.toolCallId);
  const recorded = argumentsPath === undefined ? undefined : readPath(event, argumentsPath);
  const decoded = typeof recorded === 'string' ? decodeToolArguments(recorded) : undefined;
  const fallback = event.args ?? {};
  blocks.push({
    type: 'tool_call',
    id: call.toolCallId,
    name: call.functionName === '' ? typeNameOf(event) : call.functionName,
    parameters: decoded?.parameters ?? fallback,
    ...(decoded === undefined ? {} : { providerMetadata: { [trajectoryKey]: decoded.layout } }),
  });
  if (argumentsPath === undefined || decoded === undefined) {
    return entryFor('ai', blocks, event, derived, { carriesResponse });
  }
  return entryFor('ai', blocks, event, [...derived, 'arguments'], { carriesResponse, extraHoles: [argumentsPath] });
}

function decodeEvents(events: readonly OpenHandsEvent[], first: number, demoted: ReadonlySet<string>): DraftHistory {
  const history: HistoryEntry[] = [];
  const warnings: FormatWarning[] = [];
  const callIdByEventId = new Map<JsonValue, string>();
  const callNames = new Map<string, string>();
  const seenResponses = new Set<JsonValue>();
  for (let index = first; index < events.length; index += 1) {
    const event = events[index] as OpenHandsEvent;
    const path = `history[${index}]`;
    const call = toolCallMetadataOf(event);
    if (event.action !== undefined) {
      let carriesResponse = false;
      if (call !== undefined) {
        const responseId = readPath(event, ['tool_call_metadata', 'model_response', 'id']) ?? null;
        carriesResponse = responseId === null || !seenResponses.has(responseId);
        if (responseId !== null) seenResponses.add(responseId);
        if (event.id !== undefined) callIdByEventId.set(event.id, call.toolCallId);
        callNames.set(call.toolCallId, call.functionName === '' ? typeNameOf(event) : call.functionName);
      }
      history.push(decodeAction(event, path, carriesResponse, demoted, warnings));
      continue;
    }
    const content = event.content;
    const callId = call?.toolCallId ?? (event.cause === undefined ? undefined : callIdByEventId.get(event.cause));
    const derived = typeof content === 'string' ? fieldsHolding(event, content, ['content', 'message']) : [];
    if (callId === undefined || demoted.has(callId)) {
      if (callId !== undefined) {
        warnings.push({
          type: 'other',
          path,
          message: `This observation answers call ${callId}, which is not a call of the assistant turn before it; kept as text`,
        });
      }
      history.push(entryFor('human', textBlocks(content), event, derived, { kind: 'event' }));
      continue;
    }
    const block: ToolResponseBlock = {
      type: 'tool_response',
      callId,
      toolName: callNames.get(callId) ?? call?.functionName ?? typeNameOf(event),
      result: typeof content === 'string' ? content : '',
      // OpenHands records a failed tool call as an explicit `error` observation.
      ...(event.observation === 'error' ? { isError: true } : {}),
    };
    history.push(entryFor('tool', [block], event, derived));
  }
  return { history, warnings };
}

function decodeOpenHands(input: unknown): DecodeResult {
  const session = parseNativeInput(openHandsSessionSchema, input, format) as OpenHandsSession;
  const events = session.history;
  let systemCount = 0;
  const isSystem = (event: OpenHandsEvent | undefined) =>
    event?.action === 'system' && typeof readPath(event, fieldPaths.argsContent) === 'string';
  while (isSystem(events[systemCount])) systemCount += 1;
  const system: TextBlock[] = events.slice(0, systemCount).map((event) => {
    const text = readPath(event, fieldPaths.argsContent) as string;
    const derived = fieldsHolding(event, text, ['argsContent', 'message']);
    return {
      type: 'text',
      text,
      providerMetadata: nativeMetadata(punchHoles(event, holesFor(derived)), { derived }),
    };
  });
  const draft = buildPairValidHistory((demoted) => decodeEvents(events, systemCount, demoted));
  const conversation = parseConversation({
    ...(system.length > 0 ? { system } : {}),
    history: draft.history,
    providerMetadata: { [trajectoryKey]: { format, native: punchHoles(session, [['history']]) } },
  });
  return { conversation, warnings: draft.warnings };
}

/** Fills every derived field of a text entry with its text (`arguments` is filled separately). */
function textFills(derived: ReadonlySet<string>, text: string): [JsonPath, JsonValue][] {
  return holesFor([...derived]).map((path) => [path, text]);
}

interface EncodeState {
  readonly own: boolean;
  readonly warnings: FormatWarning[];
  readonly events: JsonObject[];
  genericActions: boolean;
}

function encodeCalls(entry: HistoryEntry, path: string, state: EncodeState): void {
  const native = state.own ? readNativeSkeleton(entry.metadata?.providerMetadata) : undefined;
  const derived = readDerivedFields(entry.metadata?.providerMetadata);
  const text = renderText(entry.blocks, path, state.warnings, { allow: ['tool_call'] });
  const calls = entry.blocks.filter((block): block is ToolCallBlock => block.type === 'tool_call');
  if (native !== undefined) {
    const fills = textFills(derived, text);
    const [call, ...others] = calls;
    const argumentsPath = call === undefined || !derived.has('arguments') ? undefined : argumentsPathOf(native, call.id);
    if (call !== undefined && argumentsPath !== undefined) {
      const layout = readTrajectoryMetadata(call.providerMetadata);
      fills.push([argumentsPath, encodeToolArguments(call.parameters, layout)]);
    }
    state.events.push(fillHoles(native, fills));
    others.forEach((other) => state.events.push(genericAction(other, '', state)));
    return;
  }
  if (calls.length === 0) {
    const source = entry.speaker === 'human' ? 'user' : 'agent';
    state.events.push({ source, message: text, action: 'message', args: { content: text } });
    return;
  }
  calls.forEach((call, index) => state.events.push(genericAction(call, index === 0 ? text : '', state)));
}

function genericAction(call: ToolCallBlock, text: string, state: EncodeState): JsonObject {
  if (!state.genericActions) {
    state.genericActions = true;
    state.warnings.push({
      type: 'lossy',
      message: 'OpenHands action types cannot be derived from tool calls: calls from elsewhere were written as generic actions named after the tool',
    });
  }
  return {
    source: 'agent',
    message: text,
    action: call.name,
    args: isJsonObject(call.parameters) ? call.parameters : { parameters: call.parameters },
    tool_call_metadata: { function_name: call.name, tool_call_id: call.id },
  };
}

function encodeObservations(entry: HistoryEntry, path: string, state: EncodeState): void {
  const native = state.own ? readNativeSkeleton(entry.metadata?.providerMetadata) : undefined;
  const derived = readDerivedFields(entry.metadata?.providerMetadata);
  const responses = entry.blocks.filter((block): block is ToolResponseBlock => block.type === 'tool_response');
  const text = renderText(entry.blocks, path, state.warnings, { allow: ['tool_response'] });
  if (native !== undefined) {
    const [response, ...others] = responses;
    const content = response === undefined ? text : renderToolResult(response.result);
    const fills: [JsonPath, JsonValue][] = [];
    if (derived.has('content')) fills.push([['content'], content]);
    if (derived.has('message')) fills.push([['message'], content]);
    state.events.push(fillHoles(native, fills));
    if (others.length > 0) {
      state.warnings.push({
        type: 'lossy',
        path,
        message: `Wrote only the first of ${responses.length} tool results: an OpenHands observation answers one action`,
      });
    }
    return;
  }
  for (const response of responses) {
    const content = renderToolResult(response.result);
    state.events.push({
      source: 'agent',
      message: content,
      observation: response.isError === true ? 'error' : response.toolName,
      content,
      tool_call_metadata: { function_name: response.toolName, tool_call_id: response.callId },
    });
  }
}

function encodeOpenHands(conversation: Conversation): EncodeResult<OpenHandsSession> {
  const skeleton = readConversationSkeleton(conversation, format);
  const state: EncodeState = { own: skeleton !== undefined, warnings: [], events: [], genericActions: false };
  for (const block of conversation.system ?? []) {
    const native = state.own ? readNativeSkeleton(block.providerMetadata) : undefined;
    state.events.push(
      native === undefined
        ? { source: 'agent', message: block.text, action: 'system', args: { content: block.text } }
        : fillHoles(native, textFills(readDerivedFields(block.providerMetadata), block.text)),
    );
  }
  conversation.history.forEach((entry, index) => {
    const path = `history[${index}]`;
    if (entry.speaker === 'tool') encodeObservations(entry, path, state);
    else encodeCalls(entry, path, state);
  });
  const session = fillHoles(skeleton ?? { history: null }, [[['history'], state.events]]);
  return { value: detachRecord(session) as OpenHandsSession, warnings: state.warnings };
}

/**
 * Creates the codec for one OpenHands session (one line of an evaluation `output.jsonl`; see
 * {@link decodeOpenHandsJsonl} for whole files).
 *
 * Decoding: leading `system` actions become `conversation.system`. Every event becomes one entry, in order. An action
 * with `tool_call_metadata` becomes an `ai` entry: the model's text (from the recorded model response, once per
 * response) and a `tool_call` named `function_name` (`execute_bash`, `str_replace_editor`, `think`, `finish`, …;
 * the action name when empty) with the recorded arguments as parameters. The observation answering it (by
 * `tool_call_id`, else by `cause`) becomes a `tool` entry; `observation: 'error'` sets `isError`. An action no
 * observation answers (`finish`) stays text and is warned. Messages become `human`/`ai` text; other events (recall,
 * errors outside a call) become text entries marked `kind: 'event'`. Every other key is kept, so encoding gives
 * back the original value exactly.
 *
 * @returns The codec; `format` is `openhands`.
 * @throws `InvalidFormatError` (from `decode`) when the input has no `history` array of events with exactly one of
 *   `action` and `observation`.
 * @example
 * ```ts
 * const codec = createOpenHandsCodec();
 * const { conversation } = codec.decode(JSON.parse(firstLineOfOutputJsonl));
 * ```
 */
export function createOpenHandsCodec(): ConversationCodec<OpenHandsSession> {
  return { specificationVersion: 'v1', format, decode: decodeOpenHands, encode: encodeOpenHands };
}
