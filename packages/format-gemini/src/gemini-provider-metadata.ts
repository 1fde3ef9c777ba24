import type { JsonValue, ProviderMetadata } from '@ctx/core';

/**
 * The `providerMetadata` key this codec writes and reads. Everything under it is what the canonical model cannot
 * hold but an exact round trip needs (absent ids, part extras such as `thoughtSignature`, content boundaries).
 */
export const GEMINI_METADATA_KEY = 'gemini';

/** The fields under {@link GEMINI_METADATA_KEY}, loosely typed: values come from stored, possibly edited data. */
export type GeminiMetadata = Readonly<Record<string, JsonValue>>;

/** The Gemini fields of a block, entry or conversation, if any. */
export function readGeminiMetadata(holder: { readonly providerMetadata?: ProviderMetadata } | undefined): GeminiMetadata | undefined {
  return holder?.providerMetadata?.[GEMINI_METADATA_KEY];
}

/**
 * `{ providerMetadata: { gemini: fields } }` without the undefined fields, or `{}` when none is left, ready to
 * spread into a block. Pass `keepEmpty` to mark an object as Gemini-made even without fields.
 */
export function geminiMetadataField(
  fields: Readonly<Record<string, JsonValue | undefined>>,
  options: { readonly keepEmpty?: boolean } = {},
): { providerMetadata?: ProviderMetadata } {
  const defined: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) defined[key] = value;
  if (Object.keys(defined).length === 0 && options.keepEmpty !== true) return {};
  return { providerMetadata: { [GEMINI_METADATA_KEY]: defined } };
}

/** A JSON object field of Gemini metadata, or undefined when absent or not an object. */
export function readObjectField(metadata: GeminiMetadata | undefined, key: string): Readonly<Record<string, JsonValue>> | undefined {
  const value = metadata?.[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, JsonValue>>)
    : undefined;
}

/** A string field of Gemini metadata, or undefined. */
export function readStringField(metadata: GeminiMetadata | undefined, key: string): string | undefined {
  const value = metadata?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** True when a boolean field of Gemini metadata is `true`. */
export function isFlagSet(metadata: GeminiMetadata | undefined, key: string): boolean {
  return metadata?.[key] === true;
}
