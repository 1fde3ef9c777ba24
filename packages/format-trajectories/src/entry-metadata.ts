import type { EntryMetadata, EntryUsage, ProviderMetadata } from '@ctx/core';

/**
 * Builds entry metadata from fields that may be missing, leaving missing ones out (the canonical model is strict
 * about keys, and `undefined` values would not survive a JSON round trip).
 *
 * @param fields - Any of id, timestamp, model, usage and provider metadata.
 * @returns The metadata.
 */
export function createEntryMetadata(fields: {
  readonly id?: string | undefined;
  readonly timestamp?: string | undefined;
  readonly model?: string | undefined;
  readonly usage?: EntryUsage | undefined;
  readonly providerMetadata: ProviderMetadata;
}): EntryMetadata {
  const metadata: { -readonly [Key in keyof EntryMetadata]: EntryMetadata[Key] } = {};
  if (fields.id !== undefined) metadata.id = fields.id;
  if (fields.timestamp !== undefined) metadata.timestamp = fields.timestamp;
  if (fields.model !== undefined) metadata.model = fields.model;
  if (fields.usage !== undefined) metadata.usage = fields.usage;
  metadata.providerMetadata = fields.providerMetadata;
  return metadata;
}
