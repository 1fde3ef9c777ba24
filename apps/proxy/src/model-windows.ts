/**
 * Context windows of well-known models, in tokens, matched by prefix of the request's `model` (the longest matching
 * prefix wins). Used when the proxy is started without `--window`. Windows of models with a larger beta window (for
 * example Claude's 1M-token one) are the default size: pass `--window` to use more.
 */
export const knownModelWindows: Readonly<Record<string, number>> = Object.freeze({
  'claude-': 200_000,
  'gpt-4o': 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-5': 400_000,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  o3: 200_000,
  'o4-mini': 200_000,
  'deepseek-': 128_000,
  'gemini-': 1_048_576,
});

/**
 * The window used for a model that is neither in {@link knownModelWindows} nor covered by `--window`: small enough
 * to be safe for most current models.
 */
export const fallbackModelWindow = 128_000;

/**
 * The context window of `model`: the longest prefix of {@link knownModelWindows} it starts with, else
 * {@link fallbackModelWindow}.
 *
 * @param model - The request's `model` field; anything else than a string gets the fallback.
 * @returns The window in tokens.
 */
export function lookUpModelWindow(model: unknown): number {
  if (typeof model !== 'string') return fallbackModelWindow;
  let best: string | undefined;
  for (const prefix of Object.keys(knownModelWindows)) {
    if (model.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? fallbackModelWindow : (knownModelWindows[best] ?? fallbackModelWindow);
}
