import { z } from 'zod';
import { isJsonValue, jsonValueMessage, jsonValueSchema, type JsonValue } from './json-value.js';

/**
 * Provider-specific data that ctx does not interpret but must keep untouched, keyed by provider name, e.g.
 * `{ anthropic: { cacheControl: { type: 'ephemeral' } } }` or `{ claudeCode: { uuid: '…', parentUuid: '…' } }`.
 * Codecs write it on decode and read it back on encode, so round trips are exact.
 */
export type ProviderMetadata = Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;

const fieldsSchema = z.record(z.string(), jsonValueSchema);
const providersSchema = z.record(z.string(), fieldsSchema);
const protoKey = '__proto__';

interface Issue {
  readonly path: PropertyKey[];
  readonly message: string;
}

/** The problems of what a record schema skips: the fields of a `__proto__` provider, a `__proto__` field's value. */
function protoKeyIssues(providers: Readonly<Record<string, Readonly<Record<string, unknown>>>>): Issue[] {
  const issues: Issue[] = [];
  for (const [provider, fields] of Object.entries(providers)) {
    if (provider === protoKey) {
      const checked = fieldsSchema.safeParse(fields);
      if (!checked.success) {
        for (const issue of checked.error.issues) issues.push({ path: [provider, ...issue.path], message: issue.message });
        continue;
      }
    }
    if (Object.hasOwn(fields, protoKey) && !isJsonValue(fields[protoKey])) issues.push({ path: [provider, protoKey], message: jsonValueMessage });
  }
  return issues;
}

/**
 * Schema of {@link ProviderMetadata}. The parsed value is the input itself, not a rebuilt copy: a record schema
 * builds its output by assignment, which cannot hold the key `__proto__` (JSON can, and a codec keeps a request's
 * unknown fields here whatever their names), so that key is checked apart and kept.
 */
export const providerMetadataSchema: z.ZodType<ProviderMetadata> = z.custom<ProviderMetadata>().superRefine((value, context) => {
  const result = providersSchema.safeParse(value);
  // The input, not `result.data`: the parsed copy has lost its `__proto__` keys.
  const issues = result.success ? protoKeyIssues(value) : result.error.issues;
  for (const { path, message } of issues) context.addIssue({ code: 'custom', message, path });
});
