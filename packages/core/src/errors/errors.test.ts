import { describe, expect, it } from 'vitest';
import { CompressionFailedError } from './compression-failed-error.js';
import { CompressionStrategyError } from './compression-strategy-error.js';
import { ContextWindowExceededError } from './context-window-exceeded-error.js';
import { CtxError } from './ctx-error.js';
import { HistoryLockedError } from './history-locked-error.js';
import { InvalidFormatError } from './invalid-format-error.js';
import { InvalidHistoryError } from './invalid-history-error.js';
import { InvalidModelPriceError } from './invalid-model-price-error.js';
import { InvalidSettingsError } from './invalid-settings-error.js';
import { InvalidStrategyError } from './invalid-strategy-error.js';
import { InvalidStrategySettingsError } from './invalid-strategy-settings-error.js';
import { StaleDensityResultError } from './stale-density-result-error.js';
import { TokenCountError } from './token-count-error.js';
import { UnknownModelError } from './unknown-model-error.js';
import { UnknownStrategyError } from './unknown-strategy-error.js';

interface ErrorSubclass {
  readonly name: string;
  readonly isInstance: (value: unknown) => boolean;
  readonly create: () => CtxError;
}

const subclasses: readonly ErrorSubclass[] = [
  {
    name: 'CompressionFailedError',
    isInstance: (value) => CompressionFailedError.isInstance(value),
    create: () => new CompressionFailedError({ failures: [{ strategyName: 'a', error: new Error('boom') }] }),
  },
  {
    name: 'CompressionStrategyError',
    isInstance: (value) => CompressionStrategyError.isInstance(value),
    create: () => new CompressionStrategyError({ message: 'bad indices' }),
  },
  {
    name: 'ContextWindowExceededError',
    isInstance: (value) => ContextWindowExceededError.isInstance(value),
    create: () => new ContextWindowExceededError({ projectedTokens: 2, availableTokens: 1 }),
  },
  {
    name: 'StaleDensityResultError',
    isInstance: (value) => StaleDensityResultError.isInstance(value),
    create: () => new StaleDensityResultError({ reason: 'rewritten' }),
  },
  {
    name: 'HistoryLockedError',
    isInstance: (value) => HistoryLockedError.isInstance(value),
    create: () => new HistoryLockedError({ operation: 'clear the history' }),
  },
  {
    name: 'InvalidFormatError',
    isInstance: (value) => InvalidFormatError.isInstance(value),
    create: () => new InvalidFormatError({ format: 'openai-chat', issues: [{ path: 'messages[0].role', message: 'bad' }] }),
  },
  {
    name: 'InvalidHistoryError',
    isInstance: (value) => InvalidHistoryError.isInstance(value),
    create: () => new InvalidHistoryError({ issues: [{ path: 'entry.speaker', message: 'bad' }] }),
  },
  {
    name: 'InvalidSettingsError',
    isInstance: (value) => InvalidSettingsError.isInstance(value),
    create: () => new InvalidSettingsError({ issues: [{ path: 'compression.profile', message: 'bad' }] }),
  },
  {
    name: 'InvalidStrategyError',
    isInstance: (value) => InvalidStrategyError.isInstance(value),
    create: () => new InvalidStrategyError({ message: 'not a strategy' }),
  },
  {
    name: 'InvalidStrategySettingsError',
    isInstance: (value) => InvalidStrategySettingsError.isInstance(value),
    create: () =>
      new InvalidStrategySettingsError({ strategyName: 's', issues: [{ path: 'recencyRetention', message: 'bad' }] }),
  },
  {
    name: 'TokenCountError',
    isInstance: (value) => TokenCountError.isInstance(value),
    create: () => new TokenCountError({ entryIndex: 0, cause: new Error('tokenizer failed') }),
  },
  {
    name: 'InvalidModelPriceError',
    isInstance: (value) => InvalidModelPriceError.isInstance(value),
    create: () => new InvalidModelPriceError({ model: 'm', issues: [{ path: 'inputPerMillion', message: 'bad' }] }),
  },
  {
    name: 'UnknownModelError',
    isInstance: (value) => UnknownModelError.isInstance(value),
    create: () => new UnknownModelError({ model: 'm', provider: 'anthropic', known: ['a'] }),
  },
  {
    name: 'UnknownStrategyError',
    isInstance: (value) => UnknownStrategyError.isInstance(value),
    create: () => new UnknownStrategyError({ strategyName: 'zzz', knownNames: ['a'] }),
  },
];

/** Every ordered pair of distinct subclasses: the checker must reject the other class's instance. */
const siblingPairs = subclasses.flatMap((checker) =>
  subclasses
    .filter((other) => other !== checker)
    .map((other) => ({ checkerName: checker.name, instanceName: other.name, checker, other })),
);

