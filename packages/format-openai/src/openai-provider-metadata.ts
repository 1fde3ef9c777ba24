import { isJsonObject, type JsonObject, type JsonValue, type ProviderMetadata } from '@ctx/core';
import { LAYOUT_KEY } from '@ctx/format-utils';

/*
 * What this codec keeps under `providerMetadata.openai` so that `encode(decode(x))` gives `x` back exactly.
 *
 * - Entries: `message` holds the message's fields without a canonical place (`name`, `refusal: null`, `audio`,
 *   and every unknown key a trajectory adds), untouched; `role` marks a human entry from a later system or
 *   developer message (or a tool entry from a legacy function message); `opaqueParts` holds parts without a
 *   canonical form.
 * - Blocks: part fields without a canonical place, flat under their native names (an image's `detail` under
 *   `imageUrl`, tool call extras under `function` / `custom`), and whether a text was a refusal.
 * - System blocks: the role and fields of the message each block starts.
 *
 * Markers that only describe how the native value was laid out (string or parts, message boundaries, the exact
 * bytes of `arguments`) sit under a `layout` key at each level: they record how the original differs from what
 * the encoder writes by default, another format loses nothing when it ignores them, and ctx codecs skip `layout`
 * when they warn about dropped metadata.
 */

/** The provider key of this codec's metadata. */
export const openAIKey = 'openai';

/** A part kept as it was, and its position in its message's content array. */
export interface OpaquePart {
  readonly index: number;
  readonly part: JsonObject;
}

/**
 * How a message's `content` was written when it differs from the default: a string for one plain text block,
 * `null` (assistant) or `[]` (others) for none, parts otherwise.
 */
export type ContentForm = 'parts' | 'absent';

/** Entry markers; all optional, absent means "the encoder's default". */
export interface OpenAIEntryMarkers {
  /** The message's fields other than those ctx maps (`name`, `refusal: null`, `audio`, trajectory keys, …). */
  readonly message?: JsonObject;
  /** A human entry from a `system` / `developer` message after the conversation started, or a tool entry from a legacy `function` message. */
  readonly role?: 'system' | 'developer' | 'function';
  /** Content parts without a canonical form, with their positions in the content array. */
  readonly opaqueParts?: readonly OpaquePart[];
  /** Layout: the assistant message followed another assistant message; the encoder would otherwise merge the two. */
  readonly separateMessage?: boolean;
  /** Layout: how `content` was written, when not the default. */
  readonly content?: ContentForm;
  /** Layout: the tool message had no `tool_call_id` (its call id came from SWE-agent's `tool_call_ids`). */
  readonly toolCallIdAbsent?: boolean;
}

/** System block markers: the first block of each system message says which message it starts. */
export interface OpenAISystemMarkers {
  readonly role?: 'developer';
  readonly message?: JsonObject;
  /** Layout: how `content` was written, when not the default. */
  readonly content?: ContentForm;
  /** Layout: the block is another part of the message the previous block started. */
  readonly continuesMessage?: boolean;
}

/** Marker keys this codec writes on blocks: flat for what a text means, under `layout` for how it was written. */
export const blockMarkers = {
  /** A text block from a `refusal` content part. */
  refusalPart: 'refusalPart',
  /** A text block holding the assistant message's `refusal` field. */
  messageRefusal: 'messageRefusal',
  /** Layout: the model's `arguments` string, when writing the parameters again would give other bytes. */
  arguments: 'arguments',
  /** Layout: a tool call from the legacy `function_call` field (its id was made up, and is not written back). */
  functionCall: 'functionCall',
  /** Layout: a tool response whose content array is kept as it is, extra fields included. */
  rawContent: 'rawContent',
  /**
   * Layout: the id the request gave a tool call (or, on a tool response, the id it answered), when the history holds
   * a renamed copy because an earlier call had that id; the encoder writes it back.
   */
  recordedId: 'recordedId',
} as const;

function isContentForm(value: JsonValue | undefined): value is ContentForm {
  return value === 'parts' || value === 'absent';
}

