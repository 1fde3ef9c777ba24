import { isJsonObject, type JsonObject, type JsonValue, type ProviderMetadata } from '@ctx/core';
import { LAYOUT_KEY } from '@ctx/format-utils';

/*
 * What this codec keeps under `providerMetadata.anthropic` so that `encode(decode(x))` gives `x` back exactly.
 *
 * - Blocks and tool definitions: the native fields that have no canonical place, flat and under their native names
 *   (`cache_control`, `citations`, `caller`, a server tool's `type` and settings, …). Other codecs name them in
 *   their "dropped" warnings, so a user sees `anthropic.cache_control` rather than an opaque blob.
 * - Entries: `message` (the message's own fields) and `opaqueBlocks` (blocks without a canonical form), which are
 *   content, and markers recording how the original differs from what the encoder writes by default, so entries
 *   from other formats (which carry none) get the provider-valid default.
 * - The conversation: the request's other parameters.
 *
 * Markers that only describe how the native value was laid out (string or array, where a message was split) sit
 * under a `layout` key at each level: another format loses nothing when it ignores them, so ctx codecs skip
 * `layout` when they warn about dropped metadata.
 */

/** The provider key of this codec's metadata. */
export const anthropicKey = 'anthropic';

/** A block kept as it was, and its position among the blocks of its entry's part of the message. */
export interface OpaqueBlock {
  readonly index: number;
  readonly block: JsonObject;
}

/** Entry markers; all optional, absent means "the encoder's default". */
export interface AnthropicEntryMarkers {
  /** The message's fields other than `role` and `content` (`id`, `type`, `model`, `stop_reason`, `usage`, …). */
  readonly message?: JsonObject;
  /** The message followed a message of the same role; the encoder would otherwise merge the two. */
  readonly separateMessage?: boolean;
  /** The content was an array of one text block, which the encoder would otherwise write as a string. */
  readonly contentArray?: boolean;
  /** The entry has blank text blocks, which the encoder otherwise drops (the API rejects them). */
  readonly keepBlankText?: boolean;
  /** The message's text ends with whitespace, which the encoder otherwise trims from a final assistant message. */
  readonly keepTrailingWhitespace?: boolean;
  /** Blocks without a canonical form, with their positions in this entry's part of the message. */
  readonly opaqueBlocks?: readonly OpaqueBlock[];
  /** Positions of the tool_result blocks in the user message this human entry shares with the tool entry before it. */
  readonly toolResultPositions?: readonly number[];
}

/** Conversation markers. */
export interface AnthropicConversationMarkers {
  /** Request parameters other than `system`, `messages` and `tools` (`model`, `max_tokens`, …). */
  readonly request?: JsonObject;
  /** `system` was an array of one text block, which the encoder would otherwise write as a string. */
  readonly systemArray?: boolean;
}

/** Block layout marker: a tool_use `input` that was not an object (the encoder otherwise wraps it as `{ value }`). */
export const keepInputMarker = 'keepInput';
/**
 * Block layout marker: the id the request gave a tool_use (or, on a tool_result, the id it answered), when the history
 * holds a renamed copy because an earlier tool_use had that id; the encoder writes it back.
 */
export const recordedIdMarker = 'recordedId';
/** Tool layout marker: a custom tool without `input_schema` (the encoder otherwise adds an empty one). */
export const inputSchemaAbsentMarker = 'inputSchemaAbsent';

function isIndexList(value: unknown): value is readonly number[] {
  return Array.isArray(value) && value.every((item) => Number.isInteger(item) && (item as number) >= 0);
}

function isOpaqueBlockList(value: unknown): value is readonly OpaqueBlock[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item: JsonValue) =>
        isJsonObject(item) && Number.isInteger(item.index) && (item.index as number) >= 0 && isJsonObject(item.block),
    )
  );
}

/** Reads this codec's entry markers, ignoring anything malformed (e.g. hand-edited metadata). */
export function readEntryMarkers(providerMetadata: ProviderMetadata | undefined): AnthropicEntryMarkers {
  const stored = providerMetadata?.[anthropicKey];
  if (stored === undefined) return {};
  const layout = isJsonObject(stored[LAYOUT_KEY]) ? stored[LAYOUT_KEY] : {};
  return {
    ...(isJsonObject(stored.message) ? { message: stored.message } : {}),
    ...(isOpaqueBlockList(stored.opaqueBlocks) ? { opaqueBlocks: stored.opaqueBlocks } : {}),
    ...(layout.separateMessage === true ? { separateMessage: true } : {}),
    ...(layout.contentArray === true ? { contentArray: true } : {}),
    ...(layout.keepBlankText === true ? { keepBlankText: true } : {}),
    ...(layout.keepTrailingWhitespace === true ? { keepTrailingWhitespace: true } : {}),
    ...(isIndexList(layout.toolResultPositions) ? { toolResultPositions: layout.toolResultPositions } : {}),
  };
}

/** Stores entry markers: content under their own keys, layout-only markers under `layout`. */
export function entryProviderMetadata(markers: AnthropicEntryMarkers): ProviderMetadata | undefined {
  const { message, opaqueBlocks, ...layout } = markers;
  return toProviderMetadata({
    ...(message === undefined ? {} : { message }),
    ...(opaqueBlocks === undefined ? {} : { opaqueBlocks: opaqueBlocks as unknown as JsonValue }),
    ...(Object.keys(layout).length === 0 ? {} : { [LAYOUT_KEY]: layout }),
  });
}

/** Reads this codec's conversation markers. */
export function readConversationMarkers(providerMetadata: ProviderMetadata | undefined): AnthropicConversationMarkers {
  const stored = providerMetadata?.[anthropicKey];
  if (stored === undefined) return {};
  const layout = isJsonObject(stored[LAYOUT_KEY]) ? stored[LAYOUT_KEY] : {};
  return {
    ...(isJsonObject(stored.request) ? { request: stored.request } : {}),
    ...(layout.systemArray === true ? { systemArray: true } : {}),
  };
}

/** Stores conversation markers. */
export function conversationProviderMetadata(markers: AnthropicConversationMarkers): ProviderMetadata | undefined {
  return toProviderMetadata({
    ...(markers.request === undefined ? {} : { request: markers.request }),
    ...(markers.systemArray === true ? { [LAYOUT_KEY]: { systemArray: true } } : {}),
  });
}

/** This codec's metadata of a block or tool definition: its native fields without a canonical place. */
export function readNativeFields(providerMetadata: ProviderMetadata | undefined): JsonObject {
  const { [LAYOUT_KEY]: _layout, ...fields } = providerMetadata?.[anthropicKey] ?? {};
  return fields;
}

/** The layout markers of a block or tool definition. */
export function readLayout(providerMetadata: ProviderMetadata | undefined): JsonObject {
  const layout = providerMetadata?.[anthropicKey]?.[LAYOUT_KEY];
  return isJsonObject(layout) ? layout : {};
}

/** Native fields plus layout markers (when any) as block or tool metadata. */
export function fieldsWithLayout(fields: JsonObject, layout: JsonObject): JsonObject {
  return Object.keys(layout).length === 0 ? fields : { ...fields, [LAYOUT_KEY]: layout };
}

/** Wraps fields as `{ anthropic: fields }`, or returns undefined when there are none. */
export function toProviderMetadata(fields: JsonObject): ProviderMetadata | undefined {
  return Object.keys(fields).length === 0 ? undefined : { [anthropicKey]: fields };
}
