import { isJsonObject, type Conversation, type JsonObject, type JsonValue, type ProviderMetadata } from '@ctx/core';
import type { TrajectoryFormat } from './trajectory-format.js';

/** The `providerMetadata` key every trajectory codec writes under. */
export const trajectoryKey = 'trajectory';

/**
 * What an entry is when its speaker alone does not say it, written as `providerMetadata.trajectory.kind` on entries:
 * - `format-error`: the agent framework's reply to a model message it could not parse (not typed by a user).
 * - `submission`: the observation that carries the final submission (mini-swe-agent).
 * - `unanswered-action`: a model action that never got an observation, kept as text so the history stays pair-valid.
 * - `event`: a recorded event that is not a chat message (OpenHands recall or error events, gemini-cli `info`).
 */
export type TrajectoryEntryKind = 'format-error' | 'submission' | 'unanswered-action' | 'event';

/** The `trajectory` provider metadata of a block, entry or conversation, if any. */
export function readTrajectoryMetadata(
  providerMetadata: ProviderMetadata | undefined,
): Readonly<Record<string, JsonValue>> | undefined {
  return providerMetadata?.[trajectoryKey];
}

/**
 * The native record skeleton (see `punchHoles`) stored under `providerMetadata.trajectory.native`, or undefined for
 * content that did not come from a trajectory file (a foreign conversation, an entry a strategy generated).
 */
export function readNativeSkeleton(providerMetadata: ProviderMetadata | undefined): JsonObject | undefined {
  const native = readTrajectoryMetadata(providerMetadata)?.native;
  return isJsonObject(native) ? native : undefined;
}

/** The names of the native fields a codec derives from blocks, stored as `providerMetadata.trajectory.derived`. */
export function readDerivedFields(providerMetadata: ProviderMetadata | undefined): ReadonlySet<string> {
  const derived = readTrajectoryMetadata(providerMetadata)?.derived;
  return new Set(Array.isArray(derived) ? derived.filter((name): name is string => typeof name === 'string') : []);
}

/**
 * The file-level skeleton of a conversation decoded by the codec of `format`, or undefined when the conversation
 * came from elsewhere. Codecs trust entry skeletons only when this is defined: a skeleton of another format would
 * produce records of the wrong shape.
 */
export function readConversationSkeleton(conversation: Conversation, format: TrajectoryFormat): JsonObject | undefined {
  const metadata = readTrajectoryMetadata(conversation.providerMetadata);
  if (metadata?.format !== format) return undefined;
  return isJsonObject(metadata.native) ? metadata.native : undefined;
}

/**
 * Builds `{ trajectory: { native, derived?, kind? } }` for a block or entry, leaving out what is empty.
 *
 * @param native - The record skeleton.
 * @param options - `derived`: names of fields the blocks carry when that varies per record; `kind`: see
 *   {@link TrajectoryEntryKind}; `extra`: further format-specific fields.
 * @returns Provider metadata for the block or entry.
 */
export function nativeMetadata(
  native: JsonObject,
  options: {
    readonly derived?: readonly string[];
    readonly kind?: TrajectoryEntryKind;
    readonly extra?: Readonly<Record<string, JsonValue>>;
  } = {},
): ProviderMetadata {
  const trajectory: Record<string, JsonValue> = { native };
  if (options.derived !== undefined && options.derived.length > 0) trajectory.derived = [...options.derived];
  if (options.kind !== undefined) trajectory.kind = options.kind;
  if (options.extra !== undefined) Object.assign(trajectory, options.extra);
  return { [trajectoryKey]: trajectory };
}
