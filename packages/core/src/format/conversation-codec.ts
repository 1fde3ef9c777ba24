import type { Conversation } from '../history/conversation.js';

/**
 * Something a codec could not carry over exactly. Decoding never drops data silently: what cannot be represented
 * is reported here (and, where possible, kept in `providerMetadata`).
 */
export interface FormatWarning {
  /**
   * - `lossy`: information was dropped or approximated (e.g. thinking blocks encoded for a provider without them).
   * - `unsupported`: a construct the codec does not understand was skipped or kept opaque.
   * - `malformed`: a part of the input (e.g. one JSON line) could not be read; the rest was.
   */
  readonly type: 'lossy' | 'unsupported' | 'malformed' | 'other';
  readonly message: string;
  /** Where, e.g. `messages[3].content[1]`. */
  readonly path?: string;
  /** 1-based line number, for line-based inputs. */
  readonly line?: number;
}

/** A decoded conversation and what could not be carried over. */
export interface DecodeResult {
  readonly conversation: Conversation;
  readonly warnings: readonly FormatWarning[];
}

/** An encoded value in the codec's own format and what could not be carried over. */
export interface EncodeResult<Native> {
  readonly value: Native;
  readonly warnings: readonly FormatWarning[];
}

/**
 * Reads a format into the canonical conversation, for formats that cannot be written back exactly (e.g. Claude Code
 * session files, whose progress and hook records are not part of the history). `decode` validates its input and
 * throws `InvalidFormatError` naming the failing paths; what it cannot carry over is a warning.
 */
export interface ConversationDecoder {
  readonly specificationVersion: 'v1';
  /** Stable format id, e.g. `claude-code-session`. */
  readonly format: string;
  decode(input: unknown): DecodeResult;
}

/**
 * Converts between a provider's (or agent's) message format and the canonical conversation.
 *
 * Contract: `encode(decode(x).conversation).value` deep-equals `x` for every valid `x` of the codec's own format
 * (exact round trip; provider extras travel in `providerMetadata`). Encoding a conversation that came from another
 * format may lose information; every loss is a warning. `decode` validates its input and throws
 * `InvalidFormatError` naming the failing paths.
 *
 * @typeParam Native - The format's own value, e.g. `{ system, messages, tools }` for Anthropic Messages.
 */
export interface ConversationCodec<Native> extends ConversationDecoder {
  encode(conversation: Conversation): EncodeResult<Native>;
}
