import { DEFAULT_COMPRESSION_THRESHOLD } from '@ctx/core';
import { z } from 'zod';
import { defaultPasses } from './default-passes.js';

const count = (minimum: number) =>
  z.int(`Expected an integer ≥ ${minimum}`).min(minimum, `Expected an integer ≥ ${minimum}`);

const operationNameSchema = z.enum(['keep', 'suppress', 'truncate', 'summarize'], {
  error: 'Expected "keep", "suppress", "truncate" or "summarize"',
});

const truncateParamsSchema = z.strictObject({
  /** Characters kept of each piece (a tool result, a parameter string, an assistant text). */
  maxChars: count(1).optional(),
  /** Lines kept of each piece. */
  maxLines: count(1).optional(),
  /**
   * Append `⟨ ... truncated N lines ⟩` to what is kept.
   * @default true
   */
  addEllipsis: z.boolean().optional(),
});

const summarizeParamsSchema = z.strictObject({
  /** A summarizer passed as `runtime.summarizers[apiProfile]`; the context's summarizer when unset. */
  apiProfile: z.string().min(1, 'Expected a non-empty profile name').optional(),
  /** The longest summary of one piece, in tokens. */
  maxTokens: count(1).optional(),
  /** Instructions that replace the built-in ones. */
  customPrompt: z.string().min(1, 'Expected a non-empty prompt').optional(),
});

const operationConfigSchema = z.union(
  [
    operationNameSchema,
    z.strictObject({
      operation: operationNameSchema,
      params: z
        .strictObject({ truncate: truncateParamsSchema.optional(), summarize: summarizeParamsSchema.optional() })
        .optional(),
    }),
  ],
  { error: 'Expected an operation ("keep", "suppress", "truncate", "summarize") or { operation, params }' },
);

const contentOperationsSchema = z.strictObject({
  /** Assistant text (user-typed text is never changed). @default 'keep' */
  messageText: operationConfigSchema.default('keep'),
  /** String values of tool-call parameters. @default 'keep' */
  toolParameters: operationConfigSchema.default('keep'),
  /** Tool output. @default 'keep' */
  toolResults: operationConfigSchema.default('keep'),
});

const selectionSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('preserve_recent'), keepRecentCount: count(0) }),
    z.strictObject({
      type: z.literal('preserve_percent'),
      keepPercentage: z
        .number('Expected a percentage between 0 and 100')
        .min(0, 'Expected a percentage between 0 and 100')
        .max(100, 'Expected a percentage between 0 and 100'),
    }),
    z.strictObject({ type: z.literal('custom'), from: z.int('Expected an integer').optional(), to: z.int('Expected an integer').optional() }),
  ],
  { error: 'Expected a selection of type "preserve_recent", "preserve_percent" or "custom"' },
);

const executionSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('always') }),
    z.strictObject({ type: z.literal('conditional'), condition: z.strictObject({ tokenThreshold: count(0) }) }),
  ],
  { error: 'Expected an execution of type "always" or "conditional" (with condition.tokenThreshold)' },
);

const toolKindSchema = z.enum(['read', 'write', 'edit', 'list', 'search', 'shell', 'todo', 'other'], {
  error: 'Expected a tool kind: read, write, edit, list, search, shell, todo or other',
});

const passSchema = z
  .strictObject({
    /** Unique kebab-case id; names the pass in `metadata.counts` (`<id>.tokensSaved`). */
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Expected a kebab-case id such as "truncate-old-results"'),
    name: z.string().min(1, 'Expected a non-empty name'),
    description: z.string().optional(),
    selection: selectionSchema,
    mode: z.enum(['batch', 'individual'], { error: 'Expected "batch" or "individual"' }),
    batchConfig: z
      .strictObject({
        operation: z.enum(['keep', 'summarize'], { error: 'Expected "keep" or "summarize"' }),
        summarizationConfig: z
          .strictObject({
            apiProfile: z.string().min(1, 'Expected a non-empty profile name').optional(),
            customPrompt: z.string().min(1, 'Expected a non-empty prompt').optional(),
            /** Selected entries kept before the summary (the first is usually the user's task). @default 1 */
            keepFirst: count(0).default(1),
            /** Selected entries kept after the summary. @default 0 */
            keepLast: count(0).default(0),
            maxTokens: count(1).optional(),
          })
          .prefault({}),
      })
      .optional(),
    individualConfig: z
      .strictObject({
        defaults: contentOperationsSchema,
        overrides: z
          .array(
            z.strictObject({
              messageIndex: count(0),
              operations: z.strictObject({
                messageText: operationConfigSchema.optional(),
                toolParameters: operationConfigSchema.optional(),
                toolResults: operationConfigSchema.optional(),
              }),
            }),
          )
          .default([]),
        /** Tool results that report an error keep their text. @default true */
        keepErrors: z.boolean().default(true),
      })
      .optional(),
    toolKinds: z.array(toolKindSchema).min(1, 'Expected at least one tool kind, or leave toolKinds out for all').optional(),
    /**
     * `superseded`: tool results and parameters are touched only where they hold file content a later read or write
     * of the same file replaced (`findSupersededFileContent` from `@ctx/strategy-utils`), so every file's latest
     * state stays. Individual mode only.
     * @default 'all'
     */
    fileContent: z.enum(['all', 'superseded'], { error: 'Expected "all" or "superseded"' }).default('all'),
    execution: executionSchema,
  })
  .superRefine((pass, context) => {
    if (pass.mode === 'batch' && pass.batchConfig === undefined) {
      context.addIssue({ code: 'custom', path: ['batchConfig'], message: 'Expected batchConfig for a pass with mode "batch", found none: add batchConfig: { operation: "summarize" }' });
    }
    if (pass.mode === 'batch' && pass.fileContent === 'superseded') {
      context.addIssue({ code: 'custom', path: ['fileContent'], message: 'Expected fileContent "all" for a pass with mode "batch" (a batch summary covers whole entries), found "superseded": use mode "individual"' });
    }
    if (pass.mode === 'individual' && pass.individualConfig === undefined) {
      context.addIssue({ code: 'custom', path: ['individualConfig'], message: 'Expected individualConfig for a pass with mode "individual", found none: add individualConfig: { defaults: { toolResults: "truncate" } }' });
    }
  });

