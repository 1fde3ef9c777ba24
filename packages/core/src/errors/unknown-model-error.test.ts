import { describe, expect, it } from 'vitest';
import { CtxError } from './ctx-error.js';
import { UnknownStrategyError } from './unknown-strategy-error.js';
import { UnknownModelError } from './unknown-model-error.js';

describe('UnknownModelError', () => {
  it('should name the model, the provider, the known models and the fix in its message', () => {
    const error = new UnknownModelError({
      model: 'claude-x',
      provider: 'anthropic',
      known: ['claude-a', 'claude-b'],
      fix: "createAnthropicCostModel({ model: 'claude-x', … })",
    });
    expect(error.message).toBe(
      'No price for model "claude-x" (anthropic); known: claude-a, claude-b. ' +
        "Pass your own prices: createAnthropicCostModel({ model: 'claude-x', … })",
    );
    expect(error.name).toBe('UnknownModelError');
    expect(error.model).toBe('claude-x');
    expect(error.provider).toBe('anthropic');
    expect(error.known).toEqual(['claude-a', 'claude-b']);
  });

  it('should say so when no model is known and still tell how to fix it', () => {
    const { message } = new UnknownModelError({ model: 'm', provider: 'p', known: [] });
    expect(message).toMatch(/no model is known/);
    expect(message).toMatch(/Pass your own prices/);
  });

  it('should be recognized by its own isInstance and by CtxError.isInstance, across package copies', () => {
    const error = new UnknownModelError({ model: 'm', provider: 'p', known: [] });
    expect(UnknownModelError.isInstance(error)).toBe(true);
    expect(CtxError.isInstance(error)).toBe(true);
    const foreign = { name: 'UnknownModelError', message: 'x', [Symbol.for('ctx.error.UnknownModelError')]: true };
    expect(UnknownModelError.isInstance(foreign)).toBe(true);
  });

  it('should reject a sibling error, and the sibling should reject it', () => {
    const sibling = new UnknownStrategyError({ strategyName: 'zzz', knownNames: [] });
    expect(UnknownModelError.isInstance(sibling)).toBe(false);
    const error = new UnknownModelError({ model: 'm', provider: 'p', known: [] });
    expect(UnknownStrategyError.isInstance(error)).toBe(false);
    expect(UnknownModelError.isInstance(new Error('plain'))).toBe(false);
  });
});
