import {
  createTokenCounter,
  parseHistory,
  type AppliedCompressionResult,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type HistoryEntry,
} from '@ctx/core';
import { isValidatedEntry } from '@ctx/strategy-utils';
import { describe, expect, it } from 'vitest';
import { createSmartPassesStrategy } from './smart-passes-strategy.js';
import type { PassConfigInput, SmartPassesSettingsInput } from './smart-passes-settings.js';
import { aiText, call, contextFor, human, lines, readSession, result, wordTokenizer } from './test-support/entries.js';

function applied(outcome: CompressionResult): AppliedCompressionResult {
  if (outcome.type !== 'applied') throw new Error(`expected an applied result, got no-op (${outcome.reason}): ${outcome.message ?? ''}`);
  return outcome;
}

/** What a new strategy returns: a strategy that compressed other histories before must return the same. */
async function freshResult(history: readonly HistoryEntry[], settings?: SmartPassesSettingsInput): Promise<AppliedCompressionResult> {
  return applied(await createSmartPassesStrategy(settings).compress(contextFor(history)));
}

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `${String(index + 1).padStart(6)}\tconst value${index} = ${index};`).join('\n');

/** One individual pass over everything but the newest entry. */
function pass(defaults: NonNullable<PassConfigInput['individualConfig']>['defaults'], extra: Partial<PassConfigInput> = {}): PassConfigInput {
  return {
    id: 'only',
    name: 'only',
    selection: { type: 'preserve_recent', keepRecentCount: 1 },
    mode: 'individual',
    individualConfig: { defaults },
    execution: { type: 'always' },
    ...extra,
  };
}

/**
 * Contexts sharing one token counter, as every call of an agent loop does (the history service's): outcomes are kept
 * for the counter they were counted with.
 */
function loopContexts(): (history: readonly HistoryEntry[]) => CompressionContext {
  const tokenCounter = createTokenCounter(wordTokenizer());
  return (history) => ({ ...contextFor(history), tokenCounter });
}

/**
 * Compresses `history` three times: outcomes are kept from the second call on and their replacements validated on
 * their second use, so after this every kind of kept work is in place.
 */
async function compressThrice(
  strategy: CompressionStrategy,
  history: readonly HistoryEntry[],
  context: (history: readonly HistoryEntry[]) => CompressionContext,
): Promise<AppliedCompressionResult> {
  await strategy.compress(context(history));
  await strategy.compress(context(history));
  return applied(await strategy.compress(context(history)));
}

describe('createSmartPassesStrategy (pass outcomes kept between calls)', () => {
  it('should hand back the same validated entries when it compresses the same history again', async () => {
    const strategy = createSmartPassesStrategy();
    const context = loopContexts();
    const history = parseHistory(readSession(14, 'Bash'));
    const first = applied(await strategy.compress(context(history)));
    // Outcomes are kept from the second call on, and their replacements validated when used again.
    const third = await compressThrice(strategy, history, context);
    const fourth = applied(await strategy.compress(context(history)));
    expect(third.newHistory).toEqual(first.newHistory);
    expect(third.newHistory.every(isValidatedEntry)).toBe(true);
    fourth.newHistory.forEach((entry, index) => expect(entry).toBe(third.newHistory[index]));
    expect(fourth.metadata.counts).toEqual(first.metadata.counts);
  });

  it('should process an entry that changed, never return the outcome of the entry it replaced', async () => {
    const strategy = createSmartPassesStrategy();
    const context = loopContexts();
    const before = parseHistory(readSession(14, 'Bash'));
    await compressThrice(strategy, before, context);
    const after = [...before];
    after[24] = parseHistory([result('c12', lines(40, 'rewritten line'), { toolName: 'Bash' })])[0] as HistoryEntry;
    const warm = applied(await strategy.compress(context(after)));
    expect(warm.newHistory).toEqual((await freshResult(after)).newHistory);
    expect(JSON.stringify(warm.newHistory[24])).toContain('rewritten line 1');
  });

  it('should suppress a kept result once the call it answers is of a kind the pass touches', async () => {
    // The pass suppresses shell output and keeps file reads: the same result entry answers a read first, then a
    // shell command.
    const settings: SmartPassesSettingsInput = { passes: [pass({ messageText: 'keep', toolParameters: 'keep', toolResults: 'suppress' }, { toolKinds: ['shell'] })] };
    const strategy = createSmartPassesStrategy(settings);
    const context = loopContexts();
    const history = [...parseHistory(readSession(14))];
    const shell = parseHistory([call('c1', { command: 'npm test' }, 'Bash')])[0] as HistoryEntry;
    // Something else is suppressed while c1 is a read, so the first call is applied.
    history.splice(3, 1, parseHistory([call('c2', { command: 'make lint' }, 'Bash')])[0] as HistoryEntry);
    const asRead = await compressThrice(strategy, history, context);
    expect(JSON.stringify(asRead.newHistory[2])).toContain('file 1 line 1');
    const rerun = [...history];
    rerun[1] = shell;
    const warm = applied(await strategy.compress(context(rerun)));
    expect(JSON.stringify(warm.newHistory[2])).not.toContain('file 1 line 1');
    expect(warm.newHistory).toEqual((await freshResult(rerun, settings)).newHistory);
  });

  it('should fold a read again when a new edit changes the file, never hand back the earlier fold', async () => {
    const settings: SmartPassesSettingsInput = { foldFileStates: true, passes: [pass({ messageText: 'keep', toolParameters: 'keep', toolResults: 'keep' })] };
    const edit = (id: string, from: string, to: string) => call(id, { file_path: '/repo/a.ts', old_string: from, new_string: to }, 'Edit');
    const edited = (id: string) => result(id, 'The file /repo/a.ts has been updated.', { toolName: 'Edit' });
    const history = parseHistory([
      human('rename value3'),
      call('r1', { file_path: '/repo/a.ts' }),
      result('r1', numbered(60)),
      edit('e1', 'const value3 = 3;', 'const renamedValue = 3; // was value3'),
      edited('e1'),
      ...readSession(12, 'Bash').slice(1),
    ]);
    const strategy = createSmartPassesStrategy(settings);
    const context = loopContexts();
    const once = await compressThrice(strategy, history, context);
    expect(JSON.stringify(once.newHistory[2])).toContain('renamedValue');

    const more = [...history.slice(0, 5), ...parseHistory([edit('e2', 'const value7 = 7;', 'const otherValue = 7;'), edited('e2'), aiText('Both renamed.')]), ...history.slice(5)];
    const warm = applied(await strategy.compress(context(more)));
    expect(JSON.stringify(warm.newHistory[2])).toContain('otherValue');
    expect(warm.newHistory).toEqual((await freshResult(more, settings)).newHistory);
  });
});
