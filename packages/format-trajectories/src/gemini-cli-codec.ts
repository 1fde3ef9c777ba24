import {
  isJsonObject,
  parseConversation,
  type ContentBlock,
  type Conversation,
  type ConversationCodec,
  type DecodeResult,
  type EncodeResult,
  type EntryUsage,
  type FormatWarning,
  type HistoryEntry,
  type JsonObject,
  type JsonValue,
  type ThinkingBlock,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '@ctx/core';
import { createEntryMetadata } from './entry-metadata.js';
import {
  geminiCliChatRecordingSchema,
  type GeminiCliChatRecording,
  type GeminiCliMessage,
} from './gemini-cli-recording.js';
import { buildPairValidHistory, type DraftHistory } from './pair-valid-history.js';
import { parseNativeInput } from './parse-native-input.js';
import { detachRecord, fillHoles, punchHoles, type JsonPath } from './record-skeleton.js';
import { renderText } from './render-text.js';
import type { TrajectoryFormat } from './trajectory-format.js';
import {
  nativeMetadata,
  readConversationSkeleton,
  readDerivedFields,
  readNativeSkeleton,
  trajectoryKey,
  type TrajectoryEntryKind,
} from './trajectory-metadata.js';

const format: TrajectoryFormat = 'gemini-cli';
const descriptionPath: JsonPath = ['description'];

/** A recorded tool call as the schema checked it. */
interface GeminiCliToolCall extends JsonObject {
  readonly id: string;
  readonly name: string;
}

function count(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** gemini-cli's `tokens { input, output, cached, thoughts, tool, total }` as entry usage. */
function usageOf(tokens: JsonValue | undefined): EntryUsage | undefined {
  if (!isJsonObject(tokens)) return undefined;
  const usage: { -readonly [Key in keyof EntryUsage]: EntryUsage[Key] } = {};
  const fields = [
    ['inputTokens', tokens.input],
    ['outputTokens', tokens.output],
    ['cacheReadTokens', tokens.cached],
    ['totalTokens', tokens.total],
  ] as const;
  for (const [key, value] of fields) {
    const tokenCount = count(value);
    if (tokenCount !== undefined) usage[key] = tokenCount;
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function textBlocks(text: string): ContentBlock[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

function entryFor(
  speaker: HistoryEntry['speaker'],
  blocks: ContentBlock[],
  message: GeminiCliMessage,
  derived: readonly string[],
  kind?: TrajectoryEntryKind,
): HistoryEntry {
  return {
    speaker,
    blocks,
    metadata: createEntryMetadata({
      id: typeof message.id === 'string' ? message.id : undefined,
      timestamp: typeof message.timestamp === 'string' ? message.timestamp : undefined,
      model: typeof message.model === 'string' ? message.model : undefined,
      usage: usageOf(message.tokens),
      providerMetadata: nativeMetadata(
        punchHoles(message, derived.map((field) => [field])),
        { derived, ...(kind === undefined ? {} : { kind }) },
      ),
    }),
  };
}

function decodeGeminiMessage(
  message: GeminiCliMessage,
  path: string,
  demoted: ReadonlySet<string>,
  draft: DraftHistory,
): void {
  const blocks: ContentBlock[] = [];
  const derived = ['content'];
  if (Array.isArray(message.thoughts)) {
    derived.push('thoughts');
    for (const thought of message.thoughts as readonly JsonObject[]) {
      blocks.push({
        type: 'thinking',
        thought: thought.description as string,
        providerMetadata: nativeMetadata(punchHoles(thought, [descriptionPath])),
      });
    }
  }
  blocks.push(...textBlocks(message.content));
  const calls = Array.isArray(message.toolCalls) ? (message.toolCalls as readonly GeminiCliToolCall[]) : [];
  const complete = calls.every((call) => Object.hasOwn(call, 'result') && !demoted.has(call.id));
  if (calls.length === 0 || !complete) {
    if (calls.length > 0) {
      draft.warnings.push({
        type: 'other',
        path,
        message: 'A tool call of this message has no recorded result; its toolCalls are kept untouched in providerMetadata and the message as text',
      });
    }
    draft.history.push(entryFor('ai', blocks, message, derived, calls.length > 0 ? 'unanswered-action' : undefined));
    return;
  }
  derived.push('toolCalls');
  const responses: ToolResponseBlock[] = [];
  for (const call of calls) {
    const hasArguments = Object.hasOwn(call, 'args');
    blocks.push({
      type: 'tool_call',
      id: call.id,
      name: call.name,
      parameters: hasArguments ? (call.args as JsonValue) : {},
      providerMetadata: nativeMetadata(punchHoles(call, [['args'], ['result']])),
    });
    responses.push({
      type: 'tool_response',
      callId: call.id,
      toolName: call.name,
      result: call.result as JsonValue,
      // A cancelled call answers the model with an `error` response, as a failed one does.
      ...(call.status === 'error' || call.status === 'cancelled' ? { isError: true } : {}),
    });
  }
  draft.history.push(entryFor('ai', blocks, message, derived));
  draft.history.push({ speaker: 'tool', blocks: responses });
}

function decodeMessages(messages: readonly GeminiCliMessage[], demoted: ReadonlySet<string>): DraftHistory {
  const draft: DraftHistory = { history: [], warnings: [] };
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (message.type === 'gemini') {
      decodeGeminiMessage(message, path, demoted, draft);
      return;
    }
    // `info` and other notices are not typed by the user; the mark keeps strategies from treating them so.
    const kind = message.type === 'user' ? undefined : 'event';
    draft.history.push(entryFor('human', textBlocks(message.content), message, ['content'], kind));
  });
  return draft;
}

function decodeGeminiCli(input: unknown): DecodeResult {
  const recording = parseNativeInput(geminiCliChatRecordingSchema, input, format) as GeminiCliChatRecording;
  const draft = buildPairValidHistory((demoted) => decodeMessages(recording.messages, demoted));
  const conversation = parseConversation({
    history: draft.history,
    providerMetadata: { [trajectoryKey]: { format, native: punchHoles(recording, [['messages']]) } },
  });
  return { conversation, warnings: draft.warnings };
}

function encodeThought(block: ThinkingBlock, own: boolean): JsonObject {
  const native = own ? readNativeSkeleton(block.providerMetadata) : undefined;
  if (native === undefined) return { subject: '', description: block.thought };
  return fillHoles(native, [[descriptionPath, block.thought]]);
}

function encodeToolCall(
  call: ToolCallBlock,
  response: ToolResponseBlock | undefined,
  own: boolean,
  path: string,
  warnings: FormatWarning[],
): JsonObject {
  if (response === undefined) {
    warnings.push({
      type: 'lossy',
      path,
      message: `No tool result answers call ${call.id}; wrote the call without a result`,
    });
  }
  const native = own ? readNativeSkeleton(call.providerMetadata) : undefined;
  if (native === undefined) {
    return {
      id: call.id,
      name: call.name,
      args: call.parameters,
      ...(response === undefined
        ? {}
        : { result: response.result, status: response.isError === true ? 'error' : 'success' }),
    };
  }
  return fillHoles(native, [
    [['args'], Object.hasOwn(native, 'args') ? call.parameters : undefined],
    [['result'], response?.result],
  ]);
}

/** The tool results answering the assistant turn that starts at `start`; marks their entries as written. */
function readTurnResponses(
  history: readonly HistoryEntry[],
  start: number,
  written: Set<number>,
): Map<string, ToolResponseBlock> {
  const responses = new Map<string, ToolResponseBlock>();
  let next = start;
  while (history[next]?.speaker === 'ai') next += 1;
  for (; history[next]?.speaker === 'tool'; next += 1) {
    written.add(next);
    for (const block of history[next]?.blocks ?? []) {
      if (block.type === 'tool_response') responses.set(block.callId, block);
    }
  }
  return responses;
}

function encodeGeminiCli(conversation: Conversation): EncodeResult<GeminiCliChatRecording> {
  const skeleton = readConversationSkeleton(conversation, format);
  const own = skeleton !== undefined;
  const warnings: FormatWarning[] = [];
  const messages: JsonObject[] = [];
  const { history } = conversation;
  // gemini-cli records results inside the message that made the calls, so the tool entries after an assistant turn
  // (consecutive ai entries) are read with the turn and not written on their own.
  const written = new Set<number>();
  let turnResponses = new Map<string, ToolResponseBlock>();

  history.forEach((entry, index) => {
    const path = `history[${index}]`;
    if (written.has(index)) return;
    const native = own ? readNativeSkeleton(entry.metadata?.providerMetadata) : undefined;
    const derived = readDerivedFields(entry.metadata?.providerMetadata);
    if (entry.speaker === 'tool') {
      warnings.push({
        type: 'lossy',
        path,
        message: 'Dropped tool results that answer no call of a gemini message: gemini-cli records results inside the message that made the calls',
      });
      return;
    }
    const allow: ContentBlock['type'][] = entry.speaker === 'ai' ? ['thinking', 'tool_call'] : [];
    const content = renderText(entry.blocks, path, warnings, { allow });
    if (entry.speaker === 'human') {
      const { id, timestamp } = entry.metadata ?? {};
      messages.push(
        native === undefined
          ? { ...(id === undefined ? {} : { id }), ...(timestamp === undefined ? {} : { timestamp }), type: 'user', content }
          : fillHoles(native, [[['content'], content]]),
      );
      return;
    }
    if (history[index - 1]?.speaker !== 'ai') turnResponses = readTurnResponses(history, index, written);
    const responses = turnResponses;
    const thoughts = entry.blocks
      .filter((block): block is ThinkingBlock => block.type === 'thinking')
      .map((block) => encodeThought(block, own));
    const toolCalls = entry.blocks
      .filter((block): block is ToolCallBlock => block.type === 'tool_call')
      .map((call) => encodeToolCall(call, responses.get(call.id), own, path, warnings));
    if (native === undefined) {
      const { id, timestamp, model } = entry.metadata ?? {};
      messages.push({
        ...(id === undefined ? {} : { id }),
        ...(timestamp === undefined ? {} : { timestamp }),
        type: 'gemini',
        content,
        ...(thoughts.length > 0 ? { thoughts } : {}),
        ...(model === undefined ? {} : { model }),
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      });
      return;
    }
    const fills: [JsonPath, JsonValue][] = [[['content'], content]];
    if (derived.has('thoughts') || thoughts.length > 0) fills.push([['thoughts'], thoughts]);
    if (derived.has('toolCalls') || toolCalls.length > 0) fills.push([['toolCalls'], toolCalls]);
    messages.push(fillHoles(native, fills));
  });
  const recording = fillHoles(skeleton ?? { messages: null }, [[['messages'], messages]]);
  return { value: detachRecord(recording) as GeminiCliChatRecording, warnings };
}

/**
 * Creates the codec for gemini-cli chat recordings (`~/.gemini/tmp/<project>/chats/session-*.json`).
 *
 * Decoding: `user` messages become `human` entries. A `gemini` message becomes an `ai` entry — `thinking` blocks from
 * `thoughts` (the description; subject and timestamp kept in `providerMetadata`), its text, and a `tool_call` per
 * `toolCalls` item (`args` as parameters) — followed by one `tool` entry holding every call's `tool_response`: the
 * recorded `result` as JSON, as it is (its shape varies by tool), with `isError` for `status: 'error'` and
 * `'cancelled'`. `info` and other message types become `human` text entries marked `kind: 'event'`. Ids,
 * timestamps, model and token counts go to entry metadata; every key is kept, so encoding gives back the original
 * value exactly.
 *
 * @returns The codec; `format` is `gemini-cli`.
 * @throws `InvalidFormatError` (from `decode`) when the input has no `messages` array of `{ type, content: string }`
 *   (list-of-parts content is not read).
 * @example
 * ```ts
 * const codec = createGeminiCliCodec();
 * const { conversation } = codec.decode(JSON.parse(readFileSync('session-2026-01-11T00-25-17b4d5e9.json', 'utf8')));
 * ```
 */
export function createGeminiCliCodec(): ConversationCodec<GeminiCliChatRecording> {
  return { specificationVersion: 'v1', format, decode: decodeGeminiCli, encode: encodeGeminiCli };
}
