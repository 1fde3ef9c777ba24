/**
 * Counts tokens in text. Implementations live in their own packages (`@ctx/tokenizer-gpt-tokenizer`, the default,
 * and `@ctx/tokenizer-tiktoken`) so core stays dependency-free and browser-safe.
 *
 * Implementations must treat special-token strings such as `<|endoftext|>` as ordinary text (real transcripts
 * contain them) and must be deterministic.
 */
export interface Tokenizer {
  readonly specificationVersion: 'v1';
  /** Identifies the tokenizer and encoding in reports, e.g. `gpt-tokenizer:o200k_base`. */
  readonly name: string;
  /** Number of tokens in `text`. */
  countTokens(text: string): number;
}