function isOpaquePartList(value: unknown): value is readonly OpaquePart[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item: JsonValue) =>
        isJsonObject(item) && Number.isInteger(item.index) && (item.index as number) >= 0 && isJsonObject(item.part),
    )
  );
}

function layoutOf(stored: JsonObject): JsonObject {
  const layout = stored[LAYOUT_KEY];
  return isJsonObject(layout) ? layout : {};
}

/** Reads this codec's entry markers, ignoring anything malformed (e.g. hand-edited metadata). */
export function readEntryMarkers(providerMetadata: ProviderMetadata | undefined): OpenAIEntryMarkers {
  const stored = providerMetadata?.[openAIKey];
  if (stored === undefined) return {};
  const { role } = stored;
  const layout = layoutOf(stored);
  return {
    ...(isJsonObject(stored.message) ? { message: stored.message } : {}),
    ...(role === 'system' || role === 'developer' || role === 'function' ? { role } : {}),
    ...(isOpaquePartList(stored.opaqueParts) ? { opaqueParts: stored.opaqueParts } : {}),
    ...(layout.separateMessage === true ? { separateMessage: true } : {}),
    ...(isContentForm(layout.content) ? { content: layout.content } : {}),
    ...(layout.toolCallIdAbsent === true ? { toolCallIdAbsent: true } : {}),
  };
}

/** Stores entry markers: content under their own keys, layout-only markers under `layout`. */
export function entryProviderMetadata(markers: OpenAIEntryMarkers): ProviderMetadata | undefined {
  const { message, role, opaqueParts, ...layout } = markers;
  return toProviderMetadata({
    ...(message === undefined ? {} : { message }),
    ...(role === undefined ? {} : { role }),
    ...(opaqueParts === undefined ? {} : { opaqueParts }),
    ...(Object.keys(layout).length === 0 ? {} : { [LAYOUT_KEY]: layout }),
  });
}

/** Reads this codec's markers on a system block. */
export function readSystemMarkers(providerMetadata: ProviderMetadata | undefined): OpenAISystemMarkers {
  const stored = providerMetadata?.[openAIKey];
  if (stored === undefined) return {};
  const layout = layoutOf(stored);
  return {
    ...(stored.role === 'developer' ? { role: 'developer' } : {}),
    ...(isJsonObject(stored.message) ? { message: stored.message } : {}),
    ...(isContentForm(layout.content) ? { content: layout.content } : {}),
    ...(layout.continuesMessage === true ? { continuesMessage: true } : {}),
  };
}

/** The metadata of a system block: its part's own fields plus the markers of the message it starts or continues. */
export function systemProviderMetadata(
  partFields: JsonObject,
  markers: OpenAISystemMarkers,
): ProviderMetadata | undefined {
  const { role, message, ...layout } = markers;
  return toProviderMetadata({
    ...partFields,
    ...(role === undefined ? {} : { role }),
    ...(message === undefined ? {} : { message }),
    ...(Object.keys(layout).length === 0 ? {} : { [LAYOUT_KEY]: layout }),
  });
}

/** This codec's metadata of a block or tool definition, without its layout markers. */
export function readBlockFields(providerMetadata: ProviderMetadata | undefined): JsonObject {
  const { [LAYOUT_KEY]: _layout, ...fields } = providerMetadata?.[openAIKey] ?? {};
  return fields;
}

/** The layout markers of a block. */
export function readLayout(providerMetadata: ProviderMetadata | undefined): JsonObject {
  const stored = providerMetadata?.[openAIKey];
  return stored === undefined ? {} : layoutOf(stored);
}

/** Fields plus layout markers (when any) as block metadata. */
export function fieldsWithLayout(fields: object, layout: object): object {
  return Object.keys(layout).length === 0 ? fields : { ...fields, [LAYOUT_KEY]: layout };
}

/** Wraps fields as `{ openai: fields }`, or returns undefined when there are none. */
export function toProviderMetadata(fields: object): ProviderMetadata | undefined {
  return Object.keys(fields).length === 0 ? undefined : { [openAIKey]: fields as JsonObject };
}
