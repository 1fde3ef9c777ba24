import type { JsonValue, ThinkingBlock } from '@ctx/core';
import type { AiSdkProviderOptions, AiSdkToolResultOutput } from './ai-sdk-prompt.js';

/*
 * What encode writes when the canonical block carries no AI SDK metadata. Decode stores a native field only when it
 * differs from what these derive, so a conversation that came from elsewhere round-trips without extra metadata.
 */

/**
 * The `providerOptions` of a reasoning part for a thinking block: Anthropic's `signature` / `redactedData` (the
 * signature goes under `google.thoughtSignature` when the block came from Gemini), none for a plain thought.
 */
export function deriveReasoningOptions(
  block: Pick<ThinkingBlock, 'thought' | 'signature' | 'redacted'>,
  origin: { readonly fromGemini: boolean },
): AiSdkProviderOptions | undefined {
  if (block.redacted === true) return { anthropic: { redactedData: block.thought } };
  if (block.signature === undefined) return undefined;
  return origin.fromGemini ? { google: { thoughtSignature: block.signature } } : { anthropic: { signature: block.signature } };
}

/** The tool output type for a result: `text` / `error-text` for strings, `json` / `error-json` otherwise. */
export function deriveToolOutputType(result: JsonValue, options: { readonly isError: boolean }): AiSdkToolResultOutput['type'] {
  if (typeof result === 'string') return options.isError ? 'error-text' : 'text';
  return options.isError ? 'error-json' : 'json';
}

/** True when message content is one text part without options: encode writes that as a plain string. */
export function isPlainTextPart(content: readonly { readonly type: string; readonly providerOptions?: unknown }[]): boolean {
  return content.length === 1 && content[0]?.type === 'text' && content[0].providerOptions === undefined;
}
