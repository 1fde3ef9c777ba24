import {
  jsonValueSchema,
  type JsonValue,
  type ProviderMetadata,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '@ctx/core';
import { z } from 'zod';
import { copyAsJson } from './copy-as-json.js';
import type { LeafPath } from './text-leaves.js';

/**
 * What a reference points at (spec 004 FR-LC-003 `type`): `file` — content of a file, as a read showed it or a write
 * or edit call wrote it; `tool_result` — the output of another tool call (a command, a search, a listing);
 * `output` — earlier lines of the same output.
 */
export type ReferenceType = 'file' | 'tool_result' | 'output';

/** A pointer to content shown earlier in the history, as spec 004 FR-LC-003 defines it. */
export interface ContentReference {
  readonly type: ReferenceType;
  /** Index of the entry holding the source, in the history the reference was made from. */
  readonly originalIndex: number;
  /** The file, for `file` references (normalized absolute path). */
  readonly path?: string;
  /** The tool call that produced the source, e.g. `Read annotation.ex` or `` bash `git status` ``. */
  readonly operation?: string;
  /** {@link hashContent} of the referenced text as it reads in this place; verified by `expandHistory`. */
  readonly hash: string;
}

/**
 * Where the lines of a reference come from: the result or the parameters of the tool call with `id` (the nearest
 * such block before the reference), or earlier lines of the same string (`self`).
 */
export type ReferenceSource =
  | { readonly kind: 'result' | 'call'; readonly id: string; readonly leaf: LeafPath }
  | { readonly kind: 'self' };

/** How referenced lines are numbered where the reference stands (`    12→…`), when they are numbered there. */
export interface LineNumbering {
  readonly start: number;
  readonly width: number;
  readonly separator: string;
}

/** One marker line in a string of a block, and the lines it stands for. */
export interface LineReference extends ContentReference {
  /** The string of the block the marker is in (a path into the result or parameters). */
  readonly leaf: LeafPath;
  /** Line of the compressed string that holds the marker. */
  readonly at: number;
  readonly source: ReferenceSource;
  /** First source line (0-based, in the source's original text). */
  readonly from: number;
  /** Lines the marker stands for. */
  readonly count: number;
  /** Set when the lines are numbered here: they are renumbered from `start` on the way back. */
  readonly numbering?: LineNumbering;
  /** The whole string repeats a whole earlier string (a repeated read or command output). */
  readonly whole?: boolean;
}

/** A todo list replaced because a later one supersedes it (spec 004 FR-LC-004); the original is kept here. */
export interface SupersededState {
  readonly original: JsonValue;
  /** The call whose list supersedes it. */
  readonly by: { readonly id: string; readonly originalIndex: number };
}

/**
 * What a block needs to be restored exactly, kept in the block's `providerMetadata.ctx.lossless` (provider
 * metadata is never sent to a model and is not counted as tokens). The history is its own reference store.
 */
export interface LosslessRecord {
  readonly version: 1;
  /** Which field of the block was rewritten. */
  readonly field: 'result' | 'parameters';
  /** {@link hashContent} of the original field, JSON-serialized. */
  readonly hash: string;
  /** The block's original `providerMetadata`: absent, present without `ctx`, or present with `ctx`. */
  readonly metadata: 'absent' | 'present' | 'with-ctx';
  readonly references?: readonly LineReference[];
  readonly superseded?: SupersededState;
}

const leafPathSchema = z.array(z.union([z.string(), z.int().nonnegative()]));
const hashSchema = z.string().regex(/^[0-9a-f]{16}$/, 'Expected 16 hex digits');

const lineReferenceSchema = z.strictObject({
  type: z.enum(['file', 'tool_result', 'output']),
  originalIndex: z.int().nonnegative(),
  path: z.string().optional(),
  operation: z.string().optional(),
  hash: hashSchema,
  leaf: leafPathSchema,
  at: z.int().nonnegative(),
  source: z.union([
    z.strictObject({ kind: z.enum(['result', 'call']), id: z.string().min(1), leaf: leafPathSchema }),
    z.strictObject({ kind: z.literal('self') }),
  ]),
  from: z.int().nonnegative(),
  count: z.int().min(1),
  numbering: z
    .strictObject({ start: z.int().nonnegative(), width: z.int().min(1), separator: z.enum(['→', '\t']) })
    .optional(),
  whole: z.literal(true).optional(),
}) satisfies z.ZodType<LineReference>;

const losslessRecordSchema = z.strictObject({
  version: z.literal(1),
  field: z.enum(['result', 'parameters']),
  hash: hashSchema,
  metadata: z.enum(['absent', 'present', 'with-ctx']),
  references: z.array(lineReferenceSchema).optional(),
  superseded: z
    .strictObject({
      original: jsonValueSchema,
      by: z.strictObject({ id: z.string().min(1), originalIndex: z.int().nonnegative() }),
    })
    .optional(),
}) satisfies z.ZodType<LosslessRecord>;

/** Where records live: `providerMetadata.ctx.lossless`. `ctx` is the provider key ctx itself writes under. */
const providerKey = 'ctx';
const recordKey = 'lossless';

/**
 * The raw record value on a block, before validation.
 *
 * @param block - A tool call or tool response block.
 * @returns The stored value, or undefined when the block carries none.
 * @example
 * ```ts
 * if (rawLosslessRecord(block) !== undefined) console.log('rewritten by lossless');
 * ```
 */
export function rawLosslessRecord(block: ToolCallBlock | ToolResponseBlock): unknown {
  return block.providerMetadata?.[providerKey]?.[recordKey];
}

/**
 * Reads and validates the record of a block.
 *
 * @param block - A tool call or tool response block.
 * @returns `{ record }`, `{ record: undefined }` when the block has none, or `{ problem }` when the stored value is
 *   not a valid record (the block was edited by hand, or by a newer version of this package).
 * @example
 * ```ts
 * const { record } = readLosslessRecord(block);
 * ```
 */
export function readLosslessRecord(
  block: ToolCallBlock | ToolResponseBlock,
): { readonly record: LosslessRecord | undefined; readonly problem?: undefined } | { readonly record?: undefined; readonly problem: string } {
  const raw = rawLosslessRecord(block);
  if (raw === undefined) return { record: undefined };
  const parsed = losslessRecordSchema.safeParse(raw);
  if (parsed.success) return { record: parsed.data };
  return { problem: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`).join('; ') };
}

/**
 * The block's provider metadata with `record` added under `ctx.lossless`.
 *
 * @param block - The original block.
 * @param record - Its record (its `metadata` field is filled in here).
 * @returns Provider metadata for the rewritten block.
 * @example
 * ```ts
 * const rewritten = { ...block, result, providerMetadata: withLosslessRecord(block, { version: 1, field: 'result', hash, references }) };
 * ```
 */
export function withLosslessRecord(
  block: ToolCallBlock | ToolResponseBlock,
  record: Omit<LosslessRecord, 'metadata'>,
): ProviderMetadata {
  const providerMetadata = block.providerMetadata;
  const ownKeys = providerMetadata?.[providerKey];
  const metadata: LosslessRecord['metadata'] =
    providerMetadata === undefined ? 'absent' : ownKeys === undefined ? 'present' : 'with-ctx';
  return {
    ...providerMetadata,
    [providerKey]: { ...ownKeys, [recordKey]: copyAsJson({ ...record, metadata }) },
  };
}

/**
 * The block's provider metadata as it was before the record was added.
 *
 * @param block - A rewritten block.
 * @param record - Its record.
 * @returns The original provider metadata, or undefined when the block had none.
 * @example
 * ```ts
 * const providerMetadata = withoutLosslessRecord(block, record);
 * ```
 */
export function withoutLosslessRecord(
  block: ToolCallBlock | ToolResponseBlock,
  record: LosslessRecord,
): ProviderMetadata | undefined {
  if (record.metadata === 'absent') return undefined;
  // Rebuilt key by key so that the keys keep their original order.
  return Object.fromEntries(
    Object.entries(block.providerMetadata ?? {}).flatMap(([key, value]) => {
      if (key !== providerKey) return [[key, value]];
      if (record.metadata === 'present') return [];
      const { [recordKey]: _record, ...ownRest } = value;
      return [[key, ownRest]];
    }),
  );
}
