import type { CompressionContext } from '@ctx/core';

/**
 * The custom condensing prompt in effect for one `compress()` call (spec 004 FR-PR-003): the condensing API
 * profile's prompt (`context.condensingPrompt`), else the strategy's own `customPrompt` setting, else none (the
 * built-in prompt). Spread into {@link buildSummaryInstructions}' options.
 *
 * @example
 * ```ts
 * buildSummaryInstructions({ ...customPromptOf(context, settings), maxSummaryTokens });
 * ```
 */
export function customPromptOf(
  context: Pick<CompressionContext, 'condensingPrompt'>,
  settings: { readonly customPrompt?: string | undefined },
): { readonly customPrompt?: string } {
  const customPrompt = context.condensingPrompt ?? settings.customPrompt;
  return customPrompt === undefined ? {} : { customPrompt };
}
