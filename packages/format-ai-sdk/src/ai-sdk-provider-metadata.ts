import type { JsonObject, JsonValue, ProviderMetadata } from '@ctx/core';

/**
 * The `providerMetadata` key this codec writes and reads. Everything under it is what the canonical model cannot
 * hold but an exact round trip needs: `providerOptions` (verbatim), the output type of a tool result, whether
 * content was a string or an array, which entries came from one message.
 */
export const AI_SDK_METADATA_KEY = 'aiSdk';

/** The fields under {@link AI_SDK_METADATA_KEY}, loosely typed: values come from stored, possibly edited data. */
export type AiSdkMetadata = JsonObject;

/** The AI SDK fields of a block, entry or conversation, if any. */
export function readAiSdkMetadata(holder: { readonly providerMetadata?: ProviderMetadata } | undefined): AiSdkMetadata | undefined {
  return holder?.providerMetadata?.[AI_SDK_METADATA_KEY];
}

/** `{ providerMetadata: { aiSdk: fields } }` without the undefined fields, or `{}` when none is left. */
export function aiSdkMetadataField(fields: Readonly<Record<string, JsonValue | undefined>>): { providerMetadata?: ProviderMetadata } {
  const defined: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) defined[key] = value;
  return Object.keys(defined).length === 0 ? {} : { providerMetadata: { [AI_SDK_METADATA_KEY]: defined } };
}
