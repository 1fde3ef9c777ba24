import { InvalidSettingsError } from '@ctx/core';
import type { ContextOptions } from './context-options.js';

function fail(option: string, message: string): never {
  throw new InvalidSettingsError({ issues: [{ path: option, message: message.charAt(0).toUpperCase() + message.slice(1) }] });
}

/** Checks the options once, at creation, so a mistake fails at start-up rather than on the first call. */
export function validateContextOptions(options: ContextOptions): void {
  if (!(Number.isInteger(options.contextWindow) && options.contextWindow > 0)) {
    fail('contextWindow', `expected a whole number of tokens > 0 (the model's context window), got ${String(options.contextWindow)}`);
  }
  if (typeof options.tokenizer?.countTokens !== 'function') {
    fail('tokenizer', 'expected a Tokenizer, e.g. `await createGptTokenizer()` from @ctx/tokenizer-gpt-tokenizer');
  }
  // A factory is checked when it is called, per conversation: a failure there is reported like any other.
  const strategies = typeof options.strategy === 'function' ? undefined : Array.isArray(options.strategy) ? options.strategy : [options.strategy];
  if (strategies !== undefined && (strategies.length === 0 || strategies.some((strategy) => typeof (strategy as { compress?: unknown })?.compress !== 'function'))) {
    fail('strategy', 'expected a CompressionStrategy, a non-empty list of them, or a function creating them, e.g. createPresetStrategy(builtInPresets.balanced, { factories })');
  }
  const max = options.maxConversations;
  if (max !== undefined && !(Number.isInteger(max) && max >= 0)) {
    fail('maxConversations', `expected a whole number ≥ 0, got ${String(max)}`);
  }
  if (options.onError !== undefined && options.onError !== 'pass-through' && options.onError !== 'throw') {
    fail('onError', `expected 'pass-through' or 'throw', got ${JSON.stringify(options.onError)}`);
  }
}
