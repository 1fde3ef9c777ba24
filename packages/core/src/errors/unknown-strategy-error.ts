import { CtxError } from './ctx-error.js';

const name = 'UnknownStrategyError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/** Renders any value for a message; never throws (BigInts and circular objects included). */
function describeValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Thrown when a strategy name is not registered (spec 000 ERR-001). The message lists the known names.
 */
export class UnknownStrategyError extends CtxError {
  private readonly [symbol] = true;

  /** The name that was asked for, as given. */
  readonly strategyName: unknown;
  /** The names that are registered. */
  readonly knownNames: readonly string[];

  constructor({ strategyName, knownNames }: { strategyName: unknown; knownNames: readonly string[] }) {
    const known = knownNames.length === 0 ? 'no strategy is registered' : `known strategies: ${knownNames.join(', ')}`;
    super({
      name,
      message: `Unknown compression strategy ${describeValue(strategyName)}; ${known}. Install and register the strategy's package, or pick one of the known names.`,
    });
    this.strategyName = strategyName;
    this.knownNames = knownNames;
  }

  /** Returns true when `error` is an `UnknownStrategyError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is UnknownStrategyError {
    return CtxError.hasMarker(error, marker);
  }
}
