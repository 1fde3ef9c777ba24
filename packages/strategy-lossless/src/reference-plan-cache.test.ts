import { resolvePropertyRuns } from '@ctx/conformance';
import {
  applyDensityResultToHistory,
  createTokenCounter,
  HistoryService,
  parseHistory,
  type ContentBlock,
  type HistoryEntry,
  type JsonValue,
} from '@ctx/core';
import { inferWorkspaceRoot } from '@ctx/strategy-utils';
import { corpusExists, loadCorpusConversations } from '@ctx/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { losslessSettingsSchema, type LosslessSettings, type LosslessSettingsInput } from './lossless-settings.js';
import { planReferences, type ReferencePlan } from './plan-references.js';
import { createReferencePlanCache } from './reference-plan-cache.js';
import { linePool as pool, toolOutputArbitrary as outputArbitrary, toolResultArbitrary as resultArbitrary } from './test-support/tool-output-arbitraries.js';

if (!corpusExists) console.warn('Skipping the incremental lossless corpus replay: corpus not found');

// `CTX_PROPERTY_RUNS` raises (or lowers) the number of random histories; the default keeps the suite fast.
const runs = resolvePropertyRuns();

/** One assistant turn, split into entries the way Claude Code sessions are, and its results. */
const turnArbitrary = fc.record({
  tool: fc.constantFrom('Read', 'Bash', 'Write', 'TodoWrite'),
  result: resultArbitrary,
  written: outputArbitrary,
  isError: fc.boolean(),
  reuseId: fc.boolean(),
  // Where signed thinking sits in the turn: nowhere, first, or after the tool call (the turn turns out signed late).
  thinking: fc.constantFrom('none', 'first', 'last'),
  splitEntries: fc.boolean(),
  userText: fc.boolean(),
});

type TurnInput = typeof turnArbitrary extends fc.Arbitrary<infer Turn> ? Turn : never;

function buildHistory(turns: readonly TurnInput[]): HistoryEntry[] {
  const history: HistoryEntry[] = [{ speaker: 'human', blocks: [{ type: 'text', text: 'Start.' }] }];
  turns.forEach((turn, index) => {
    const id = turn.reuseId && index > 0 ? 'call_reused' : `call_${index}`;
    const parameters: JsonValue =
      turn.tool === 'Read'
        ? { file_path: `/repo/file${index % 3}.py` }
        : turn.tool === 'Write'
          ? { file_path: `/repo/file${index % 3}.py`, content: turn.written }
          : turn.tool === 'TodoWrite'
            ? { todos: [{ content: `step ${index}`, status: 'pending', activeForm: `Doing step ${index}` }] }
            : { command: `python run.py --case ${index % 4}\n${turn.written}` };
    const thinking: ContentBlock = { type: 'thinking', thought: `Thinking about ${index}.`, signature: `sig${index}` };
    const call: ContentBlock = { type: 'tool_call', id, name: turn.tool, parameters };
    const blocks: ContentBlock[] = [
      ...(turn.thinking === 'first' ? [thinking] : []),
      { type: 'text', text: `Step ${index}.` },
      call,
      ...(turn.thinking === 'last' ? [thinking] : []),
    ];
    if (turn.splitEntries) for (const block of blocks) history.push({ speaker: 'ai', blocks: [block] });
    else history.push({ speaker: 'ai', blocks });
    history.push({
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: id, toolName: turn.tool, result: turn.result, ...(turn.isError ? { isError: true } : {}) }],
    });
    if (turn.userText) history.push({ speaker: 'human', blocks: [{ type: 'text', text: `Go on with ${index}.` }] });
  });
  return history;
}

const historyArbitrary = fc.array(turnArbitrary, { minLength: 1, maxLength: 12 }).map(buildHistory);

/** Histories a `HistoryService` accepts: every call id used once. */
const serviceHistoryArbitrary = fc
  .array(turnArbitrary.map((turn) => ({ ...turn, reuseId: false })), { minLength: 1, maxLength: 12 })
  .map(buildHistory);

const settingsArbitrary = fc.constantFrom<LosslessSettingsInput>(
  { minReferenceCharacters: 40 },
  { minReferenceCharacters: 40, rewriteToolCallParameters: false, keepErrorResults: true },
  { minReferenceCharacters: 40, referenceToolCallParameters: false },
  {},
);