/** What an error thrown by a second copy of @ctx/core looks like to this copy: only the global markers match. */
function foreignCopyOf(name: string): object {
  return {
    name,
    message: 'from another copy of @ctx/core',
    [Symbol.for(`ctx.error.${name}`)]: true,
    [Symbol.for('ctx.error')]: true,
  };
}

describe('CtxError', () => {
  it('should accept an instance of every subclass', () => {
    for (const subclass of subclasses) {
      expect(CtxError.isInstance(subclass.create()), subclass.name).toBe(true);
    }
  });

  it('should accept its own instances and set the given name', () => {
    const error = new CtxError({ name: 'CustomError', message: 'custom' });
    expect(CtxError.isInstance(error)).toBe(true);
    expect(error.name).toBe('CustomError');
    expect(error.message).toBe('custom');
  });

  it('should accept an error carrying only the global marker of another package copy', () => {
    expect(CtxError.isInstance({ [Symbol.for('ctx.error')]: true })).toBe(true);
  });

  it('should reject values that are not ctx errors', () => {
    const values = [null, undefined, 'CtxError', 42, new Error('plain'), new TypeError('plain'), {}];
    values.forEach((value, index) => expect(CtxError.isInstance(value), `value #${index}`).toBe(false));
  });

  it('should reject a marker whose value is not exactly true', () => {
    expect(CtxError.isInstance({ [Symbol.for('ctx.error')]: 'yes' })).toBe(false);
    expect(CtxError.isInstance({ [Symbol.for('ctx.error')]: 1 })).toBe(false);
  });

  it('should keep the cause when one is given', () => {
    const cause = new Error('root cause');
    expect(new CtxError({ name: 'X', message: 'm', cause }).cause).toBe(cause);
  });

  it.each(siblingPairs)('should reject a $instanceName in $checkerName.isInstance', ({ checker, other }) => {
    expect(checker.isInstance(other.create())).toBe(false);
    expect(checker.isInstance(foreignCopyOf(other.name))).toBe(false);
  });
});

describe.each(subclasses)('$name', (subclass) => {
  it('should accept its own instances', () => {
    expect(subclass.isInstance(subclass.create())).toBe(true);
  });

  it('should set name to the class name', () => {
    const error = subclass.create();
    expect(error.name).toBe(subclass.name);
    expect(error).toBeInstanceOf(Error);
  });

  it('should accept an error from a duplicate copy of the package', () => {
    const foreign = foreignCopyOf(subclass.name);
    expect(subclass.isInstance(foreign)).toBe(true);
    expect(CtxError.isInstance(foreign)).toBe(true);
  });

  it('should reject null, strings, plain errors and bare ctx errors', () => {
    const values = [null, undefined, subclass.name, new Error(subclass.name), {}];
    values.forEach((value, index) => expect(subclass.isInstance(value), `value #${index}`).toBe(false));
    expect(subclass.isInstance(new CtxError({ name: subclass.name, message: 'base class only' }))).toBe(false);
  });
});

describe('UnknownStrategyError', () => {
  it('ERR-001: should name the unknown strategy and list the known names', () => {
    const error = new UnknownStrategyError({ strategyName: 'zzz', knownNames: ['top-down-truncation', 'lossless'] });
    expect(error.message).toContain('"zzz"');
    expect(error.message).toContain('known strategies: top-down-truncation, lossless');
    expect(error.strategyName).toBe('zzz');
    expect(error.knownNames).toEqual(['top-down-truncation', 'lossless']);
  });

  it('ERR-001: should say when no strategy is registered at all', () => {
    const error = new UnknownStrategyError({ strategyName: 'zzz', knownNames: [] });
    expect(error.message).toContain('no strategy is registered');
  });

  it('ERR-001: should show a non-string name as given', () => {
    expect(new UnknownStrategyError({ strategyName: 42, knownNames: ['a'] }).message).toContain('strategy 42;');
    expect(new UnknownStrategyError({ strategyName: undefined, knownNames: ['a'] }).message).toContain(
      'strategy undefined;',
    );
  });
});

describe('CompressionFailedError', () => {
  it('should list every strategy that failed with its reason and keep the first error as cause', () => {
    const first = new Error('summarizer timed out');
    const error = new CompressionFailedError({
      failures: [
        { strategyName: 'summarize', error: first },
        { strategyName: 'truncation', error: 'no entries left' },
      ],
    });
    expect(error.message).toContain('summarize: summarizer timed out');
    expect(error.message).toContain('truncation: no entries left');
    expect(error.message).toContain('history was left unchanged');
    expect(error.cause).toBe(first);
    expect(error.failures).toHaveLength(2);
  });
});

describe('CompressionStrategyError', () => {
  it('should keep the message, strategy name and offending indices', () => {
    const error = new CompressionStrategyError({
      message: 'Index 7 is both removed and replaced',
      strategyName: 'high-density',
      indices: [7],
    });
    expect(error.message).toBe('Index 7 is both removed and replaced');
    expect(error.strategyName).toBe('high-density');
    expect(error.indices).toEqual([7]);
  });

  it('should default to no indices', () => {
    expect(new CompressionStrategyError({ message: 'm' }).indices).toEqual([]);
  });
});

