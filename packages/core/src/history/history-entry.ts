import { z } from 'zod';
import { contentBlockSchema, type ContentBlock } from './content-block.js';
import { providerMetadataSchema, type ProviderMetadata } from './provider-metadata.js';

/** Who produced an entry: the user, the model, or a tool. */
export type Speaker = 'human' | 'ai' | 'tool';

/** Token usage a provider reported for the request that produced an entry. */
export interface EntryUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  readonly totalTokens?: number;
}

/** Facts about an entry that are not content. None of it is sent to a model. */
export interface EntryMetadata {
  /** A stable id (e.g. a Claude Code record uuid or a provider message id). */
  readonly id?: string;
  /** When the entry was recorded, as an ISO-8601 string. */
  readonly timestamp?: string;
  /** The model that produced an `ai` entry. */
  readonly model?: string;
  readonly usage?: EntryUsage;
  /** Provider extras kept untouched for exact round trips. */
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * One entry of the canonical history (spec 000 calls it `IContent`): a speaker and an ordered list of blocks.
 *
 * Structure rules, enforced when entries are parsed: `tool_call` and `thinking` blocks appear only in `ai`
 * entries, `tool_response` blocks only in `tool` entries. A `tool` entry answers calls of the `ai` turn right
 * before it (see {@link findToolPairingProblems}).
 *
 * @example
 * ```ts
 * const entry: HistoryEntry = { speaker: 'human', blocks: [{ type: 'text', text: 'Fix the failing test' }] };
 * ```
 */
export interface HistoryEntry {
  readonly speaker: Speaker;
  readonly blocks: readonly ContentBlock[];
  readonly metadata?: EntryMetadata;
}

const tokenCountSchema = z.int().nonnegative();

const entryUsageSchema = z.strictObject({
  inputTokens: tokenCountSchema.optional(),
  outputTokens: tokenCountSchema.optional(),
  cacheReadTokens: tokenCountSchema.optional(),
  cacheWriteTokens: tokenCountSchema.optional(),
  totalTokens: tokenCountSchema.optional(),
}) satisfies z.ZodType<EntryUsage>;

const entryMetadataSchema = z.strictObject({
  id: z.string().optional(),
  timestamp: z.string().optional(),
  model: z.string().optional(),
  usage: entryUsageSchema.optional(),
  providerMetadata: providerMetadataSchema.optional(),
}) satisfies z.ZodType<EntryMetadata>;

const allowedBlocks: Readonly<Record<Speaker, ReadonlySet<ContentBlock['type']>>> = {
  human: new Set(['text', 'media']),
  ai: new Set(['text', 'tool_call', 'thinking', 'media']),
  tool: new Set(['text', 'tool_response', 'media']),
};

/** Schema of a {@link HistoryEntry}, including the block placement rules. */
export const historyEntrySchema = z
  .strictObject({
    speaker: z.enum(['human', 'ai', 'tool']),
    blocks: z.array(contentBlockSchema),
    metadata: entryMetadataSchema.optional(),
  })
  .superRefine((entry, context) => {
    const allowed = allowedBlocks[entry.speaker];
    entry.blocks.forEach((block, index) => {
      if (!allowed.has(block.type)) {
        context.addIssue({
          code: 'custom',
          path: ['blocks', index, 'type'],
          message: `Expected one of ${[...allowed].join(', ')} in a ${entry.speaker} entry, found ${block.type}`,
        });
      }
    });
  }) satisfies z.ZodType<HistoryEntry>;
