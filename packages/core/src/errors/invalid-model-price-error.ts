import { CtxError } from './ctx-error.js';
import { formatValidationIssues, type ValidationIssue } from './validation-issue.js';

const name = 'InvalidModelPriceError';
const marker = `ctx.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Thrown by a cost model (`@ctx/cost-*`) given prices of your own that cannot be used: a price that is not a finite
 * number ≥ 0, a missing model id. The message lists `field: problem` lines.
 */
export class InvalidModelPriceError extends CtxError {
  private readonly [symbol] = true;

  /** The model the prices were for, when it was given. */
  readonly model: string | undefined;
  /** Every rejected field. */
  readonly issues: readonly ValidationIssue[];

  constructor({ model, issues }: { model?: string | undefined; issues: readonly ValidationIssue[] }) {
    super({ name, message: `Invalid prices${model === undefined ? '' : ` for model "${model}"`}:\n${formatValidationIssues(issues)}` });
    this.model = model;
    this.issues = issues;
  }

  /**
   * Checks prices given as an object: `model` a non-empty string, and each of `priceFields` a finite number ≥ 0.
   *
   * @param prices - What the caller passed.
   * @param priceFields - The fields holding USD per million tokens.
   * @throws {@link InvalidModelPriceError} listing every bad field.
   */
  static check(prices: unknown, priceFields: readonly string[]): void {
    const record = (typeof prices === 'object' && prices !== null ? prices : {}) as Readonly<Record<string, unknown>>;
    const issues: ValidationIssue[] = [];
    const model = record['model'];
    if (typeof model !== 'string' || model === '') issues.push({ path: 'model', message: `Expected the model id, a non-empty string, got ${JSON.stringify(model) ?? 'nothing'}` });
    for (const field of priceFields) {
      const value = record[field];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        issues.push({ path: field, message: `Expected USD per million tokens, a finite number ≥ 0, got ${JSON.stringify(value) ?? 'nothing'}` });
      }
    }
    if (issues.length > 0) throw new InvalidModelPriceError({ model: typeof model === 'string' ? model : undefined, issues });
  }

  /** Returns true when `error` is an `InvalidModelPriceError` from any copy of `@ctx/core`. */
  static override isInstance(error: unknown): error is InvalidModelPriceError {
    return CtxError.hasMarker(error, marker);
  }
}
