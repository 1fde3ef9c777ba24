import { CtxError } from '@ctx/core';

const name = 'UnsupportedPromptError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown (and, with the default `onError: 'pass-through'`, only reported) when a language-model prompt holds a part
 * ctx cannot carry through its history without loss, e.g. a file given by provider reference or as text (AI SDK 7).
 * The call then goes to the model with its prompt unchanged.
 */
export class UnsupportedPromptError extends CtxError {
  private readonly [symbol] = true;

  /** Where the part is, e.g. `prompt[3].content[1]`. */
  readonly path: string;

  constructor({ path, found, cause }: { path: string; found: string; cause?: unknown }) {
    super({
      name,
      message: `Expected a prompt part ctx can carry (text, file with inline or URL data, reasoning, tool call, tool result, tool approval response), found ${found} at ${path}. The prompt is sent unchanged; file an issue if this part should be compressed.`,
      cause,
    });
    this.path = path;
  }

  /** Returns true when `error` is an `UnsupportedPromptError` from any copy of `@ctx/ai-sdk`. */
  static override isInstance(error: unknown): error is UnsupportedPromptError {
    return CtxError.hasMarker(error, marker);
  }
}
