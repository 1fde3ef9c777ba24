import { describe, expect, it } from 'vitest';
import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { HistoryLockedError } from '../errors/history-locked-error.js';
import { InvalidHistoryError } from '../errors/invalid-history-error.js';
import { StaleDensityResultError } from '../errors/stale-density-result-error.js';
import { TokenCountError } from '../errors/token-count-error.js';
import { ToolPairingError } from '../errors/tool-pairing-error.js';
import type { DensityResult } from '../strategy/density-result.js';
import { ai, human, toolCall, toolResult } from '../test-support/entries.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import type { ContentBlock } from './content-block.js';
import type { HistoryEntry } from './history-entry.js';
import { HistoryService, type HistoryEvent } from './history-service.js';
import { parseConversation, parseHistory } from './parse-history.js';
import { createTokenCounter } from '../tokens/token-counter.js';

const density = (removals: number[], replacements: [number, HistoryEntry][] = []): DensityResult => ({
  removals,
  replacements: new Map(replacements),
  metadata: {},
});

/** Five entries of known size: each word is one token, each entry adds 3 tokens of overhead. */
async function fiveEntries(tokenizer = createWordTokenizer()) {
  const history = new HistoryService({ tokenizer });
  history.addAll([human('zero'), ai('one one'), human('two two two'), ai('three three three three'), human('four')]);
  await history.waitForTokenUpdates();
  return history;
}

const texts = (history: HistoryService) =>
  history.getAll().map((entry) => (entry.blocks[0]?.type === 'text' ? entry.blocks[0].text : entry.blocks[0]?.type));

