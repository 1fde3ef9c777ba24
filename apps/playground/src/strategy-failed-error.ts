import { CtxError } from '@ctx/core';

const marker = 'ctx.error.StrategyFailedError';
const symbol = Symbol.for(marker);

/** A strategy method the playground calls. */
export type StrategyMethod = 'optimize' | 'compress' | 'expand';

/**
 * Messages V8 gives a write to a frozen object or array: the history a strategy receives is deep-frozen, so these
 * mean the strategy tried to change its input.
 */
const frozenWrite = /read only property|not extensible|Cannot delete property|Cannot redefine property|sealed|frozen/i;

function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0] ?? '';
}

/**
 * A strategy threw while the playground ran it (its own code failed, or it tried to change the frozen history it was
 * given). The message is one line naming the strategy, the method and what happened; `cause` is the strategy's own
 * error, whose stack `--debug` prints. Exit code 1.
 */
export class StrategyFailedError extends CtxError {
  private readonly [symbol] = true;

  /** The strategy's name. */
  readonly strategyName: string;
  /** The method that threw, when known. */
  readonly method: StrategyMethod | undefined;
  /** True when the error is a write to the frozen input: the strategy tried to mutate the history it was given. */
  readonly mutatedInput: boolean;

  /**
   * @param options - `strategyName`, the `method` that threw (when known) and the strategy's error as `cause`.
   */
  constructor({ strategyName, method, cause }: { strategyName: string; method?: StrategyMethod; cause: unknown }) {
    const mutatedInput = cause instanceof TypeError && frozenWrite.test(cause.message);
    const where = method === undefined ? '' : ` in ${method}()`;
    super({
      name: 'StrategyFailedError',
      message: mutatedInput
        ? `strategy "${strategyName}" changed the history it was given${where} (${firstLine(cause)}); a strategy must leave its input unchanged and return a new history`
        : `strategy "${strategyName}" threw${where}: ${firstLine(cause)}`,
      cause,
    });
    this.strategyName = strategyName;
    this.method = method;
    this.mutatedInput = mutatedInput;
  }

  /** Returns true when `error` is a `StrategyFailedError` from any copy of the playground. */
  static override isInstance(error: unknown): error is StrategyFailedError {
    return CtxError.hasMarker(error, marker);
  }
}
