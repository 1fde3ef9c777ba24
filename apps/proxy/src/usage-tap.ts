import type { ProviderDialect } from './provider-error-response.js';

/** How much of the start and of the end of a response is kept to find its usage figures. */
const windowCharacters = 64 * 1024;

function firstNumber(text: string, field: string): number | undefined {
  const match = new RegExp(`"${field}"\\s*:\\s*(\\d+)`).exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The input size a response reports, counted as the orchestrator's calibration wants it (cached tokens included):
 * Anthropic `input_tokens + cache_creation_input_tokens + cache_read_input_tokens` (in a JSON response, or in the
 * `message_start` event of a stream), OpenAI `prompt_tokens` (in a JSON response, or in the last chunk of a stream
 * asked for with `stream_options.include_usage`).
 *
 * @param dialect - The API the response speaks.
 * @param text - The start and the end of the response body.
 * @returns The input tokens, or undefined when the response does not say.
 */
export function readReportedInputTokens(dialect: ProviderDialect, text: string): number | undefined {
  if (dialect === 'openai') return firstNumber(text, 'prompt_tokens');
  const input = firstNumber(text, 'input_tokens');
  if (input === undefined) return undefined;
  return input + (firstNumber(text, 'cache_creation_input_tokens') ?? 0) + (firstNumber(text, 'cache_read_input_tokens') ?? 0);
}

/**
 * Passes a response body through unchanged, chunk by chunk as it arrives, and reports the input size it states
 * once it has ended. Only the first and last 64 KiB are looked at, so memory stays bounded for any response size.
 *
 * @param body - The upstream response body.
 * @param dialect - The API the response speaks.
 * @param onInputTokens - Called once at the end when the response stated its input size.
 */
export function tapReportedUsage(
  body: ReadableStream<Uint8Array>,
  dialect: ProviderDialect,
  onInputTokens: (inputTokens: number) => void,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let head = '';
  let tail = '';
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      const text = decoder.decode(chunk, { stream: true });
      if (head.length < windowCharacters) head += text.slice(0, windowCharacters - head.length);
      tail = (tail + text).slice(-windowCharacters);
    },
    flush() {
      const inputTokens = readReportedInputTokens(dialect, head.length < windowCharacters ? head : `${head}\n${tail}`);
      if (inputTokens !== undefined) onInputTokens(inputTokens);
    },
  });
  return body.pipeThrough(transform);
}