/**
 * A replay: how many entries each step appends, whether the answer is applied (as the orchestrator does), whether
 * the step starts again from the original entries (a caller holding the raw history), which earlier entry another
 * strategy prunes first, if any (its tool results replaced, as high-density does with a stale read), which one it
 * removes (as high-density removes a stale read's call and result, leaving a shorter history), whether a
 * history shorter than the previous step's (its newest entry gone, otherwise the same) is planned first, and whether
 * the history is frozen (as strategies hand theirs on; the cache then compares only what follows the entries it
 * shares with the last one).
 */
const stepsArbitrary = fc.array(
  fc.record(
    {
      take: fc.integer({ min: 1, max: 4 }),
      apply: fc.boolean(),
      raw: fc.boolean(),
      prune: fc.nat(),
      remove: fc.nat(),
      shorterFirst: fc.boolean(),
      freeze: fc.boolean(),
    },
    { requiredKeys: ['take', 'apply'] },
  ),
  { minLength: 1, maxLength: 60 },
);

interface ReplayStep {
  readonly take: number;
  readonly apply: boolean;
  readonly raw?: boolean;
  readonly prune?: number;
  readonly remove?: number;
  readonly shorterFirst?: boolean;
  readonly freeze?: boolean;
}

/** `history` with the tool results of the entry at `at` (when it holds any) replaced by a short note. */
function pruneEntry(history: readonly HistoryEntry[], at: number): readonly HistoryEntry[] {
  const entry = history[at];
  if (entry === undefined || !entry.blocks.some((block) => block.type === 'tool_response')) return history;
  const pruned: HistoryEntry = {
    ...entry,
    blocks: entry.blocks.map((block) => (block.type === 'tool_response' ? { ...block, result: '[pruned by another strategy]' } : block)),
  };
  return applyDensityResultToHistory(history, { removals: [], replacements: new Map([[at, pruned]]), metadata: {} });
}

function fullPlan(history: readonly HistoryEntry[], settings: LosslessSettings, workspaceRoot: string): ReferencePlan {
  return planReferences(history, { settings, workspaceRoot });
}

/**
 * Replays `original` step by step through `plan`, each step comparing its answer with a full plan of the same input
 * (when `check` says so), and applies the answer when the step asks.
 */
function replay(
  original: readonly HistoryEntry[],
  steps: readonly ReplayStep[],
  options: { readonly settings: LosslessSettings; readonly workspaceRoot: string; readonly checkEvery: number; readonly label?: string },
  plan: (history: readonly HistoryEntry[]) => ReferencePlan,
): number {
  let running: readonly HistoryEntry[] = [];
  // Entries of `original` appended so far (more than `running` holds once entries were removed).
  let appended = 0;
  let rewritten = 0;
  for (let step = 0; appended < original.length; step++) {
    const { take, apply, raw = false, prune, remove, shorterFirst = false, freeze = false } = steps[step % steps.length] as ReplayStep;
    running = [...(raw ? original.slice(0, appended) : running), ...original.slice(appended, appended + take)];
    appended = Math.min(original.length, appended + take);
    if (prune !== undefined) running = pruneEntry(running, prune % running.length);
    if (remove !== undefined && running.length > 1) running = running.filter((_, index) => index !== remove % running.length);
    if (shorterFirst && running.length > 1) {
      // Shorter than the history the previous step planned: its newest entry gone too.
      const shorter = running.slice(0, Math.max(1, running.length - take - 1));
      expect(plan(shorter), `${options.label ?? 'history'} at ${shorter.length} entries`).toStrictEqual(
        fullPlan(shorter, options.settings, options.workspaceRoot),
      );
    }
    if (freeze) running = Object.freeze([...running]);
    const answer = plan(running);
    if (step % options.checkEvery === 0 || appended === original.length) {
      expect(answer, `${options.label ?? 'history'} at ${running.length} entries`).toStrictEqual(
        fullPlan(running, options.settings, options.workspaceRoot),
      );
    }
    rewritten += answer.replacements.size;
    if (apply && answer.replacements.size > 0) {
      running = applyDensityResultToHistory(running, { removals: [], replacements: answer.replacements, metadata: {} });
    }
  }
  return rewritten;
}

