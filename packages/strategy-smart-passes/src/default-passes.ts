import type { PassConfigInput } from './smart-passes-settings.js';

/**
 * The passes used when the settings give none (FR-SM-006's progressive refinement):
 *
 * 1. `truncate-old-tool-results` (always): outside the 10 newest entries, tool results over 5 lines or 1,000
 *    characters keep their beginning, and tool-call parameter strings over 200 characters are truncated.
 * 2. `suppress-very-old-tool-results` (always): in the older half of the history, the output of tools that do not
 *    read or change files (shell, search, list, other) is replaced by `⟨ Content suppressed ⟩`; file contents stay.
 *
 * Both are mechanical, so the default strategy needs no model (`requiresLLM: false`). Add
 * {@link summarizeOldToolResultsPass} to summarize what is still long with a model.
 *
 * User text, assistant text, thinking and error results are never changed by them.
 */
export const defaultPasses: readonly PassConfigInput[] = Object.freeze([
  {
    id: 'truncate-old-tool-results',
    name: 'Truncate old tool results',
    description: 'Outside the 10 newest entries, keep the beginning of long tool results and parameter strings.',
    selection: { type: 'preserve_recent', keepRecentCount: 10 },
    mode: 'individual',
    individualConfig: { defaults: { messageText: 'keep', toolParameters: 'truncate', toolResults: 'truncate' } },
    execution: { type: 'always' },
  },
  {
    id: 'suppress-very-old-tool-results',
    name: 'Suppress very old tool output',
    description: 'In the older half of the history, replace the output of shell, search and list tools with a marker.',
    selection: { type: 'preserve_percent', keepPercentage: 50 },
    mode: 'individual',
    individualConfig: { defaults: { messageText: 'keep', toolParameters: 'keep', toolResults: 'suppress' } },
    toolKinds: ['shell', 'search', 'list', 'other'],
    execution: { type: 'always' },
  },
]);

/**
 * An optional third pass for {@link defaultPasses} (FR-SM-006's conditional fallback): when the request is still over
 * 40,000 tokens, tool results outside the 4 newest entries that are still over the limits are summarized by the
 * summarizer (at most 200 tokens each), or truncated with a `fallback` warning when there is none. A configuration
 * with it declares `requiresLLM: true`.
 *
 * @example
 * ```ts
 * createSmartPassesStrategy({ passes: [...defaultPasses, summarizeOldToolResultsPass] });
 * ```
 */
export const summarizeOldToolResultsPass: PassConfigInput = Object.freeze<PassConfigInput>({
    id: 'summarize-old-tool-results',
    name: 'Summarize old tool results',
    description: 'When the request is still large, summarize long tool results outside the 4 newest entries.',
    selection: { type: 'preserve_recent', keepRecentCount: 4 },
    mode: 'individual',
    individualConfig: {
      defaults: {
        messageText: 'keep',
        toolParameters: 'keep',
        toolResults: { operation: 'summarize', params: { summarize: { maxTokens: 200 } } },
      },
    },
    execution: { type: 'conditional', condition: { tokenThreshold: 40_000 } },
  });
