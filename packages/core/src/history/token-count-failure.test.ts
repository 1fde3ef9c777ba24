// A failed token count never reads as 0 tokens (issue 14, spec 000 ERR-020/021): the history stays uncounted until a
// count succeeds, every read of a total throws until then, and the next wait recounts.
import { describe, expect, it } from 'vitest';
import { TokenCountError } from '../errors/token-count-error.js';
import { ai, human } from '../test-support/entries.js';
import { words } from '../test-support/stub-strategies.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import { HistoryService } from './history-service.js';

/**
 * A word tokenizer that throws `offline` while `state.broken` is true, on texts containing `state.failOn`, or for
 * the first `failures` calls. Without options it is broken until the test repairs it.
 */
function flakyTokenizer(options: { failures?: number; failOn?: string } = {}) {
  const state = {
    broken: options.failures === undefined && options.failOn === undefined,
    failOn: options.failOn,
    failuresLeft: options.failures ?? 0,
  };
  const tokenizer = createWordTokenizer((text) => {
    if (state.broken || (state.failOn !== undefined && text.includes(state.failOn))) throw new Error('offline');
    if (state.failuresLeft > 0) {
      state.failuresLeft -= 1;
      throw new Error('offline');
    }
    return text.split(/\s+/).filter(Boolean).length;
  });
  return { tokenizer, state };
}

const errorOf = async (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (error: unknown) => error);

describe('HistoryService token counting after a tokenizer failure', () => {
  it('should recount on the next waitForTokenUpdates when the tokenizer failed once, never reading 0', async () => {
    const { tokenizer } = flakyTokenizer({ failures: 1 });
    const history = new HistoryService({ tokenizer });
    history.addAll([human(words(40)), ai(words(60))]);
    // Whatever the first wait says, afterwards the total is the truth: 40 + 3 + 60 + 3.
    await errorOf(history.waitForTokenUpdates());
    await expect(history.waitForTokenUpdates()).resolves.toBeUndefined();
    expect(history.getTotalTokens()).toBe(106);
    expect(history.getHistoryTokens()).toBe(106);
  });

  it('should keep throwing TokenCountError from every wait and every total while the tokenizer keeps failing', async () => {
    const { tokenizer } = flakyTokenizer();
    const history = new HistoryService({ tokenizer });
    history.addAll([human(words(40)), ai(words(60))]);
    for (let attempt = 0; attempt < 3; attempt++) {
      const error = await errorOf(history.waitForTokenUpdates());
      expect(TokenCountError.isInstance(error)).toBe(true);
      expect((error as TokenCountError).entryIndex).toBe(0);
      expect((error as TokenCountError).cause).toEqual(new Error('offline'));
    }
    expect(() => history.getTotalTokens()).toThrow(TokenCountError);
    expect(() => history.getHistoryTokens()).toThrow(/Could not count the tokens of history entry 0: offline/);
    expect(() => history.getOverheadTokens()).toThrow(TokenCountError);
  });

  it('should not report the last good total (lower than the truth) after new entries failed to count', async () => {
    const { tokenizer, state } = flakyTokenizer({ failOn: 'poison' });
    const history = new HistoryService({ tokenizer });
    history.add(human(words(10)));
    await history.waitForTokenUpdates();
    expect(history.getTotalTokens()).toBe(13);
    history.addAll([ai(words(5)), human(`poison ${words(500)}`)]);
    const error = await errorOf(history.waitForTokenUpdates());
    expect((error as TokenCountError).entryIndex).toBe(2);
    expect(() => history.getTotalTokens()).toThrow(TokenCountError);
    await expect(history.waitForTokenUpdates()).rejects.toThrow(/history entry 2: offline/);
    expect(() => history.getTotalTokens()).toThrow(TokenCountError);
    // Recovered: nothing the user added was lost, and the count includes all of it.
    state.failOn = undefined;
    history.add(ai('done'));
    await expect(history.waitForTokenUpdates()).resolves.toBeUndefined();
    expect(history.length).toBe(4);
    expect(history.getTotalTokens()).toBe(13 + 8 + 504 + 4);
  });

  it('should count again once the tokenizer recovers, including every entry added meanwhile', async () => {
    const { tokenizer, state } = flakyTokenizer();
    const history = new HistoryService({ tokenizer });
    history.add(human(words(10)));
    await expect(history.waitForTokenUpdates()).rejects.toThrow(TokenCountError);
    history.add(ai(words(20)));
    await expect(history.waitForTokenUpdates()).rejects.toThrow(TokenCountError);
    state.broken = false;
    await expect(history.waitForTokenUpdates()).resolves.toBeUndefined();
    expect(history.length).toBe(2);
    expect(history.getTotalTokens()).toBe(13 + 23);
  });

  it('should mark the overhead uncounted when the system instructions fail to count', async () => {
    const { tokenizer } = flakyTokenizer({ failOn: 'secret' });
    const history = new HistoryService({ tokenizer, history: [human('hello')] });
    await history.waitForTokenUpdates();
    history.setSystem([{ type: 'text', text: 'secret rules' }]);
    const error = await errorOf(history.recalculateTotalTokens());
    expect(TokenCountError.isInstance(error)).toBe(true);
    expect((error as TokenCountError).entryIndex).toBeUndefined();
    expect(() => history.getOverheadTokens()).toThrow(/system instructions or tool definitions: offline/);
    expect(() => history.getTotalTokens()).toThrow(TokenCountError);
  });
});