describe('ContextWindowExceededError', () => {
  it('should state the tokens needed and the tokens available', () => {
    const error = new ContextWindowExceededError({ projectedTokens: 210_000, availableTokens: 180_000 });
    expect(error.message).toContain('needs 210,000 tokens');
    expect(error.message).toContain('only 180,000 fit');
    expect(error.reason).toBe('cannot-shrink-further');
    expect(error.projectedTokens).toBe(210_000);
    expect(error.availableTokens).toBe(180_000);
  });
});

describe('ContextWindowExceededError (overhead-too-large)', () => {
  it('should say that no compression can help when system and tools alone do not fit', () => {
    const error = new ContextWindowExceededError({
      projectedTokens: 9_500,
      availableTokens: 8_000,
      reason: 'overhead-too-large',
      overheadTokens: 9_000,
    });
    expect(error.message).toContain('alone need 9,000 tokens but only 8,000 fit');
    expect(error.message).toContain('no compression of the history can make the request fit');
    expect(error.overheadTokens).toBe(9_000);
  });
});

describe('StaleDensityResultError', () => {
  it('should name the strategy and the first entry that changed', () => {
    const error = new StaleDensityResultError({
      strategyName: 'high-density',
      reason: 'basis-changed',
      firstChangedIndex: 3,
      basisLength: 10,
      historyLength: 9,
    });
    expect(error.message).toContain('the density result of strategy "high-density"');
    expect(error.message).toContain('entry 3 changed');
    expect(error.message).toContain('nothing was changed');
    expect(error.firstChangedIndex).toBe(3);
  });
});

describe('HistoryLockedError', () => {
  it('should name the refused operation', () => {
    const error = new HistoryLockedError({ operation: 'apply a density result' });
    expect(error.message).toContain('Cannot apply a density result while a compression is in progress');
    expect(error.operation).toBe('apply a density result');
  });
});

describe('InvalidHistoryError', () => {
  it('should list every issue as a path: problem line', () => {
    const error = new InvalidHistoryError({
      issues: [
        { path: 'history[1].blocks[0].callId', message: 'Expected a non-empty id' },
        { path: '', message: 'Expected an object' },
      ],
    });
    expect(error.message).toContain('history[1].blocks[0].callId: Expected a non-empty id');
    expect(error.message).toContain('(root): Expected an object');
    expect(error.issues).toHaveLength(2);
  });

  it('should use an explicit message when one is given', () => {
    expect(new InvalidHistoryError({ issues: [], message: 'custom' }).message).toBe('custom');
  });
});

describe('InvalidSettingsError', () => {
  it('should list every rejected setting as a key: problem line', () => {
    const error = new InvalidSettingsError({
      issues: [{ path: 'compression.density.recencyRetention', message: 'Expected an integer' }],
    });
    expect(error.message).toContain('compression.density.recencyRetention: Expected an integer');
  });
});

describe('InvalidStrategyError', () => {
  it('should keep the message it was given', () => {
    expect(new InvalidStrategyError({ message: 'name: Expected a lowercase name' }).message).toBe(
      'name: Expected a lowercase name',
    );
  });
});

describe('InvalidStrategySettingsError', () => {
  it('should name the strategy and list option: problem lines', () => {
    const error = new InvalidStrategySettingsError({
      strategyName: 'high-density',
      issues: [{ path: 'recencyRetention', message: 'Expected an integer ≥ 1, got 0' }],
    });
    expect(error.message).toContain('strategy "high-density"');
    expect(error.message).toContain('recencyRetention: Expected an integer ≥ 1, got 0');
    expect(error.strategyName).toBe('high-density');
  });
});

describe('TokenCountError', () => {
  it('should name the entry and the tokenizer failure', () => {
    const cause = new Error('tokenizer crashed');
    const error = new TokenCountError({ entryIndex: 4, cause });
    expect(error.message).toBe('Could not count the tokens of history entry 4: tokenizer crashed');
    expect(error.entryIndex).toBe(4);
    expect(error.cause).toBe(cause);
  });

  it('should name system instructions or tool definitions when there is no entry index', () => {
    const error = new TokenCountError({ cause: 'bad input' });
    expect(error.message).toBe('Could not count the tokens of the system instructions or tool definitions: bad input');
  });
});

describe('InvalidFormatError', () => {
  it('should name the format and every failing path', () => {
    const error = new InvalidFormatError({
      format: 'anthropic-messages',
      issues: [{ path: 'messages[2].role', message: 'Expected "user" or "assistant", got "tool"' }],
    });
    expect(error.format).toBe('anthropic-messages');
    expect(error.message).toBe('Input is not valid anthropic-messages:\n  messages[2].role: Expected "user" or "assistant", got "tool"');
  });
});
