import { CtxError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli-io.js';
import { StrategyFailedError } from './strategy-failed-error.js';
import { UsageError } from './usage-error.js';

describe('UsageError', () => {
  it('should be a CliError and a CtxError that the sibling error classes do not claim', () => {
    const usage = new UsageError('--runs expects a whole number from 1 to 100, got 0');
    const cli = new CliError('x.json: no such file or directory');
    const strategy = new StrategyFailedError({ strategyName: 'x', method: 'compress', cause: new Error('boom') });
    expect([UsageError.isInstance(usage), CliError.isInstance(usage), CtxError.isInstance(usage), usage.name]).toEqual([true, true, true, 'UsageError']);
    expect([UsageError.isInstance(cli), CliError.isInstance(cli), cli.name]).toEqual([false, true, 'CliError']);
    expect([UsageError.isInstance(strategy), CliError.isInstance(strategy), StrategyFailedError.isInstance(strategy)]).toEqual([false, false, true]);
    expect(StrategyFailedError.isInstance(usage)).toBe(false);
  });
});

describe('StrategyFailedError', () => {
  it('should call a write to the frozen input a change of the history, and anything else a throw', () => {
    const frozen = Object.freeze({ text: 'a' });
    let writeError: unknown;
    try {
      (frozen as { text: string }).text = 'b';
    } catch (error) {
      writeError = error;
    }
    const mutated = new StrategyFailedError({ strategyName: 'mutator', method: 'compress', cause: writeError });
    expect(mutated.mutatedInput).toBe(true);
    expect(mutated.message).toMatch(/^strategy "mutator" changed the history it was given in compress\(\) \(TypeError: Cannot assign to read only property 'text'/);
    const thrown = new StrategyFailedError({ strategyName: 'thrower', cause: new Error('out of ideas\nsecond line') });
    expect([thrown.mutatedInput, thrown.message]).toEqual([false, 'strategy "thrower" threw: Error: out of ideas']);
  });
});
