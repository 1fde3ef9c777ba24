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
  /**
   * Declares that counts add up at line starts: `countTokens(a + b) === countTokens(a) + countTokens(b)` whenever
   * `a` ends with `\n` and `b` starts with neither `\r`, `\n` nor `/`, and any spaces or tabs `b` starts with are
   * followed by a character that is not white space. True of the o200k and cl100k encodings (their pre-tokenizer
   * never makes a token across such a point; BPE then works piece by piece); not of GPT-2-style encodings (r50k,
   * p50k), whose white-space rule can span a line break.
   *
   * When set, `createTokenCounter` counts a long text as the sum of its chunks (split at such line starts, chosen by
   * the content of the line, so an edit moves no boundary away from it) and caches each chunk: a rewritten block
   * costs the tokenizer only the chunks that changed, with exactly the count the whole text would get. Leave it unset unless it holds for every input: a wrong claim makes counts wrong.
   * @default false
   */
  readonly additiveAtLineStarts?: boolean;
}
