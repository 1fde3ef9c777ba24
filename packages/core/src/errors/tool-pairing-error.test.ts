import { describe, expect, it } from 'vitest';
import type { AddedToolPairingProblem } from '../history/tool-call-ledger.js';
import { CompressionFailedError } from './compression-failed-error.js';
import { CompressionStrategyError } from './compression-strategy-error.js';
import { ContextWindowExceededError } from './context-window-exceeded-error.js';
import { CtxError } from './ctx-error.js';
import { HistoryLockedError } from './history-locked-error.js';
import { InvalidFormatError } from './invalid-format-error.js';
import { InvalidHistoryError } from './invalid-history-error.js';
import { InvalidSettingsError } from './invalid-settings-error.js';
import { InvalidStrategyError } from './invalid-strategy-error.js';
import { InvalidStrategySettingsError } from './invalid-strategy-settings-error.js';
import { StaleDensityResultError } from './stale-density-result-error.js';
import { TokenCountError } from './token-count-error.js';
import { ToolPairingError } from './tool-pairing-error.js';
import { UnknownStrategyError } from './unknown-strategy-error.js';

const orphan = (entryIndex: number): AddedToolPairingProblem => ({
  kind: 'orphan-response',
  entryIndex,
  blockIndex: 0,
  callId: `call-${entryIndex}`,
  toolName: 'Read',
  earlierEntryIndex: undefined,
});

/** One instance of every other CtxError subclass, with its own isInstance check. */
const siblings: readonly { name: string; error: CtxError; isInstance: (value: unknown) => boolean }[] = [
  {
    name: 'CompressionFailedError',
    error: new CompressionFailedError({ failures: [{ strategyName: 'a', error: new Error('boom') }] }),
    isInstance: (value) => CompressionFailedError.isInstance(value),
  },
  {
    name: 'CompressionStrategyError',
    error: new CompressionStrategyError({ message: 'bad indices' }),
    isInstance: (value) => CompressionStrategyError.isInstance(value),
  },
  {
    name: 'ContextWindowExceededError',
    error: new ContextWindowExceededError({ projectedTokens: 2, availableTokens: 1 }),
    isInstance: (value) => ContextWindowExceededError.isInstance(value),
  },
  {
    name: 'HistoryLockedError',
    error: new HistoryLockedError({ operation: 'clear the history' }),
    isInstance: (value) => HistoryLockedError.isInstance(value),
  },
  {
    name: 'InvalidFormatError',
    error: new InvalidFormatError({ format: 'openai-chat', issues: [{ path: 'messages[0].role', message: 'bad' }] }),
    isInstance: (value) => InvalidFormatError.isInstance(value),
  },
  {
    name: 'InvalidHistoryError',
    error: new InvalidHistoryError({ issues: [{ path: 'entry.speaker', message: 'bad' }] }),
    isInstance: (value) => InvalidHistoryError.isInstance(value),
  },
  {
    name: 'InvalidSettingsError',
    error: new InvalidSettingsError({ issues: [{ path: 'compression.profile', message: 'bad' }] }),
    isInstance: (value) => InvalidSettingsError.isInstance(value),
  },
  {
    name: 'InvalidStrategyError',
    error: new InvalidStrategyError({ message: 'not a strategy' }),
    isInstance: (value) => InvalidStrategyError.isInstance(value),
  },
  {
    name: 'InvalidStrategySettingsError',
    error: new InvalidStrategySettingsError({ strategyName: 's', issues: [{ path: 'recencyRetention', message: 'bad' }] }),
    isInstance: (value) => InvalidStrategySettingsError.isInstance(value),
  },
  {
    name: 'StaleDensityResultError',
    error: new StaleDensityResultError({ reason: 'rewritten' }),
    isInstance: (value) => StaleDensityResultError.isInstance(value),
  },
  {
    name: 'TokenCountError',
    error: new TokenCountError({ entryIndex: 0, cause: new Error('tokenizer failed') }),
    isInstance: (value) => TokenCountError.isInstance(value),
  },
  {
    name: 'UnknownStrategyError',
    error: new UnknownStrategyError({ strategyName: 'zzz', knownNames: ['a'] }),
    isInstance: (value) => UnknownStrategyError.isInstance(value),
  },
];

describe('ToolPairingError', () => {
  it('should be recognized by its own isInstance and by CtxError.isInstance, with its name and problems', () => {
    const error = new ToolPairingError({ problems: [orphan(4)], firstIndex: 4 });
    expect(ToolPairingError.isInstance(error)).toBe(true);
    expect(CtxError.isInstance(error)).toBe(true);
    expect(error.name).toBe('ToolPairingError');
    expect(error.problems).toEqual([orphan(4)]);
  });

  it('should recognize an instance from another copy of @ctx/core by its global marker', () => {
    const foreign = { name: 'ToolPairingError', message: 'x', [Symbol.for('ctx.error.ToolPairingError')]: true };
    expect(ToolPairingError.isInstance(foreign)).toBe(true);
  });

  it.each(siblings)('should reject a $name, and $name.isInstance should reject a ToolPairingError', ({ error, isInstance }) => {
    expect(ToolPairingError.isInstance(error)).toBe(false);
    expect(isInstance(new ToolPairingError({ problems: [orphan(0)] }))).toBe(false);
  });

  it('should list the first 20 problems and count the rest, so a huge import still gives a short message', () => {
    const problems = Array.from({ length: 25 }, (_, index) => orphan(index));
    const { message } = new ToolPairingError({ problems });
    expect(message).toMatch(/entry 19 \(added entry 19\)/);
    expect(message).not.toMatch(/entry 20 \(/);
    expect(message).toMatch(/… and 5 more\nNothing was added/);
    expect(message.split('\n')).toHaveLength(1 + 20 + 1 + 1);
  });
});