/**
 * A read, then an assistant entry whose Bash call repeats the read's lines (rewritten to a reference unless its turn
 * holds signed thinking), its turn still open: entry 3.
 */
function turnWithRewritableCall(): readonly HistoryEntry[] {
  return parseHistory([
    { speaker: 'human', blocks: [{ type: 'text', text: 'Start.' }] },
    { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'r0', name: 'Read', parameters: { file_path: '/repo/a.py' } }] },
    { speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'r0', toolName: 'Read', result: pool.join('\n') }] },
    { speaker: 'ai', blocks: [{ type: 'tool_call', id: 'b1', name: 'Bash', parameters: { command: `cat > b.py <<EOF\n${pool.join('\n')}\nEOF` } }] },
  ]);
}

/** A Bash turn with `result` as its output, nothing else about it special. */
function bashTurn(result: string): TurnInput {
  return { tool: 'Bash', result, written: '', isError: false, reuseId: false, thinking: 'none', splitEntries: false, userText: false };
}

describe('createReferencePlanCache', () => {
  it('should answer exactly as a full plan at every step of random histories replayed entry by entry, answers applied or not, earlier entries pruned or removed by another strategy', () => {
    let rewritten = 0;
    fc.assert(
      fc.property(historyArbitrary, stepsArbitrary, settingsArbitrary, (history, steps, input) => {
        const settings = losslessSettingsSchema.parse(input);
        const cache = createReferencePlanCache(settings);
        const options = { settings, workspaceRoot: '/repo', checkEvery: 1 };
        rewritten += replay(parseHistory(history), steps, options, (running) => cache.plan(running, '/repo'));
      }),
      { numRuns: runs },
    );
    // The generator must exercise references, not just histories with nothing to do.
    expect(rewritten).toBeGreaterThan(runs);
  });

  it('should answer exactly as a full plan for every snapshot of a history service, answers applied and earlier results pruned through it', async () => {
    const lengthTokenizer = { specificationVersion: 'v1', name: 'length', countTokens: (text: string) => text.length } as const;
    await fc.assert(
      fc.asyncProperty(serviceHistoryArbitrary, stepsArbitrary, settingsArbitrary, async (history, steps, input) => {
        const settings = losslessSettingsSchema.parse(input);
        const cache = createReferencePlanCache(settings);
        const service = new HistoryService({ tokenCounter: createTokenCounter(lengthTokenizer) });
        const entries = parseHistory(history);
        let appended = 0;
        for (let step = 0; appended < entries.length; step++) {
          const { take, apply, prune } = steps[step % steps.length] as ReplayStep;
          for (const entry of entries.slice(appended, appended + take)) service.add(entry);
          appended = Math.min(entries.length, appended + take);
          if (prune !== undefined) {
            // Another strategy prunes an earlier result: the snapshots share the entries before it only.
            const basis = service.getRawHistory();
            const pruned = pruneEntry(basis, prune % basis.length);
            const at = pruned.findIndex((entry, index) => entry !== basis[index]);
            if (at !== -1) {
              await service.applyDensityResult({ removals: [], replacements: new Map([[at, pruned[at] as HistoryEntry]]), metadata: {} }, { basis });
            }
          }
          const snapshot = service.getRawHistory();
          const answer = cache.plan(snapshot, '/repo');
          expect(answer, `at ${snapshot.length} entries`).toStrictEqual(fullPlan(snapshot, settings, '/repo'));
          if (apply && answer.replacements.size > 0) {
            await service.applyDensityResult({ removals: [], replacements: answer.replacements, metadata: {} }, { basis: snapshot });
          }
        }
      }),
      { numRuns: runs },
    );
  });

  it('should plan an entry a caller put in place of another in its own array since the last call', () => {
    const settings = losslessSettingsSchema.parse({ minReferenceCharacters: 40 });
    const cache = createReferencePlanCache(settings);
    const history: HistoryEntry[] = [...parseHistory(buildHistory([bashTurn(pool.join('\n')), bashTurn('ok')]))];
    const before = cache.plan(history, '/repo');
    expect(before.replacements.size).toBe(0);
    // The last result, replaced in the same array: it now repeats the first result's lines.
    history[history.length - 1] = parseHistory(buildHistory([bashTurn(pool.join('\n')), bashTurn(pool.join('\n'))])).at(-1) as HistoryEntry;
    const after = cache.plan(history, '/repo');
    expect(after.replacements.size).toBeGreaterThan(0);
    expect(after).toStrictEqual(fullPlan(history, settings, '/repo'));
  });

  it('should keep conversations that share a cache (and their first entries) apart', () => {
    fc.assert(
      fc.property(historyArbitrary, historyArbitrary, fc.nat({ max: 6 }), (first, second, shared) => {
        const settings = losslessSettingsSchema.parse({ minReferenceCharacters: 40 });
        const cache = createReferencePlanCache(settings);
        const one = parseHistory(first);
        // The second conversation starts with the same entry objects as the first, then goes its own way.
        const two = [...one.slice(0, shared), ...parseHistory(second).slice(Math.min(shared, second.length))];
        const longest = Math.max(one.length, two.length);
        for (let end = 1; end <= longest; end++) {
          for (const history of [one, two]) {
            if (end > history.length) continue;
            const input = history.slice(0, end);
            expect(cache.plan(input, '/repo')).toStrictEqual(fullPlan(input, settings, '/repo'));
          }
        }
      }),
      { numRuns: runs },
    );
  });

  it('should take back a tool call rewrite when another conversation continues its turn with signed thinking', () => {
    const settings = losslessSettingsSchema.parse({ minReferenceCharacters: 40 });
    const cache = createReferencePlanCache(settings);
    const shared = turnWithRewritableCall();
    const one = [...shared, ...parseHistory([{ speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'b1', toolName: 'Bash', result: 'ok' }] }])];
    const two = [...shared, ...parseHistory([{ speaker: 'ai', blocks: [{ type: 'thinking', thought: 'Hm.', signature: 'sig' }] }])];
    expect(cache.plan(shared, '/repo').replacements.has(3)).toBe(true);
    cache.plan(one, '/repo');
    const answer = cache.plan(two, '/repo');
    expect(answer.replacements.has(3)).toBe(false);
    expect(answer).toStrictEqual(fullPlan(two, settings, '/repo'));
  });

  it('should give a tool call rewrite back when the signed thinking that took it away is gone from the turn', () => {
    const settings = losslessSettingsSchema.parse({ minReferenceCharacters: 40 });
    const cache = createReferencePlanCache(settings);
    const shared = turnWithRewritableCall();
    // The turn turns out signed, and its call is kept as written; then the signed entry is gone (another
    // conversation sharing the cache, or a strategy that dropped it): the call is rewritten again.
    const signed = [...shared, ...parseHistory([{ speaker: 'ai', blocks: [{ type: 'thinking', thought: 'Hm.', signature: 'sig' }] }])];
    const unsigned = [...shared, ...parseHistory([{ speaker: 'human', blocks: [{ type: 'text', text: 'Go on.' }] }])];
    expect(cache.plan(signed, '/repo').replacements.has(3)).toBe(false);
    const answer = cache.plan(unsigned, '/repo');
    expect(answer.replacements.has(3)).toBe(true);
    expect(answer).toStrictEqual(fullPlan(unsigned, settings, '/repo'));
  });

  it('should give back the same replacement entries on the next turn, so token counts cached by entry still apply', () => {
    const settings = losslessSettingsSchema.parse({ minReferenceCharacters: 40 });
    const cache = createReferencePlanCache(settings);
    const history = parseHistory(
      buildHistory(
        [0, 1, 2].map(() => ({
          tool: 'Bash',
          result: pool.join('\n'),
          written: '',
          isError: false,
          reuseId: false,
          thinking: 'none',
          splitEntries: false,
          userText: false,
        })),
      ),
    );
    const before = cache.plan(history.slice(0, -1), '/repo');
    const after = cache.plan(history, '/repo');
    expect(before.replacements.size).toBeGreaterThan(0);
    for (const [index, replacement] of before.replacements) expect(after.replacements.get(index)).toBe(replacement);
    expect(after).toStrictEqual(fullPlan(history, settings, '/repo'));
  });

  it('should keep what it planned before the entries another strategy removed, replacement entries included', () => {
    const settings = losslessSettingsSchema.parse({ minReferenceCharacters: 40 });
    const cache = createReferencePlanCache(settings);
    const whole = pool.join('\n');
    const history = parseHistory(buildHistory([bashTurn(whole), bashTurn(whole), bashTurn(pool.slice(2).join('\n')), bashTurn(whole)]));
    const before = cache.plan(history, '/repo');
    expect(before.replacements.has(4)).toBe(true);
    // The last turn's call and result removed (high-density removes a stale read so): the history is shorter.
    const shorter = history.slice(0, -2);
    const after = cache.plan(shorter, '/repo');
    expect(after).toStrictEqual(fullPlan(shorter, settings, '/repo'));
    // Planned on from the removed entries, not from the start: the earlier replacement is the same object.
    expect(after.replacements.get(4)).toBe(before.replacements.get(4));
  });

  it('should plan again from an earlier entry that changed, and from the start for another workspace root', () => {
    const settings = losslessSettingsSchema.parse({ minReferenceCharacters: 40 });
    const cache = createReferencePlanCache(settings);
    const history = parseHistory(buildHistory([bashTurn(pool.join('\n')), bashTurn(pool.join('\n')), bashTurn(pool.join('\n'))]));
    cache.plan(history, '/repo');
    const changed = [...history.slice(0, 2), ...parseHistory(buildHistory([bashTurn(pool.slice(3).join('\n'))])).slice(2, 3), ...history.slice(3)];
    expect(cache.plan(changed, '/repo')).toStrictEqual(fullPlan(changed, settings, '/repo'));
    expect(cache.plan(history, '/elsewhere')).toStrictEqual(fullPlan(history, settings, '/elsewhere'));
  });

  it.skipIf(!corpusExists)('should answer exactly as a full plan on corpus conversations replayed entry by entry, the way the agent loop applies them', () => {
    const settings = losslessSettingsSchema.parse({});
    const conversations = loadCorpusConversations().filter((item) => item.conversation.history.length <= 400);
    let rewritten = 0;
    for (const { name, conversation } of conversations) {
      const history = parseHistory(conversation.history);
      const workspaceRoot = inferWorkspaceRoot(history);
      const cache = createReferencePlanCache(settings);
      // A full plan costs the whole history: compared every 25th step, and at the end, to keep the suite fast. Each
      // step's history is frozen, as the history service hands its snapshots to strategies.
      rewritten += replay(history, [{ take: 1, apply: true, freeze: true }], { settings, workspaceRoot, checkEvery: 25, label: name }, (running) =>
        cache.plan(running, workspaceRoot),
      );
    }
    expect(rewritten).toBeGreaterThan(100);
  }, 300_000);

  it.skipIf(!corpusExists)('should answer exactly as a full plan on corpus conversations whose earlier entries another strategy prunes or removes as they go', () => {
    const settings = losslessSettingsSchema.parse({});
    // The largest conversations (up to 400 entries), where a plan from the start costs most: every fifth turn prunes
    // an earlier entry's results, after planning a history shorter than the one planned last, and the next removes an
    // earlier entry (a different one each time), as high-density does with stale reads in the `balanced` preset.
    const conversations = loadCorpusConversations()
      .filter((item) => item.conversation.history.length <= 400)
      .sort((a, b) => b.conversation.history.length - a.conversation.history.length)
      .slice(0, 6);
    const steps: ReplayStep[] = [
      { take: 1, apply: true },
      { take: 1, apply: true },
      { take: 1, apply: false },
      { take: 1, apply: true, prune: 7919, shorterFirst: true },
      { take: 1, apply: true, remove: 104_729 },
    ];
    let rewritten = 0;
    for (const { name, conversation } of conversations) {
      const history = parseHistory(conversation.history);
      const workspaceRoot = inferWorkspaceRoot(history);
      const cache = createReferencePlanCache(settings);
      rewritten += replay(history, steps, { settings, workspaceRoot, checkEvery: 10, label: name }, (running) => cache.plan(running, workspaceRoot));
    }
    expect(rewritten).toBeGreaterThan(10);
  }, 300_000);
});