/** The settings schema; defaults live here. */
export const smartPassesSettingsSchema = z
  .strictObject({
    /**
     * `threshold`: the passes run in `compress()` when the context passes the threshold. `continuous`: the strategy
     * also implements `optimize()`, running the prelude's `optimize()` and every `always` pass whose operations are
     * keep, suppress or truncate before each send; summarize and batch passes wait for `compress()`.
     * @default 'threshold'
     */
    trigger: z.enum(['threshold', 'continuous'], { error: 'Expected "threshold" or "continuous"' }).default('threshold'),
    /**
     * Fraction of the context window at which the orchestrator compresses when no setting overrides it.
     * @default 0.85
     */
    threshold: z
      .number('Expected a number in (0, 1]')
      .gt(0, 'Expected a number in (0, 1]')
      .max(1, 'Expected a number in (0, 1]')
      .default(DEFAULT_COMPRESSION_THRESHOLD),
    /**
     * Run a lossless strategy first (FR-SM-003). The strategy itself is passed at run time:
     * `createSmartPassesStrategy(settings, { prelude: createLosslessStrategy({...}) })`. `operations` states which
     * lossless operations you expect; a prelude whose settings say otherwise is rejected.
     * @default undefined (no prelude)
     */
    losslessPrelude: z
      .strictObject({
        enabled: z.boolean(),
        operations: z
          .strictObject({
            deduplicateFileReads: z.boolean().optional(),
            consolidateToolResults: z.boolean().optional(),
            removeObsoleteState: z.boolean().optional(),
          })
          .optional(),
      })
      .optional(),
    /**
     * Before the passes, rewrite each file's latest whole-file read into the file's current content: line numbers
     * and harness reminders removed, later edits applied (their replacement strings then point at the read) — see
     * `foldFileStates` in `@ctx/strategy-utils`. The latest state of every file stays, once and smaller. Our
     * extension of spec 004's smart provider.
     * @default false
     */
    foldFileStates: z.boolean().default(false),
    /**
     * The passes, run in order (see the README for the defaults).
     * @default two passes: truncate old tool results and parameters, suppress very old non-file tool results
     */
    // `prefault`, not `default`: the default passes go through the schema, so their own defaults are filled in.
    passes: z.array(passSchema).prefault(() => structuredClone(defaultPasses) as PassConfigInput[]),
  })
  .superRefine((settings, context) => {
    const seen = new Set<string>();
    settings.passes.forEach((pass, index) => {
      if (seen.has(pass.id)) {
        context.addIssue({ code: 'custom', path: ['passes', index, 'id'], message: `Expected unique pass ids, found "${pass.id}" twice: rename one` });
      }
      seen.add(pass.id);
    });
    if (settings.passes.length === 0 && settings.losslessPrelude?.enabled !== true && !settings.foldFileStates) {
      context.addIssue({ code: 'custom', path: ['passes'], message: 'Expected at least one pass (or losslessPrelude.enabled, or foldFileStates), found none' });
    }
  });

/** One of the four operations of FR-SM-002. */
export type ContentOperation = z.output<typeof operationNameSchema>;

/** An operation as written in settings: its name, or `{ operation, params }`. */
export type ContentOperationConfig = z.input<typeof operationConfigSchema>;

/** The kinds of tool call a pass can be limited to (`toolKinds`), from `@ctx/strategy-utils` tool semantics. */
export type PassToolKind = z.output<typeof toolKindSchema>;

/** One pass, defaults filled in. */
export type PassConfig = z.output<typeof passSchema>;

/** One pass as a user writes it. */
export type PassConfigInput = z.input<typeof passSchema>;

/** Settings of the smart-passes strategy, defaults filled in. */
export type SmartPassesSettings = z.output<typeof smartPassesSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type SmartPassesSettingsInput = z.input<typeof smartPassesSettingsSchema>;
