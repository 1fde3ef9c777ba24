import {
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
  type ProviderMetadata,
  type Speaker,
  type TextBlock,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '@ctx/core';
import { createEntryMetadata } from './entry-metadata.js';
import { renderFencedAction, splitFencedAction, textActionToolName, type FenceStyle } from './fenced-action-blocks.js';
import { findSweAgentAction } from './find-fenced-actions.js';
import { buildPairValidHistory, type DraftHistory } from './pair-valid-history.js';
import { parseNativeInput } from './parse-native-input.js';
import { detachRecord, fillHoles, punchHoles, type JsonPath } from './record-skeleton.js';
import { renderObservation, renderText, renderToolResult } from './render-text.js';
import { sweAgentTrajectorySchema, type SweAgentMessage, type SweAgentTrajectory } from './swe-agent-trajectory.js';
import { decodeToolArguments, encodeToolArguments } from './tool-arguments.js';
import type { TrajectoryFormat } from './trajectory-format.js';
import { createUniqueCallIds } from '@ctx/format-utils';
import {
  nativeMetadata,
  readConversationSkeleton,
  readDerivedFields,
  readNativeSkeleton,
  readTrajectoryMetadata,
  trajectoryKey,
  type TrajectoryEntryKind,
} from './trajectory-metadata.js';

const format: TrajectoryFormat = 'swe-agent';
const fence: FenceStyle = { opening: '```\n', closing: '\n```' };
const argumentsPath: JsonPath = ['function', 'arguments'];

/** A native tool call as the schema checked it. */
interface SweAgentToolCall extends JsonObject {
  readonly id: string;
  readonly function: { readonly name: string; readonly arguments: string };
}

function toolCallsOf(message: SweAgentMessage): readonly SweAgentToolCall[] {
  return Array.isArray(message.tool_calls) ? (message.tool_calls as readonly SweAgentToolCall[]) : [];
}

function answeredIdsOf(message: SweAgentMessage): { readonly field: string; readonly ids: readonly string[] } | undefined {
  if (Array.isArray(message.tool_call_ids)) {
    return { field: 'tool_call_ids', ids: message.tool_call_ids as readonly string[] };
  }
  if (typeof message.tool_call_id === 'string') return { field: 'tool_call_id', ids: [message.tool_call_id] };
  return undefined;
}

function textBlocks(content: string | null): ContentBlock[] {
  return content === null || content === '' ? [] : [{ type: 'text', text: content }];
}

function entryFor(
  speaker: Speaker,
  blocks: ContentBlock[],
  message: SweAgentMessage,
  derived: readonly string[],
  kind?: TrajectoryEntryKind,
): HistoryEntry {
  const native = punchHoles(message, derived.map((field) => [field]));
  const providerMetadata = nativeMetadata(native, { derived, ...(kind === undefined ? {} : { kind }) });
  return { speaker, blocks, metadata: createEntryMetadata({ providerMetadata }) };
}

function contentField(message: SweAgentMessage): string[] {
  return typeof message.content === 'string' ? ['content'] : [];
}

/** Every call id the function-calling messages record. */
function recordedCallIds(history: readonly SweAgentMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of history) for (const call of toolCallsOf(message)) ids.add(call.id);
  return ids;
}

