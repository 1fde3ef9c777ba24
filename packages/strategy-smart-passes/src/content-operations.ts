import type { ContentOperation, ContentOperationConfig } from './smart-passes-settings.js';
import type { TruncationLimits } from './shorten-text.js';

/** The three content types of spec 004 FR-SM-001. */
export type ContentType = 'messageText' | 'toolParameters' | 'toolResults';

/** An operation with every parameter resolved for one content type. */
export interface ResolvedOperation {
  readonly operation: ContentOperation;
  /** Limits of `truncate`, and of what `summarize` considers worth a model call (and falls back to). */
  readonly truncate: TruncationLimits;
  readonly summarize: { readonly apiProfile?: string; readonly maxTokens?: number; readonly customPrompt?: string };
}

/**
 * The `truncate` limits when a pass gives none: 5 lines or 1,000 characters of a tool result, 200 characters of each
 * tool-call parameter string, 500 characters of assistant text.
 */
export const defaultTruncationLimits: Readonly<Record<ContentType, TruncationLimits>> = Object.freeze({
  toolResults: { maxChars: 1_000, maxLines: 5, addEllipsis: true },
  toolParameters: { maxChars: 200, addEllipsis: true },
  messageText: { maxChars: 500, addEllipsis: true },
});

/**
 * Resolves an operation as written in settings for one content type, filling in the default limits.
 *
 * @param config - `'truncate'` or `{ operation: 'truncate', params: { truncate: { maxLines: 10 } } }`.
 * @param type - The content type it applies to.
 * @returns The operation and its parameters.
 */
export function resolveOperation(config: ContentOperationConfig, type: ContentType): ResolvedOperation {
  const defaults = defaultTruncationLimits[type];
  if (typeof config === 'string') return { operation: config, truncate: defaults, summarize: {} };
  const truncate = config.params?.truncate;
  const maxLines = truncate?.maxLines ?? defaults.maxLines;
  return {
    operation: config.operation,
    truncate: {
      maxChars: truncate?.maxChars ?? defaults.maxChars,
      ...(maxLines === undefined ? {} : { maxLines }),
      addEllipsis: truncate?.addEllipsis ?? defaults.addEllipsis,
    },
    summarize: { ...config.params?.summarize },
  };
}
