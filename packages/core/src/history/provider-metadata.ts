import { z } from 'zod';
import { jsonValueSchema, type JsonValue } from './json-value.js';

/**
 * Provider-specific data that ctx does not interpret but must keep untouched, keyed by provider name, e.g.
 * `{ anthropic: { cacheControl: { type: 'ephemeral' } } }` or `{ claudeCode: { uuid: '…', parentUuid: '…' } }`.
 * Codecs write it on decode and read it back on encode, so round trips are exact.
 */
export type ProviderMetadata = Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;

/** Schema of {@link ProviderMetadata}. */
export const providerMetadataSchema = z.record(z.string(), z.record(z.string(), jsonValueSchema));
