import type { LanguageModelPromptMessage, LanguageModelTool } from './language-model-prompt.js';

/**
 * The call options a middleware receives (`LanguageModelV3CallOptions` of AI SDK 6, `LanguageModelV4CallOptions` of
 * AI SDK 7), as far as ctx reads them. Every other field is handed on untouched.
 */
export interface LanguageModelCallParams {
  readonly prompt: readonly LanguageModelPromptMessage[];
  readonly tools?: readonly LanguageModelTool[] | undefined;
  readonly providerOptions?: Readonly<Record<string, unknown>> | undefined;
  readonly abortSignal?: AbortSignal | undefined;
}

/** The model a middleware wraps, as far as ctx reads it: its specification version tells AI SDK 6 (`v3`) from 7 (`v4`). */
export interface LanguageModelLike {
  readonly specificationVersion: string;
}

/** Reads the input tokens from a call's usage: AI SDK 6 and 7 report `{ inputTokens: { total } }`, AI SDK 5 a number. */
export function readInputTokens(usage: unknown): number | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const input = (usage as { inputTokens?: unknown }).inputTokens;
  const total = typeof input === 'object' && input !== null ? (input as { total?: unknown }).total : input;
  return typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : undefined;
}

/** The default conversation key: `providerOptions.ctx.conversationId`, when it is a non-empty string. */
export function readConversationId(params: LanguageModelCallParams): string | undefined {
  const ctx = params.providerOptions?.['ctx'];
  const id = typeof ctx === 'object' && ctx !== null ? (ctx as { conversationId?: unknown }).conversationId : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