function decodeMessages(
  history: readonly SweAgentMessage[],
  first: number,
  demoted: ReadonlySet<string>,
  recordedIds: ReadonlySet<string>,
): DraftHistory {
  const entries: HistoryEntry[] = [];
  const warnings: FormatWarning[] = [];
  const callNames = new Map<string, string>();
  // A replayed run may record a call with the id of an earlier one: the history gets a renamed copy (the call's
  // skeleton keeps the recorded id, and encoding writes it back).
  const ids = createUniqueCallIds(recordedIds);
  const firstUse = new Map<string, string>();
  // The call the previous message made in text mode: this message is then its observation.
  let openTextCall: string | undefined;
  for (let index = first; index < history.length; index += 1) {
    const message = history[index] as SweAgentMessage;
    const path = `history[${index}]`;
    const textCall = openTextCall;
    openTextCall = undefined;
    const { content } = message;

    if (message.role === 'assistant') {
      const calls = toolCallsOf(message);
      if (calls.length > 0) {
        const renames: FormatWarning[] = [];
        const callIds = calls.map((call, position) => {
          const id = ids.callId(call.id);
          const earlier = firstUse.get(call.id);
          if (earlier === undefined) firstUse.set(call.id, `${path}.tool_calls[${position}]`);
          else {
            renames.push({
              type: 'other',
              path: `${path}.tool_calls[${position}].id`,
              message: `Tool call id "${call.id}" is also the id of an earlier call (${earlier}); this call is "${id}" in the history so each call has its own id (encoding it as SWE-agent writes "${call.id}" back)`,
            });
          }
          return id;
        });
        if (callIds.some((id) => demoted.has(id))) {
          warnings.push({
            type: 'other',
            path,
            message: 'A tool call of this message has no tool message answering it; kept as text (tool_calls untouched in providerMetadata) so the history stays pair-valid',
          });
          entries.push(entryFor('ai', textBlocks(content), message, contentField(message), 'unanswered-action'));
          continue;
        }
        // Only calls that stay calls are renamed in the history.
        warnings.push(...renames);
        const blocks = textBlocks(content);
        for (const [position, call] of calls.entries()) {
          const decoded = decodeToolArguments(call.function.arguments);
          const id = callIds[position] as string;
          callNames.set(id, call.function.name);
          blocks.push({
            type: 'tool_call',
            id,
            name: call.function.name,
            parameters: decoded.parameters,
            providerMetadata: nativeMetadata(punchHoles(call, [argumentsPath]), { extra: decoded.layout }),
          });
        }
        const derived = [...contentField(message), 'tool_calls'];
        if (typeof content === 'string' && message.thought === content) derived.push('thought');
        entries.push(entryFor('ai', blocks, message, derived));
        continue;
      }
      const action = typeof content === 'string' ? findSweAgentAction(content) : undefined;
      const id = `action-${index}`;
      if (typeof content === 'string' && action !== undefined && history[index + 1]?.role === 'user' && !demoted.has(id)) {
        if (action.blockCount > 1) {
          warnings.push({
            type: 'other',
            path,
            message: `Found ${action.blockCount} code blocks: SWE-agent runs the last one, so that one is the tool call and the others stay in the text`,
          });
        }
        const derived = ['content'];
        if (message.thought === action.thought) derived.push('thought');
        if (message.action === action.action) derived.push('action');
        entries.push(entryFor('ai', splitFencedAction(content, action.span, id), message, derived));
        openTextCall = id;
        continue;
      }
      if (action !== undefined) {
        warnings.push({
          type: 'other',
          path,
          message: 'The action has no observation (no user message follows it, e.g. the final submit); kept as text so the history stays pair-valid',
        });
      }
      const kind = action === undefined ? undefined : 'unanswered-action';
      entries.push(entryFor('ai', textBlocks(content), message, contentField(message), kind));
    } else if (message.role === 'tool') {
      const recorded = answeredIdsOf(message);
      const answered =
        recorded === undefined ? undefined : { field: recorded.field, ids: recorded.ids.map((id) => ids.answeredId(id)) };
      if (answered === undefined || answered.ids.length === 0 || answered.ids.some((id) => demoted.has(id))) {
        warnings.push({
          type: 'other',
          path,
          message: 'This tool message answers no tool call of the assistant message before it; kept as text',
        });
        entries.push(entryFor('human', textBlocks(content), message, contentField(message), 'event'));
        continue;
      }
      // One message answering several calls is unusual: the first call gets the output, the others point to it.
      const blocks: ContentBlock[] = answered.ids.map((callId, position) => ({
        type: 'tool_response',
        callId,
        toolName: callNames.get(callId) ?? '',
        result: position === 0 ? (content ?? '') : '',
        ...(position === 0 ? {} : { providerMetadata: { [trajectoryKey]: { sharedMessage: true } } }),
      }));
      entries.push(entryFor('tool', blocks, message, [...contentField(message), answered.field]));
    } else if (message.role === 'user' && textCall !== undefined) {
      const block: ContentBlock = {
        type: 'tool_response',
        callId: textCall,
        toolName: textActionToolName,
        result: content ?? '',
      };
      entries.push(entryFor('tool', [block], message, contentField(message)));
    } else {
      entries.push(entryFor('human', textBlocks(content), message, contentField(message)));
    }
  }
  return { history: entries, warnings };
}

