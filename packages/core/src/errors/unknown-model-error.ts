import { CtxError } from './ctx-error.js';

const name = 'UnknownModelError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown by a `@ctx/cost-*` package when it has no price for the model asked for. The message lists the models it
 * knows and how to pass prices of your own.
 */
export class UnknownModelError extends CtxError {
  private readonly [symbol] = true;

  /** The model id that was asked for, as given. */
  readonly model: string;
  /** The provider whose price table was searched, e.g. `anthropic`. */
  readonly provider: string;
  /** The canonical model ids the price table knows. */
  readonly known: readonly string[];

  /**
   * @param options - `model`: the id asked for; `provider`: whose table was searched; `known`: the ids it knows;
   *   `fix`: how to pass your own prices, e.g. `createAnthropicCostModel({ model: 'x', … })`.
   */
  constructor({
    model,
    provider,
    known,
    fix,
  }: {
    model: string;
    provider: string;
    known: readonly string[];
    fix?: string;
  }) {
    const knownText = known.length === 0 ? 'no model is known' : `known: ${known.join(', ')}`;
    const fixText = fix === undefined ? 'Pass your own prices instead of a model id.' : `Pass your own prices: ${fix}`;
    super({ name, message: `No price for model "${model}" (${provider}); ${knownText}. ${fixText}` });
    this.model = model;
    this.provider = provider;
    this.known = known;
  }

  /** Returns true when `error` is an `UnknownModelError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is UnknownModelError {
    return CtxError.hasMarker(error, marker);
  }
}
