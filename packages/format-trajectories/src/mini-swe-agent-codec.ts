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
  type Speaker,
  type TextBlock,
} from '@ctx/core';
import { createEntryMetadata } from './entry-metadata.js';
import { renderFencedAction, splitFencedAction, textActionToolName, type FenceStyle } from './fenced-action-blocks.js';
import { findMiniSweAgentActions } from './find-fenced-actions.js';
import {
  miniSweAgentTrajectorySchema,
  type MiniSweAgentMessage,
  type MiniSweAgentTrajectory,
} from './mini-swe-agent-trajectory.js';
import { readOpenAiUsage } from './openai-usage.js';
import { buildPairValidHistory, type DraftHistory } from './pair-valid-history.js';
import { parseNativeInput } from './parse-native-input.js';
import { detachRecord, fillHoles, punchHoles, readPath, type JsonPath } from './record-skeleton.js';
import { renderObservation, renderText } from './render-text.js';
import type { TrajectoryFormat } from './trajectory-format.js';
import {
  nativeMetadata,
  readConversationSkeleton,
  readNativeSkeleton,
  trajectoryKey,
  type TrajectoryEntryKind,
} from './trajectory-metadata.js';

const format: TrajectoryFormat = 'mini-swe-agent';
const fence: FenceStyle = { opening: '```bash\n', closing: '\n```' };
const contentPath: JsonPath = ['content'];
const roles: Readonly<Record<Speaker, string>> = { human: 'user', ai: 'assistant', tool: 'user' };