function decodeSweAgent(input: unknown): DecodeResult {
  const trajectory = parseNativeInput(sweAgentTrajectorySchema, input, format) as SweAgentTrajectory;
  const { history } = trajectory;
  let systemCount = 0;
  while (history[systemCount]?.role === 'system' && typeof history[systemCount]?.content === 'string') systemCount += 1;
  const system: TextBlock[] = history.slice(0, systemCount).map((message) => ({
    type: 'text',
    text: message.content ?? '',
    providerMetadata: nativeMetadata(punchHoles(message, [['content']])),
  }));
  const recordedIds = recordedCallIds(history);
  const draft = buildPairValidHistory((demoted) => decodeMessages(history, systemCount, demoted, recordedIds));
  const conversation = parseConversation({
    ...(system.length > 0 ? { system } : {}),
    history: draft.history,
    providerMetadata: { [trajectoryKey]: { format, native: punchHoles(trajectory, [['history']]) } },
  });
  return { conversation, warnings: draft.warnings };
}

function encodeToolCall(call: ToolCallBlock, own: boolean): JsonObject {
  const layout = own ? readTrajectoryMetadata(call.providerMetadata) : undefined;
  const native = own ? readNativeSkeleton(call.providerMetadata) : undefined;
  const encodedArguments = encodeToolArguments(call.parameters, layout);
  if (native !== undefined) return fillHoles(native, [[argumentsPath, encodedArguments]]);
  return { id: call.id, type: 'function', function: { name: call.name, arguments: encodedArguments } };
}

interface EncodeState {
  readonly own: boolean;
  readonly warnings: FormatWarning[];
  readonly messages: JsonObject[];
  /** The recorded id of each call the decoder renamed (its skeleton's `id`), by the id the history uses. */
  readonly recordedIds: ReadonlyMap<string, string>;
}

/**
 * The recorded ids of renamed calls: a call encoded from its skeleton is written with the id the file recorded, so
 * the responses answering it are written with that id too.
 */
function recordedIdsOf(conversation: Conversation, own: boolean): ReadonlyMap<string, string> {
  const recorded = new Map<string, string>();
  if (!own) return recorded;
  for (const entry of conversation.history) {
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call') continue;
      const id = readNativeSkeleton(block.providerMetadata)?.id;
      if (typeof id === 'string' && id !== block.id) recorded.set(block.id, id);
    }
  }
  return recorded;
}

