import type { Tokenizer } from '@ctx/core';

/** Encodings offered through tiktoken. */
export type TiktokenEncodingName = 'o200k_base' | 'cl100k_base';

/** Options of {@link createTiktokenTokenizer}. */
export interface TiktokenTokenizerOptions {
  /**
   * The encoding.
   * @default 'o200k_base'
   */
  readonly encoding?: TiktokenEncodingName;
}

/** A tiktoken-backed tokenizer. It holds WASM memory: call `dispose()` when done with it. */
export interface TiktokenTokenizer extends Tokenizer {
  /** Frees the encoder's WASM memory. The tokenizer must not be used afterwards. */
  dispose(): void;
}

/**
 * Creates a ctx tokenizer backed by tiktoken (OpenAI's tokenizer compiled to WASM). Counts agree with
 * `@ctx/tokenizer-gpt-tokenizer` for the same encoding; gpt-tokenizer is faster and the default, this package is
 * the alternative for applications that already ship tiktoken. Special-token strings are counted as text.
 *
 * @example
 * ```ts
 * const tokenizer = await createTiktokenTokenizer();
 * tokenizer.countTokens('hello world'); // 2
 * tokenizer.dispose();
 * ```
 */
export async function createTiktokenTokenizer(options: TiktokenTokenizerOptions = {}): Promise<TiktokenTokenizer> {
  const encodingName = options.encoding ?? 'o200k_base';
  const { get_encoding } = await import('tiktoken');
  const encoder = get_encoding(encodingName);
  let disposed = false;
  return {
    specificationVersion: 'v1',
    name: `tiktoken:${encodingName}`,
    // Both encodings' pre-tokenizers never make a token across a line start (see the property's TSDoc); tested.
    additiveAtLineStarts: true,
    // Empty allowed and disallowed lists: special-token strings are encoded as ordinary text.
    countTokens: (text) => encoder.encode(text, [], []).length,
    dispose: () => {
      if (disposed) return;
      disposed = true;
      encoder.free();
    },
  };
}