function textBlocks(text: string): ContentBlock[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

function entryFor(
  speaker: Speaker,
  blocks: ContentBlock[],
  message: MiniSweAgentMessage,
  kind?: TrajectoryEntryKind,
): HistoryEntry {
  const response = readPath(message.extra, ['response']);
  const model = readPath(response, ['model']);
  return {
    speaker,
    blocks,
    metadata: createEntryMetadata({
      model: speaker === 'ai' && typeof model === 'string' ? model : undefined,
      usage: speaker === 'ai' ? readOpenAiUsage(readPath(response, ['usage'])) : undefined,
      providerMetadata: nativeMetadata(punchHoles(message, [contentPath]), kind === undefined ? {} : { kind }),
    }),
  };
}

function decodeMessages(
  messages: readonly MiniSweAgentMessage[],
  first: number,
  submission: JsonValue | undefined,
  demoted: ReadonlySet<string>,
): DraftHistory {
  const history: HistoryEntry[] = [];
  const warnings: FormatWarning[] = [];
  // The call the previous message made, if it was an action: this message is then its observation.
  let openCallId: string | undefined;
  let previousRejected = false;
  for (let index = first; index < messages.length; index += 1) {
    const message = messages[index] as MiniSweAgentMessage;
    const path = `messages[${index}]`;
    const callId = openCallId;
    const rejected = previousRejected;
    openCallId = undefined;
    previousRejected = false;

    if (message.role === 'assistant') {
      const actions = findMiniSweAgentActions(message.content);
      const id = `action-${index}`;
      const action = actions.length === 1 ? actions[0] : undefined;
      if (action !== undefined && messages[index + 1]?.role === 'user' && !demoted.has(id)) {
        history.push(entryFor('ai', splitFencedAction(message.content, action, id), message));
        openCallId = id;
        continue;
      }
      if (action === undefined) {
        previousRejected = true;
        warnings.push({
          type: 'other',
          path,
          message: `Found ${actions.length} \`\`\`bash blocks: mini-swe-agent runs a message only when it has exactly one and answers with a format error, so the message is kept as text`,
        });
      } else {
        warnings.push({
          type: 'other',
          path,
          message: 'The action has no observation (no user message follows it); kept as text so the history stays pair-valid',
        });
      }
      const kind = action === undefined ? undefined : 'unanswered-action';
      history.push(entryFor('ai', textBlocks(message.content), message, kind));
    } else if (message.role === 'user' && callId !== undefined) {
      const block: ContentBlock = { type: 'tool_response', callId, toolName: textActionToolName, result: message.content };
      // mini-swe-agent's Submitted exception carries the submit command's output: it is that action's observation.
      const isSubmission = index === messages.length - 1 && message.content === submission;
      history.push(entryFor('tool', [block], message, isSubmission ? 'submission' : undefined));
    } else {
      const kind = rejected && message.role === 'user' ? 'format-error' : undefined;
      history.push(entryFor('human', textBlocks(message.content), message, kind));
    }
  }
  return { history, warnings };
}

function decodeMiniSweAgent(input: unknown): DecodeResult {
  const trajectory = parseNativeInput(miniSweAgentTrajectorySchema, input, format) as MiniSweAgentTrajectory;
  const { messages } = trajectory;
  let systemCount = 0;
  while (messages[systemCount]?.role === 'system') systemCount += 1;
  const system: TextBlock[] = messages.slice(0, systemCount).map((message) => ({
    type: 'text',
    text: message.content,
    providerMetadata: nativeMetadata(punchHoles(message, [contentPath])),
  }));
  const submission = readPath(trajectory.info, ['submission']);
  const draft = buildPairValidHistory((demoted) => decodeMessages(messages, systemCount, submission, demoted));
  const conversation = parseConversation({
    ...(system.length > 0 ? { system } : {}),
    history: draft.history,
    providerMetadata: { [trajectoryKey]: { format, native: punchHoles(trajectory, [['messages']]) } },
  });
  return { conversation, warnings: draft.warnings };
}

function encodeMiniSweAgent(conversation: Conversation): EncodeResult<MiniSweAgentTrajectory> {
  const skeleton = readConversationSkeleton(conversation, format);
  const nativeOf = (providerMetadata: Parameters<typeof readNativeSkeleton>[0]) =>
    skeleton === undefined ? undefined : readNativeSkeleton(providerMetadata);
  const warnings: FormatWarning[] = [];
  const messages: JsonObject[] = [];
  const write = (native: JsonObject | undefined, role: string, content: string) =>
    messages.push(native === undefined ? { role, content } : fillHoles(native, [[contentPath, content]]));

  for (const block of conversation.system ?? []) write(nativeOf(block.providerMetadata), 'system', block.text);
  conversation.history.forEach((entry, index) => {
    const path = `history[${index}]`;
    let content: string;
    if (entry.speaker === 'ai') {
      const rendered = renderFencedAction(entry.blocks, fence, path);
      warnings.push(...rendered.warnings);
      const calls = entry.blocks.filter((block) => block.type === 'tool_call').length;
      if (calls > 1) {
        warnings.push({
          type: 'lossy',
          path,
          message: `Wrote ${calls} tool calls as ${calls} code blocks: mini-swe-agent runs one action per message and would reject this one`,
        });
      }
      content = rendered.content;
    } else if (entry.speaker === 'tool') {
      content = renderObservation(entry.blocks, path, warnings);
    } else {
      content = renderText(entry.blocks, path, warnings);
    }
    write(nativeOf(entry.metadata?.providerMetadata), roles[entry.speaker], content);
  });

  const file = fillHoles(skeleton ?? { messages: null, trajectory_format: 'mini-swe-agent-1' }, [[['messages'], messages]]);
  return { value: detachRecord(file) as MiniSweAgentTrajectory, warnings };
}

/**
 * Creates the codec for mini-swe-agent trajectories (`*.traj.json`).
 *
 * Decoding: leading `system` messages become `conversation.system`. An assistant message with exactly one
 * ```` ```bash ```` block that a `user` message answers becomes an `ai` entry `[text (thought), tool_call bash
 * { command }]` with id `action-<message index>`, and the answer a `tool` entry with that call's `tool_response`
 * (the final submission included: it is the submit command's output). Every other message stays text: the task, an
 * assistant message with zero or several blocks (mini-swe-agent rejected it — warned) and the format-error reply
 * (marked `kind: 'format-error'`). Each message's other keys (`extra`) and the file's keys (`info`, …) are kept in
 * `providerMetadata.trajectory`, so encoding gives back the original value exactly.
 *
 * @returns The codec; `format` is `mini-swe-agent`.
 * @throws `InvalidFormatError` (from `decode`) when the input has no `messages` array of `{ role, content: string }`.
 * @example
 * ```ts
 * const codec = createMiniSweAgentCodec();
 * const { conversation, warnings } = codec.decode(JSON.parse(readFileSync('django__django-11138.traj.json', 'utf8')));
 * const { value } = codec.encode(conversation); // deep-equals the parsed file
 * ```
 */
export function createMiniSweAgentCodec(): ConversationCodec<MiniSweAgentTrajectory> {
  return { specificationVersion: 'v1', format, decode: decodeMiniSweAgent, encode: encodeMiniSweAgent };
}
