import type { JsonObject, JsonValue, ProviderMetadata } from '@ctx/core';

/**
 * The `providerMetadata` key this codec writes and reads. Everything under it is what the canonical model cannot
 * hold but an exact round trip needs (absent ids, part extras such as `thoughtSignature`, content boundaries).
 */
export const GEMINI_METADATA_KEY = 'gemini';

/** The fields under {@link GEMINI_METADATA_KEY}, loosely typed: values come from stored, possibly edited data. */
export type GeminiMetadata = JsonObject;

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