function encodeAssistant(entry: HistoryEntry, path: string, state: EncodeState): void {
  const native = state.own ? readNativeSkeleton(entry.metadata?.providerMetadata) : undefined;
  const derived = readDerivedFields(entry.metadata?.providerMetadata);
  const calls = entry.blocks.filter((block): block is ToolCallBlock => block.type === 'tool_call');
  const fills: [JsonPath, JsonValue][] = [];
  if (native !== undefined && calls.length > 0 && !derived.has('tool_calls')) {
    // Text mode: the calls are fenced blocks in the message; SWE-agent's parser gives `thought` and `action` back.
    const rendered = renderFencedAction(entry.blocks, fence, path);
    state.warnings.push(...rendered.warnings);
    const parsed = findSweAgentAction(rendered.content);
    fills.push([['content'], rendered.content]);
    if (derived.has('thought')) fills.push([['thought'], parsed?.thought ?? rendered.content]);
    if (derived.has('action')) fills.push([['action'], parsed?.action ?? '']);
    state.messages.push(fillHoles(native, fills));
    return;
  }
  const content = renderText(entry.blocks, path, state.warnings, { allow: ['tool_call'] });
  const toolCalls = calls.map((call) => encodeToolCall(call, state.own));
  if (native === undefined) {
    state.messages.push({ role: 'assistant', content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
    return;
  }
  if (derived.has('content') || content !== '') fills.push([['content'], content]);
  if (derived.has('thought')) fills.push([['thought'], content]);
  if (derived.has('tool_calls') || toolCalls.length > 0) fills.push([['tool_calls'], toolCalls]);
  state.messages.push(fillHoles(native, fills));
}

function encodeTool(entry: HistoryEntry, path: string, state: EncodeState): void {
  const native = state.own ? readNativeSkeleton(entry.metadata?.providerMetadata) : undefined;
  const derived = readDerivedFields(entry.metadata?.providerMetadata);
  const responses = entry.blocks.filter((block): block is ToolResponseBlock => block.type === 'tool_response');
  const idField = ['tool_call_ids', 'tool_call_id'].find((field) => derived.has(field));
  if (native !== undefined && idField !== undefined) {
    // Responses sharing the first one's message carry no output of their own.
    const ownOutput = entry.blocks.filter(
      (block) => block.type !== 'tool_response' || readTrajectoryMetadata(block.providerMetadata)?.sharedMessage !== true,
    );
    const content = renderObservation(ownOutput, path, state.warnings);
    const ids = responses.map((response) => state.recordedIds.get(response.callId) ?? response.callId);
    const fills: [JsonPath, JsonValue][] = [[[idField], idField === 'tool_call_id' ? (ids[0] ?? '') : ids]];
    if (derived.has('content') || content !== '') fills.push([['content'], content]);
    state.messages.push(fillHoles(native, fills));
    return;
  }
  if (native !== undefined) {
    // A text-mode observation: a user message holding the command output.
    state.messages.push(fillHoles(native, [[['content'], renderObservation(entry.blocks, path, state.warnings)]]));
    return;
  }
  for (const response of responses) {
    const callId = state.recordedIds.get(response.callId) ?? response.callId;
    state.messages.push({ role: 'tool', content: renderToolResult(response.result), tool_call_ids: [callId] });
  }
  const text = renderText(entry.blocks, path, state.warnings, { allow: ['tool_response'] });
  if (text !== '') state.messages.push({ role: 'user', content: text });
}

function encodeSweAgent(conversation: Conversation): EncodeResult<SweAgentTrajectory> {
  const skeleton = readConversationSkeleton(conversation, format);
  const own = skeleton !== undefined;
  const state: EncodeState = { own, warnings: [], messages: [], recordedIds: recordedIdsOf(conversation, own) };
  const nativeOf = (providerMetadata: ProviderMetadata | undefined) =>
    state.own ? readNativeSkeleton(providerMetadata) : undefined;

  for (const block of conversation.system ?? []) {
    const native = nativeOf(block.providerMetadata);
    state.messages.push(
      native === undefined ? { role: 'system', content: block.text } : fillHoles(native, [[['content'], block.text]]),
    );
  }
  conversation.history.forEach((entry, index) => {
    const path = `history[${index}]`;
    if (entry.speaker === 'ai') {
      encodeAssistant(entry, path, state);
    } else if (entry.speaker === 'tool') {
      encodeTool(entry, path, state);
    } else {
      const native = nativeOf(entry.metadata?.providerMetadata);
      const derived = readDerivedFields(entry.metadata?.providerMetadata);
      const content = renderText(entry.blocks, path, state.warnings);
      if (native === undefined) state.messages.push({ role: 'user', content });
      else if (derived.has('content') || content !== '') state.messages.push(fillHoles(native, [[['content'], content]]));
      else state.messages.push(native);
    }
  });
  const file = fillHoles(skeleton ?? { history: null }, [[['history'], state.messages]]);
  return { value: detachRecord(file) as SweAgentTrajectory, warnings: state.warnings };
}

/**
 * Creates the codec for SWE-agent trajectories (`*.traj`), text mode and function calling.
 *
 * Decoding: leading `system` messages become `conversation.system`. Function calling: an assistant message's
 * `tool_calls` become `tool_call` blocks (names and parsed arguments as recorded: `bash`, `str_replace_editor`,
 * `open`, `submit`, …) and each `role: 'tool'` message a `tool` entry answering its `tool_call_ids`; a call that
 * repeats an earlier call's id (a replayed run) gets `<id>_2`, `<id>_3`, … in the history, is warned, and is written
 * back with its recorded id. Text mode: the
 * block SWE-agent's parser runs (the last top-level code block; several are warned) becomes a `bash` call with id
 * `action-<message index>` and the next `user` message its `tool_response`; an action nothing answers (the final
 * `submit`) stays text and is warned. The demonstration, task and other messages stay text. `thought`, `action` and
 * every other key are kept or re-derived, so encoding gives back the original value exactly.
 *
 * @returns The codec; `format` is `swe-agent`.
 * @throws `InvalidFormatError` (from `decode`) when the input has no `history` array of
 *   `{ role, content: string | null }` (list-of-parts content is not read).
 * @example
 * ```ts
 * const codec = createSweAgentCodec();
 * const { conversation } = codec.decode(JSON.parse(readFileSync('marshmallow-1867.traj', 'utf8')));
 * ```
 */
export function createSweAgentCodec(): ConversationCodec<SweAgentTrajectory> {
  return { specificationVersion: 'v1', format, decode: decodeSweAgent, encode: encodeSweAgent };
}
