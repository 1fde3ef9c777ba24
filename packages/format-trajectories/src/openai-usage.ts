import { isJsonObject, type EntryUsage, type JsonValue } from '@ctx/core';

function count(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Reads an OpenAI-style `usage` object (`prompt_tokens`, `completion_tokens`, `total_tokens`,
 * `prompt_tokens_details.cached_tokens`), as recorded by mini-swe-agent and OpenHands, into entry usage.
 *
 * @param usage - The recorded value; anything else gives undefined.
 * @returns The usage, or undefined when no count is present.
 */
export function readOpenAiUsage(usage: JsonValue | undefined): EntryUsage | undefined {
  if (!isJsonObject(usage)) return undefined;
  const details = usage.prompt_tokens_details;
  const result: { -readonly [Key in keyof EntryUsage]: EntryUsage[Key] } = {};
  const inputTokens = count(usage.prompt_tokens);
  const outputTokens = count(usage.completion_tokens);
  const totalTokens = count(usage.total_tokens);
  const cacheReadTokens = isJsonObject(details) ? count(details.cached_tokens) : undefined;
  if (inputTokens !== undefined) result.inputTokens = inputTokens;
  if (outputTokens !== undefined) result.outputTokens = outputTokens;
  if (cacheReadTokens !== undefined) result.cacheReadTokens = cacheReadTokens;
  if (totalTokens !== undefined) result.totalTokens = totalTokens;
  return Object.keys(result).length > 0 ? result : undefined;
}