describe('HistoryService', () => {
  describe('add / addAll', () => {
    it('should store a validated, frozen copy and leave the caller object untouched', async () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      const entry = human('hello there');
      history.add(entry);
      await history.waitForTokenUpdates();
      expect(Object.isFrozen(entry)).toBe(false);
      const stored = history.getAll()[0];
      expect(stored).toEqual(entry);
      expect(stored).not.toBe(entry);
      expect(Object.isFrozen(stored)).toBe(true);
      expect(history.getTotalTokens()).toBe(2 + 3);
    });

    it('should reject an invalid entry with the failing path and add nothing', () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      const bad = { speaker: 'tool', blocks: [{ type: 'tool_response', toolName: 'Read', result: 'x' }] };
      expect(() => history.add(bad as unknown as HistoryEntry)).toThrow(InvalidHistoryError);
      expect(() => history.add(bad as unknown as HistoryEntry)).toThrow(/entry\.blocks\[0\]\.callId/);
      expect(history.length).toBe(0);
    });

    it('should add nothing when one entry of addAll is invalid', () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      const entries = [human('a'), { speaker: 'robot', blocks: [] }, ai('b')] as unknown as HistoryEntry[];
      expect(() => history.addAll(entries)).toThrow(/history\[1\]\.speaker/);
      expect(history.length).toBe(0);
    });
  });

  describe('add / addAll (tool call / response pairing, issue 14)', () => {
    /** human, a Read call c1 and its response: the call is entry 1, its response entry 2. */
    const withAnsweredCall = () =>
      new HistoryService({ tokenizer: createWordTokenizer(), history: [human('read it'), toolCall('c1'), toolResult('c1', 'content')] });

    /** Calls `attempt` and returns what it threw (undefined when it did not throw). */
    const thrownBy = (attempt: () => void): unknown => {
      try {
        attempt();
      } catch (error) {
        return error;
      }
      return undefined;
    };

    it('issue 14: should reject a tool call whose id a call in the history already uses, naming the id, both entries and the fix', () => {
      const history = withAnsweredCall();
      const before = history.getRawHistory();
      const error = thrownBy(() => history.add(toolCall('c1', { file_path: '/repo/other.ts' })));
      expect(ToolPairingError.isInstance(error)).toBe(true);
      expect((error as ToolPairingError).problems).toEqual([
        { kind: 'duplicate-call-id', entryIndex: 3, blockIndex: 0, callId: 'c1', toolName: 'Read', earlierEntryIndex: 1 },
      ]);
      expect((error as Error).message).toMatch(/expected every tool_call id to be unused/);
      expect((error as Error).message).toMatch(/entry 3 \(added entry 0\), block 0: tool_call id "c1" \(Read\) is already used by the tool call in entry 1/);
      expect((error as Error).message).toMatch(/Nothing was added\. Fix: give every tool call its own id/);
      expect(history.getRawHistory()).toBe(before);
    });

    it('issue 14: should reject a call id used twice in one addAll, or twice in one entry, and add nothing', () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      const twice = thrownBy(() => history.addAll([toolCall('c1'), toolResult('c1', 'a'), toolCall('c1'), toolResult('c1', 'b')]));
      expect((twice as ToolPairingError).problems.map(({ kind, entryIndex }) => [kind, entryIndex])).toEqual([
        ['duplicate-call-id', 2],
        ['duplicate-response', 3],
      ]);
      const parallel: HistoryEntry = {
        speaker: 'ai',
        blocks: [
          { type: 'tool_call', id: 'c2', name: 'Read', parameters: {} },
          { type: 'tool_call', id: 'c2', name: 'Bash', parameters: {} },
        ],
      };
      const sameEntry = thrownBy(() => history.add(parallel));
      expect((sameEntry as ToolPairingError).problems).toEqual([
        { kind: 'duplicate-call-id', entryIndex: 0, blockIndex: 1, callId: 'c2', toolName: 'Bash', earlierEntryIndex: 0 },
      ]);
      expect(history.length).toBe(0);
    });

    it('issue 14: should refuse a duplicate call id even when orphan responses are allowed', () => {
      const history = withAnsweredCall();
      expect(() => history.add(toolCall('c1'), { allowOrphanResponses: true })).toThrow(ToolPairingError);
      expect(history.length).toBe(3);
    });

    it('issue 14: should reject a response whose call is not in the history, naming the call id, the entry and the opt-in', () => {
      const history = withAnsweredCall();
      const error = thrownBy(() => history.add(toolResult('c9', 'lost', 'Bash')));
      expect((error as ToolPairingError).problems).toEqual([
        { kind: 'orphan-response', entryIndex: 3, blockIndex: 0, callId: 'c9', toolName: 'Bash', earlierEntryIndex: undefined },
      ]);
      expect((error as Error).message).toMatch(/entry 3 \(added entry 0\), block 0: tool_response for call "c9" \(Bash\) answers no tool call in the history/);
      expect((error as Error).message).toMatch(/passes \{ allowOrphanResponses: true \} to add \/ addAll/);
      expect(history.length).toBe(3);
    });

    it('issue 14: should keep a recorded orphan response when the caller opts in with allowOrphanResponses', () => {
      const history = withAnsweredCall();
      history.add(toolResult('c9', 'recorded without its call'), { allowOrphanResponses: true });
      history.addAll([human('next'), toolResult('c8', 'another')], { allowOrphanResponses: true });
      expect(history.getAll().map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool', 'tool', 'human', 'tool']);
    });

    it('issue 14: should accept a response to a call earlier in the same addAll, and reject one that comes before its call', () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      history.addAll([human('go'), toolCall('c1'), toolResult('c1', 'ok')]);
      expect(history.length).toBe(3);
      const error = thrownBy(() => history.addAll([toolResult('c2', 'early'), toolCall('c2')]));
      expect((error as ToolPairingError).problems.map((problem) => problem.kind)).toEqual(['orphan-response']);
      expect(history.length).toBe(3);
    });

    it('issue 14: should reject a second response for an answered call (tool-pairing "duplicate-response"), unless orphans are allowed', () => {
      const history = withAnsweredCall();
      const error = thrownBy(() => history.add(toolResult('c1', 'again')));
      expect((error as ToolPairingError).problems).toEqual([
        { kind: 'duplicate-response', entryIndex: 3, blockIndex: 0, callId: 'c1', toolName: 'Read', earlierEntryIndex: 2 },
      ]);
      expect((error as Error).message).toMatch(/answers a call already answered in entry 2/);
      history.add(toolResult('c1', 'recorded twice'), { allowOrphanResponses: true });
      expect(history.length).toBe(4);
    });

    it('issue 14: should remember a response added by an earlier add, so the next one for that call is a duplicate', () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      history.add(toolCall('c1'));
      history.add(toolResult('c1', 'first'));
      expect(() => history.add(toolResult('c1', 'second'))).toThrow(/tool_response for call "c1" \(Read\) answers a call already answered in entry 1/);
    });

    it('issue 14: should leave a rejected batch all-or-nothing: no entry added, no listener called, no recount', async () => {
      const tokenizer = createWordTokenizer();
      const history = new HistoryService({ tokenizer, history: [human('read it'), toolCall('c1'), toolResult('c1', 'content')] });
      await history.waitForTokenUpdates();
      const before = history.getRawHistory();
      const tokensBefore = history.getTotalTokens();
      const events: HistoryEvent[] = [];
      history.subscribe((event) => events.push(event));
      tokenizer.calls.length = 0;
      expect(() => history.addAll([human('fine'), ai('also fine'), toolResult('nope', 'orphan')])).toThrow(ToolPairingError);
      await history.waitForTokenUpdates();
      expect(history.getRawHistory()).toBe(before);
      expect(history.getTotalTokens()).toBe(tokensBefore);
      expect(events).toEqual([]);
      expect(tokenizer.calls).toEqual([]);
    });

    it('issue 14: should list every problem of a batch in one error', () => {
      const history = withAnsweredCall();
      const error = thrownBy(() => history.addAll([toolCall('c1'), toolResult('x', 'a'), toolResult('c1', 'b')]));
      expect((error as ToolPairingError).problems.map((problem) => `${problem.kind}@${problem.entryIndex}`)).toEqual([
        'duplicate-call-id@3',
        'orphan-response@4',
        'duplicate-response@5',
      ]);
      expect((error as Error).message).toMatch(/give every tool call its own id.*; add each tool_response once/s);
    });

    it('issue 14: should check entries queued during a compression against the history and the queue', async () => {
      const history = withAnsweredCall();
      history.startCompression();
      history.add(toolCall('c2'));
      expect(() => history.add(toolCall('c1'))).toThrow(/tool_call id "c1" \(Read\) is already used by the tool call in entry 1/);
      expect(() => history.add(toolCall('c2'))).toThrow(/already used by the tool call in entry 3/);
      history.add(toolResult('c2', 'answered while compressing'));
      await history.replaceHistory([human('summary'), toolCall('c1'), toolResult('c1', 'kept')]);
      history.endCompression();
      expect(history.getAll().map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool', 'ai', 'tool']);
      expect(() => history.add(toolResult('c2', 'again'))).toThrow(/already answered in entry 4/);
    });

    it('issue 14: should take the constructor history as recorded and check later adds against it', () => {
      const history = new HistoryService({
        tokenizer: createWordTokenizer(),
        history: [toolResult('c0', 'orphan recorded before the session was cut'), toolCall('c1'), toolResult('c1', 'ok')],
      });
      expect(history.length).toBe(3);
      expect(() => history.add(toolCall('c1'))).toThrow(ToolPairingError);
      history.add(toolCall('c0'));
      history.add(toolResult('c0', 'the orphan before it answered nothing'));
      expect(history.length).toBe(5);
    });

    it('issue 14: should forget the calls a clear, a density result or a rebuild removed', async () => {
      const history = withAnsweredCall();
      await history.applyDensityResult(density([1, 2]));
      expect(() => history.add(toolResult('c1', 'its call was removed'))).toThrow(/answers no tool call in the history/);
      history.add(toolCall('c1'));
      history.clear();
      history.add(toolCall('c1'));
      await history.replaceHistory([human('rebuilt')]);
      history.addAll([toolCall('c1'), toolResult('c1', 'fresh')]);
      expect(history.length).toBe(3);
    });
  });

  describe('getAll / getCurated / getRawHistory', () => {
    it('should return copies that do not change the history', async () => {
      const history = await fiveEntries();
      history.getAll().pop();
      expect(history.length).toBe(5);
    });

    it('should leave out ai entries without content from the curated history', () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      history.addAll([human('q'), { speaker: 'ai', blocks: [] }, ai('   '), ai('answer')]);
      expect(history.getCurated().map((entry) => entry.blocks[0])).toEqual([
        { type: 'text', text: 'q' },
        { type: 'text', text: 'answer' },
      ]);
      expect(history.getRawHistory()).toHaveLength(4);
    });

    it('should give a frozen raw snapshot that later changes do not reach', async () => {
      const history = await fiveEntries();
      const snapshot = history.getRawHistory();
      history.add(ai('later'));
      expect(Object.isFrozen(snapshot)).toBe(true);
      expect(snapshot).toHaveLength(5);
      expect(history.getRawHistory()).toHaveLength(6);
    });
  });

  describe('applyDensityResult', () => {
    it('§2d: should apply replacements at their original indices, then removals', async () => {
      const history = await fiveEntries();
      await history.applyDensityResult(density([1, 3], [[2, human('TWO')]]));
      expect(texts(history)).toEqual(['zero', 'TWO', 'four']);
    });

    it('§2d: should recalculate total tokens after applying', async () => {
      const history = await fiveEntries();
      expect(history.getTotalTokens()).toBe(11 + 5 * 3);
      await history.applyDensityResult(density([3]));
      expect(history.getTotalTokens()).toBe(7 + 4 * 3);
    });

    it('should count only the replacement entries again (per-entry token cache)', async () => {
      const tokenizer = createWordTokenizer();
      const history = await fiveEntries(tokenizer);
      tokenizer.calls.length = 0;
      await history.applyDensityResult(density([0], [[2, human('replaced text')]]));
      expect(tokenizer.calls).toEqual(['replaced text']);
    });

    it('should count only the new blocks of a replacement rebuilt from stored blocks', async () => {
      const tokenizer = createWordTokenizer();
      const history = new HistoryService({ tokenizer });
      history.addAll([
        human('read both files'),
        { speaker: 'ai', blocks: [{ type: 'text', text: 'reading them now' }, { type: 'tool_call', id: 'c1', name: 'Read', parameters: { path: 'a.ts' } }] },
        toolResult('c1', 'export const a = 1;'),
      ]);
      await history.waitForTokenUpdates();
      tokenizer.calls.length = 0;
      const [, turn] = history.getRawHistory();
      const rebuilt: HistoryEntry = { speaker: 'ai', blocks: [{ type: 'text', text: 'short' }, turn?.blocks[1] as ContentBlock] };
      await history.applyDensityResult(density([], [[1, rebuilt]]));
      expect(tokenizer.calls).toEqual(['short']);
      expect(history.getAll()[1]?.blocks[1]).toBe(turn?.blocks[1]);
    });

    it('should refuse a result whose replacement mixes stored blocks with an invalid one, leaving the history as it was', async () => {
      const history = await fiveEntries();
      const before = history.getRawHistory();
      const tokensBefore = history.getTotalTokens();
      const stored = before[1]?.blocks[0] as ContentBlock;
      const bad = { speaker: 'ai', blocks: [stored, { type: 'tool_call', id: '', name: 'Read', parameters: {} }] };
      const error = await history
        .applyDensityResult(density([0], [[1, bad as HistoryEntry], [2, human('fine')]]))
        .catch((caught: unknown) => caught);
      expect(CompressionStrategyError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/replacements\[1\]\.blocks\[1\]\.id/);
      expect(history.getRawHistory()).toBe(before);
      expect(history.getTotalTokens()).toBe(tokensBefore);
    });

    it('should store a replacement the caller can no longer change, even when it reuses stored blocks', async () => {
      const history = await fiveEntries();
      const stored = history.getRawHistory()[1]?.blocks[0] as ContentBlock;
      const added = { type: 'text' as const, text: 'added' };
      const replacement = { speaker: 'ai' as const, blocks: [stored, added] };
      await history.applyDensityResult(density([], [[1, replacement]]));
      added.text = 'changed afterwards';
      replacement.blocks.pop();
      const kept = history.getAll()[1];
      expect(kept?.blocks).toEqual([stored, { type: 'text', text: 'added' }]);
      expect(Object.isFrozen(kept?.blocks[1])).toBe(true);
    });

    it('ERR-010 / BR-CONFLICT-001: should reject an index that is both removed and replaced, leaving the history as it was', async () => {
      const history = await fiveEntries();
      const before = history.getRawHistory();
      const tokensBefore = history.getTotalTokens();
      const error = await history.applyDensityResult(density([1, 2], [[2, human('x')]])).catch((caught: unknown) => caught);
      expect(CompressionStrategyError.isInstance(error)).toBe(true);
      expect((error as CompressionStrategyError).indices).toEqual([2]);
      expect((error as Error).message).toMatch(/indices 2 are both removed and replaced/);
      expect(history.getRawHistory()).toBe(before);
      expect(history.getTotalTokens()).toBe(tokensBefore);
    });

    it('ERR-011: should reject removal indices outside the history and name them', async () => {
      const history = await fiveEntries();
      const before = history.getRawHistory();
      await expect(history.applyDensityResult(density([0, 5, -1]))).rejects.toThrow(
        /removal indices 5, -1 are outside the history \(expected 0\.\.4\)/,
      );
      expect(history.getRawHistory()).toBe(before);
    });

    it('ERR-012: should reject replacement indices outside the history', async () => {
      const history = await fiveEntries();
      const before = history.getRawHistory();
      const error = await history.applyDensityResult(density([], [[9, human('x')]])).catch((caught: unknown) => caught);
      expect((error as CompressionStrategyError).indices).toEqual([9]);
      expect((error as Error).message).toMatch(/replacement indices 9 are outside the history/);
      expect(history.getRawHistory()).toBe(before);
    });

    it('ERR-013: should reject duplicate removal indices', async () => {
      const history = await fiveEntries();
      const before = history.getRawHistory();
      await expect(history.applyDensityResult(density([1, 3, 1]))).rejects.toThrow(/removal indices 1 appear more than once/);
      expect(history.getRawHistory()).toBe(before);
    });

    it('should reject non-integer indices', async () => {
      const history = await fiveEntries();
      await expect(history.applyDensityResult(density([1.5]))).rejects.toThrow(/expected integer indices, found 1.5/);
    });

    it('should reject an invalid replacement entry and change nothing', async () => {
      const history = await fiveEntries();
      const before = history.getRawHistory();
      const bad = { speaker: 'human', blocks: [{ type: 'tool_call', id: 'x', name: 'Read', parameters: {} }] };
      await expect(history.applyDensityResult(density([], [[1, bad as unknown as HistoryEntry]]))).rejects.toThrow(
        /replacement for index 1 is not a valid entry/,
      );
      expect(history.getRawHistory()).toBe(before);
    });

    it('should reject a result that would leave a tool call without its response, naming the original index', async () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      history.addAll([human('read it'), toolCall('c1'), toolResult('c1', 'content'), ai('done')]);
      const before = history.getRawHistory();
      const error = await history.applyDensityResult(density([2]), 'pruner').catch((caught: unknown) => caught);
      expect(CompressionStrategyError.isInstance(error)).toBe(true);
      expect((error as CompressionStrategyError).strategyName).toBe('pruner');
      expect((error as CompressionStrategyError).indices).toEqual([1]);
      expect((error as Error).message).toMatch(/strategy "pruner".*\n.*entry 1: Read call c1 has no tool_response/s);
      expect(history.getRawHistory()).toBe(before);
    });

    it('should accept removing a call together with its response', async () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      history.addAll([human('read it'), toolCall('c1'), toolResult('c1', 'content'), ai('done')]);
      await history.applyDensityResult(density([1, 2]));
      expect(history.getAll().map((entry) => entry.speaker)).toEqual(['human', 'ai']);
    });

    it.each([
      ['null', null, /found null/],
      ['undefined', undefined, /found undefined/],
      ['a number', 42, /found number/],
      ['a string', 'removals', /found string/],
      ['an array', [1, 2], /found an array of 2/],
    ])('issue 14: should reject %s as a density result with a typed error saying what was expected, and change nothing', async (_label, value, found) => {
      const history = await fiveEntries();
      const before = history.getRawHistory();
      const events: HistoryEvent[] = [];
      history.subscribe((event) => events.push(event));
      const error = await history.applyDensityResult(value as unknown as DensityResult, 'broken').catch((caught: unknown) => caught);
      expect(CompressionStrategyError.isInstance(error)).toBe(true);
      expect((error as CompressionStrategyError).strategyName).toBe('broken');
      expect((error as Error).message).toMatch(/strategy "broken": expected an object \{ removals, replacements, metadata \}/);
      expect((error as Error).message).toMatch(found);
      expect((error as Error).message).toMatch(/Return \{ removals: \[\], replacements: new Map\(\), metadata: \{\} \}/);
      expect(history.getRawHistory()).toBe(before);
      expect(events).toEqual([]);
    });

    it('issue 14: should name a null result as the problem even during a compression or after a rewrite', async () => {
      const history = await fiveEntries();
      history.clear();
      history.startCompression();
      await expect(history.applyDensityResult(null as unknown as DensityResult)).rejects.toThrow(
        /Invalid DensityResult: expected an object .* found null/,
      );
      history.endCompression();
    });

    it('ERR-030: should refuse to apply during a compression and leave the history unchanged', async () => {
      const history = await fiveEntries();
      history.startCompression();
      await expect(history.applyDensityResult(density([0]))).rejects.toThrow(HistoryLockedError);
      expect(history.length).toBe(5);
      history.endCompression();
    });
  });

  describe('applyDensityResult (stale results)', () => {
    it('should refuse a result computed on an older history, naming the first changed entry, and change nothing', async () => {
      const history = await fiveEntries();
      const basis = history.getRawHistory();
      // Computed on `basis`: remove entry 3.
      const stale = density([3]);
      await history.applyDensityResult(density([0]), { strategyName: 'other', basis });
      const before = history.getRawHistory();
      const error: unknown = await history.applyDensityResult(stale, { strategyName: 'late', basis }).catch((caught: unknown) => caught);
      expect(StaleDensityResultError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'basis-changed', firstChangedIndex: 0, strategyName: 'late' });
      expect(history.getRawHistory()).toBe(before);
      expect(texts(history)).toEqual(['one one', 'two two two', 'three three three three', 'four']);
    });

    it('should accept a result whose history only had entries appended since', async () => {
      const history = await fiveEntries();
      const basis = history.getRawHistory();
      history.add(human('five'));
      await history.applyDensityResult(density([1]), { basis });
      expect(texts(history)).toEqual(['zero', 'two two two', 'three three three three', 'four', 'five']);
    });

    it('should refuse a result without basis when the history was rewritten after it was last read', async () => {
      const history = await fiveEntries();
      history.getRawHistory();
      await history.replaceHistory(history.getAll().slice(2));
      await expect(history.applyDensityResult(density([0]))).rejects.toMatchObject({ name: 'StaleDensityResultError', reason: 'rewritten' });
      expect(texts(history)).toEqual(['two two two', 'three three three three', 'four']);
      // Read again, and a result computed on what was read applies.
      history.getRawHistory();
      await history.applyDensityResult(density([0]));
      expect(texts(history)).toEqual(['three three three three', 'four']);
    });

    it('should still take the strategy name alone', async () => {
      const history = await fiveEntries();
      await expect(history.applyDensityResult(density([9]), 'named')).rejects.toThrow(/DensityResult from strategy "named"/);
    });
  });

  describe('token counting', () => {
    it('should never recount unchanged entries when new ones arrive', async () => {
      const tokenizer = createWordTokenizer();
      const history = await fiveEntries(tokenizer);
      tokenizer.calls.length = 0;
      history.add(ai('brand new'));
      await history.recalculateTotalTokens();
      expect(tokenizer.calls).toEqual(['brand new']);
    });

    it('should share one per-entry cache between services given the same tokenCounter', async () => {
      const tokenizer = createWordTokenizer();
      const tokenCounter = createTokenCounter(tokenizer);
      const entries = parseHistory([human('shared words here'), ai('and more')]);
      const first = new HistoryService({ tokenCounter, history: entries });
      const second = new HistoryService({ tokenCounter, history: entries });
      await Promise.all([first.waitForTokenUpdates(), second.waitForTokenUpdates()]);
      expect(second.getTotalTokens()).toBe(first.getTotalTokens());
      expect(tokenizer.calls).toEqual(['shared words here', 'and more']);
    });

    it('should count tool-call parameters and tool results, not only text (spec 002 Proposal 4)', async () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      history.addAll([toolCall('c1', { path: 'a b c' }), toolResult('c1', 'one two three four')]);
      await history.waitForTokenUpdates();
      // Call: "Read" + '{"path":"a b c"}' (3 words) + 3; response: "Read" + 4 words + 3.
      expect(history.getHistoryTokens()).toBe(1 + 3 + 3 + (1 + 4 + 3));
    });

    it('should count system instructions and tool definitions toward the total', async () => {
      const history = new HistoryService({
        tokenizer: createWordTokenizer(),
        system: [{ type: 'text', text: 'be brief' }],
        tools: [{ name: 'Read', description: 'reads a file' }],
      });
      history.add(human('hi'));
      await history.waitForTokenUpdates();
      expect(history.getOverheadTokens()).toBe(2 + 1 + 3);
      expect(history.getTotalTokens()).toBe(history.getOverheadTokens() + 1 + 3);
    });

    it('ERR-020: should report which entry the tokenizer failed on, through waitForTokenUpdates', async () => {
      const tokenizer = createWordTokenizer((text) => {
        if (text.includes('poison')) throw new Error('tokenizer crashed');
        return 1;
      });
      const history = new HistoryService({ tokenizer });
      history.addAll([human('fine'), human('poison pill')]);
      const error = await history.waitForTokenUpdates().catch((caught: unknown) => caught);
      expect(TokenCountError.isInstance(error)).toBe(true);
      expect((error as TokenCountError).entryIndex).toBe(1);
      expect((error as Error).cause).toEqual(new Error('tokenizer crashed'));
    });

    it('ERR-021: should propagate a failed token update on every wait until the tokenizer recovers, and keep working afterwards', async () => {
      let broken = true;
      const tokenizer = createWordTokenizer((text) => {
        if (broken) throw new Error('offline');
        return text.length;
      });
      const history = new HistoryService({ tokenizer });
      history.add(human('abc'));
      await expect(history.waitForTokenUpdates()).rejects.toThrow(/Could not count the tokens of history entry 0: offline/);
      // Issue 14: still uncounted, so it is not "done" (it used to resolve here, and the history read as 0 tokens).
      await expect(history.waitForTokenUpdates()).rejects.toThrow(/history entry 0: offline/);
      broken = false;
      await expect(history.recalculateTotalTokens()).resolves.toBeUndefined();
      expect(history.getHistoryTokens()).toBe(3 + 3);
    });

    it('ERR-022: should clamp nonsensical tokenizer output to zero', async () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer((text) => (text === 'nan' ? NaN : -50)) });
      history.addAll([human('nan'), human('negative')]);
      await history.waitForTokenUpdates();
      expect(history.getHistoryTokens()).toBe(6);
      expect(Number.isNaN(history.getTotalTokens())).toBe(false);
    });
  });

  describe('startCompression / endCompression', () => {
    it('should queue entries added during a compression and append them after the rebuilt history', async () => {
      const history = await fiveEntries();
      history.startCompression();
      history.add(human('arrived during compression'));
      expect(history.length).toBe(5);
      await history.replaceHistory([human('summary')]);
      history.endCompression();
      await history.waitForTokenUpdates();
      expect(texts(history)).toEqual(['summary', 'arrived during compression']);
      expect(history.getTotalTokens()).toBe(1 + 3 + 3 + 3);
    });

    it('should refuse to clear or to start a second compression while one runs', () => {
      const history = new HistoryService({ tokenizer: createWordTokenizer() });
      history.startCompression();
      expect(() => history.clear()).toThrow(HistoryLockedError);
      expect(() => history.startCompression()).toThrow(/start a second compression/);
      history.endCompression();
      expect(history.isCompressing()).toBe(false);
    });

    it('should validate a replacement history before changing anything', async () => {
      const history = await fiveEntries();
      const before = history.getRawHistory();
      await expect(history.replaceHistory([human('ok'), { speaker: 'x' } as unknown as HistoryEntry])).rejects.toThrow(
        /history\[1\]/,
      );
      expect(history.getRawHistory()).toBe(before);
    });
  });

  describe('subscribe', () => {
    it('should report added entries, density edits and rebuilds, and stop after unsubscribing', async () => {
      const history = await fiveEntries();
      const events: HistoryEvent['type'][] = [];
      const unsubscribe = history.subscribe((event) => events.push(event.type));
      history.add(human('new'));
      await history.applyDensityResult(density([0]));
      await history.replaceHistory([human('x')]);
      history.clear();
      unsubscribe();
      history.add(human('unseen'));
      expect(events).toEqual(['entries-added', 'density-applied', 'history-replaced', 'cleared']);
    });
  });

  describe('toConversation', () => {
    it('should round-trip through parseConversation', async () => {
      const history = new HistoryService({
        tokenizer: createWordTokenizer(),
        system: [{ type: 'text', text: 'sys' }],
        tools: [{ name: 'Read' }],
        history: [human('a'), toolCall('c'), toolResult('c', 'r')],
      });
      await history.waitForTokenUpdates();
      const conversation = history.toConversation();
      expect(parseConversation(JSON.parse(JSON.stringify(conversation)))).toEqual(conversation);
    });
  });
});
