import { CtxError } from '@ctx/core';

const name = 'UnknownClaudeCodeRecordError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown when a conversion is asked to end at a record the session does not have (e.g. a `leafUuid` from another
 * file).
 */
export class UnknownClaudeCodeRecordError extends CtxError {
  private readonly [symbol] = true;

  /** The uuid that was asked for. */
  readonly uuid: string;

  /**
   * @param options - `uuid`: the record that was asked for; `cause`: the underlying error, if any.
   */
  constructor({ uuid, cause }: { uuid: string; cause?: unknown }) {
    super({
      name,
      message: `Expected \`leafUuid\` to name a record of this session, got \`${uuid}\`: use session.leafUuid, a sidechain's or an abandoned branch's leafUuid, or omit it`,
      cause,
    });
    this.uuid = uuid;
  }

  /** Returns true when `error` is an `UnknownClaudeCodeRecordError` from any copy of this package. */
  static override isInstance(error: unknown): error is UnknownClaudeCodeRecordError {
    return CtxError.hasMarker(error, marker);
  }
}
