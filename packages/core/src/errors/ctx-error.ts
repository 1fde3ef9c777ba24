const marker = 'ctx.error';
const symbol = Symbol.for(marker);

/**
 * Base class of every error thrown by ctx packages.
 *
 * Use the static `isInstance` checks instead of `instanceof`: they rely on a global symbol marker, so they keep
 * working when an application ends up with two copies of a ctx package (for example a strategy bundling its own
 * `@ctx/core`).
 *
 * @example
 * ```ts
 * try {
 *   await history.applyDensityResult(result);
 * } catch (error) {
 *   if (CompressionStrategyError.isInstance(error)) console.warn(error.message);
 *   else throw error;
 * }
 * ```
 */
export class CtxError extends Error {
  private readonly [symbol] = true;

  /**
   * @param options - `name`: the error name, one per subclass; `message`: what was expected, what was found, and how
   *   to fix it; `cause`: the underlying error, if any.
   */
  constructor({ name, message, cause }: { name: string; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = name;
  }

  /** Returns true when `error` is any ctx error, from any copy of `@ctx/core`. */
  static isInstance(error: unknown): error is CtxError {
    return CtxError.hasMarker(error, marker);
  }

  /** Checks for the global marker symbol of a ctx error class. */
  protected static hasMarker(error: unknown, markerName: string): boolean {
    const markerSymbol = Symbol.for(markerName);
    return (
      error != null &&
      typeof error === 'object' &&
      markerSymbol in error &&
      (error as Record<symbol, unknown>)[markerSymbol] === true
    );
  }
}
