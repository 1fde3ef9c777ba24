import {
  createEmptyDensityResult,
  getHistoryTokenTarget,
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type HistoryEntry,
} from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { formatConformanceReport, runConformance, type ConformanceReport } from './run-conformance.js';
import { appliedResult, stubStrategy } from './test-support/stub-strategy.js';

const strategy = (overrides: Partial<CompressionStrategy>): CompressionStrategy => stubStrategy('test-strategy', overrides);
const applied = (context: CompressionContext, newHistory: readonly HistoryEntry[]): CompressionResult =>
  appliedResult(context, newHistory, 'test-strategy');

/** Drops the oldest half, cutting only before human entries: a small valid strategy. */
const dropOldestHalf = (context: CompressionContext): Promise<CompressionResult> => {
  const start = context.history.findIndex((entry, index) => index >= context.history.length / 2 && entry.speaker === 'human');
  if (start <= 0) return Promise.resolve({ type: 'no-op', reason: 'too-few-compressible' });
  return Promise.resolve(applied(context, context.history.slice(start)));
};

const failedChecks = (report: ConformanceReport) =>
  [...new Set(report.results.filter((result) => result.status === 'failed').map((result) => result.checkId))].sort();

describe('runConformance', () => {
  it('should pass a strategy that keeps every rule', async () => {
    const report = await runConformance({ strategy: strategy({ compress: dropOldestHalf }) });
    expect(failedChecks(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.counts.passed).toBeGreaterThan(50);
  });

  it('should fail contract-shape for a strategy of another specification version', async () => {
    const report = await runConformance({
      strategy: { ...strategy({}), specificationVersion: 'v2' } as unknown as CompressionStrategy,
    });
    expect(failedChecks(report)).toContain('contract-shape');
  });

  it('should fail input-not-mutated when compress() mutates the history it was given', async () => {
    const report = await runConformance({
      strategy: strategy({
        compress: (context) => {
          (context.history as HistoryEntry[]).reverse();
          return Promise.resolve({ type: 'no-op', reason: 'already-under-target' });
        },
      }),
    });
    expect(failedChecks(report)).toContain('input-not-mutated');
    expect(report.results.find((result) => result.checkId === 'input-not-mutated')?.message).toMatch(/mutate/);
  });

  it('should fail deterministic when two runs differ', async () => {
    let run = 0;
    const report = await runConformance({
      strategy: strategy({
        compress: (context) => {
          run += 1;
          // Every call drops one more entry than the one before: the same input never gives the same output.
          return Promise.resolve(applied(context, context.history.slice(run)));
        },
      }),
    });
    expect(failedChecks(report)).toContain('deterministic');
  });

  it('should fail pairing-preserved when tool responses are dropped but their calls kept', async () => {
    const report = await runConformance({
      strategy: strategy({
        compress: (context) => Promise.resolve(applied(context, context.history.filter((entry) => entry.speaker !== 'tool'))),
      }),
    });
    expect(failedChecks(report)).toContain('pairing-preserved');
  });

  it('should fail provider-valid, and not pairing-preserved, when the output starts with an assistant turn', async () => {
    // A cut before an assistant turn keeps every call next to its result, so pairing holds; but Anthropic rejects a
    // request whose first message is not the user's (top-down truncation puts a notice first for this reason).
    const cutBeforeAssistantTurn = (context: CompressionContext): Promise<CompressionResult> => {
      const { history } = context;
      const start = history.findIndex(
        (entry, index) => index >= history.length / 2 && entry.speaker === 'ai' && history[index - 1]?.speaker !== 'ai',
      );
      if (start <= 0) return Promise.resolve({ type: 'no-op', reason: 'too-few-compressible' });
      return Promise.resolve(applied(context, history.slice(start)));
    };
    const report = await runConformance({ strategy: strategy({ compress: cutBeforeAssistantTurn }) });
    expect(failedChecks(report)).toContain('provider-valid');
    expect(failedChecks(report)).not.toContain('pairing-preserved');
    expect(report.results.find((result) => result.checkId === 'provider-valid' && result.status === 'failed')?.message).toMatch(
      /made the request invalid: Anthropic first-message-role at messages\[0\]\.role/,
    );
  });

  it('should fail provider-valid, and not pairing-preserved, when dropping calls block by block leaves empty entries', async () => {
    // Removing the calls of the first turn with tools together with their results keeps pairing valid, but the
    // emptied entries become messages without content, which both providers reject.
    const dropFirstCalls = (context: CompressionContext): Promise<CompressionResult> => {
      const { history } = context;
      const first = history.findIndex((entry) => entry.blocks.some((block) => block.type === 'tool_call'));
      if (first === -1) return Promise.resolve({ type: 'no-op', reason: 'too-few-compressible' });
      let end = first;
      while (history[end]?.speaker === 'ai' || history[end]?.speaker === 'tool') end++;
      const emptied = history.map((entry, index) =>
        index < first || index >= end
          ? entry
          : { ...entry, blocks: entry.blocks.filter((block) => block.type !== 'tool_call' && block.type !== 'tool_response') },
      );
      return Promise.resolve(applied(context, emptied));
    };
    const report = await runConformance({ strategy: strategy({ compress: dropFirstCalls }) });
    expect(failedChecks(report)).toContain('provider-valid');
    expect(failedChecks(report)).not.toContain('pairing-preserved');
    const messages = report.results.filter((result) => result.checkId === 'provider-valid' && result.status === 'failed');
    expect(messages.map((result) => result.message).join('\n')).toMatch(/Anthropic empty-content|OpenAI empty-assistant/);
  });

  it('should not fail provider-valid for problems the input already had', async () => {
    const startsWithAssistant = {
      name: 'starts-with-assistant',
      description: 'a history that already starts with an assistant turn',
      history: [
        { speaker: 'ai' as const, blocks: [{ type: 'text' as const, text: 'Hello, how can I help?' }] },
        { speaker: 'human' as const, blocks: [{ type: 'text' as const, text: 'Fix the parser.' }] },
        { speaker: 'ai' as const, blocks: [{ type: 'text' as const, text: `Fixed. ${'Details. '.repeat(50)}` }] },
      ],
    };
    const report = await runConformance({
      strategy: strategy({ compress: (context) => Promise.resolve(applied(context, context.history.slice(0, 2))) }),
      includeDefaultFixtures: false,
      fixtures: [startsWithAssistant],
    });
    expect(failedChecks(report)).not.toContain('provider-valid');
  });

  it('should fail tokens-never-increase and applied-means-smaller when the history grows', async () => {
    const report = await runConformance({
      strategy: strategy({
        compress: (context) =>
          Promise.resolve(
            applied(context, [...context.history, { speaker: 'human', blocks: [{ type: 'text', text: 'extra words' }] }]),
          ),
      }),
    });
    expect(failedChecks(report)).toEqual(expect.arrayContaining(['tokens-never-increase', 'applied-means-smaller']));
  });

  it('should fail applied-means-smaller when "applied" changes nothing', async () => {
    const report = await runConformance({
      strategy: strategy({ compress: (context) => Promise.resolve(applied(context, context.history)) }),
    });
    expect(failedChecks(report)).toContain('applied-means-smaller');
    expect(failedChecks(report)).not.toContain('tokens-never-increase');
  });

  it('should fail thinking-verbatim when a thinking block is edited', async () => {
    const report = await runConformance({
      strategy: strategy({
        compress: (context) =>
          Promise.resolve(
            applied(
              context,
              context.history.slice(1).map((entry) => ({
                ...entry,
                blocks: entry.blocks.map((block) => (block.type === 'thinking' ? { ...block, thought: 'short' } : block)),
              })),
            ),
          ),
      }),
    });
    expect(failedChecks(report)).toContain('thinking-verbatim');
  });

  it('should fail expand-restores when a lossless strategy cannot restore its input, and skip it for the others', async () => {
    const dropFirst = (context: CompressionContext) => Promise.resolve(applied(context, context.history.slice(1)));
    const plain = await runConformance({ strategy: strategy({ compress: dropFirst }) });
    expect(plain.results.filter((result) => result.checkId === 'expand-restores').every((result) => result.status === 'skipped')).toBe(true);

    const withoutExpand = await runConformance({ strategy: strategy({ compress: dropFirst, capabilities: { lossless: true } }) });
    expect(failedChecks(withoutExpand)).toContain('expand-restores');

    const wrongExpand = await runConformance({
      strategy: strategy({ compress: dropFirst, capabilities: { lossless: true }, expand: (history) => [...history] }),
    });
    expect(failedChecks(wrongExpand)).toContain('expand-restores');
  });

  it('should fail user-text-verbatim when user text is rewritten, and skip it for strategies that declare so', async () => {
    const rewrite = (context: CompressionContext) =>
      Promise.resolve(
        applied(
          context,
          context.history.slice(1).map((entry) => ({
            ...entry,
            blocks: entry.blocks.map((block) =>
              entry.speaker === 'human' && block.type === 'text' ? { ...block, text: block.text.slice(0, 5) } : block,
            ),
          })),
        ),
      );
    const strict = await runConformance({ strategy: strategy({ compress: rewrite }) });
    expect(failedChecks(strict)).toContain('user-text-verbatim');

    const declared = await runConformance({
      strategy: strategy({ compress: rewrite, capabilities: { rewritesUserText: true } }),
    });
    expect(failedChecks(declared)).not.toContain('user-text-verbatim');
    expect(declared.results.filter((result) => result.checkId === 'user-text-verbatim').every((result) => result.status === 'skipped')).toBe(true);
  });

  it('should not hold harness text against user-text-verbatim, but still catch a rewritten typed part', async () => {
    const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
    const ai = (text: string): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });
    const withHarnessText = {
      name: 'harness-text',
      description: 'Claude Code style: a prompt with an appended reminder, hook output and a slash command',
      history: [
        human('Fix the parser\n\n<system-reminder>\nThe todo list is empty.\n</system-reminder>'),
        ai(`Looking. ${'Reasoning. '.repeat(20)}`),
        human(`<system-reminder>\nPostToolUse hook: ${'warning: unused variable\n'.repeat(20)}</system-reminder>`),
        ai(`Fixed. ${'Details. '.repeat(20)}`),
        human('<command-name>/compact</command-name>\n<command-message>compact</command-message>'),
        ai('Compacted.'),
      ],
    };
    const rewriting = (rewrite: (text: string) => string) => (context: CompressionContext) =>
      Promise.resolve(
        applied(
          context,
          context.history.map((entry) => ({
            ...entry,
            blocks: entry.blocks.map((block) =>
              entry.speaker === 'human' && block.type === 'text' ? { ...block, text: rewrite(block.text) } : block,
            ),
          })),
        ),
      );
    // Cutting every reminder down (and the one after the prompt off) leaves what the user typed untouched.
    const shortenReminders = rewriting((text) =>
      text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, () => (text.startsWith('<') ? '<system-reminder>…</system-reminder>' : '')),
    );
    const harnessOnly = await runConformance({
      strategy: strategy({ compress: shortenReminders }),
      includeDefaultFixtures: false,
      fixtures: [withHarnessText],
    });
    expect(failedChecks(harnessOnly)).not.toContain('user-text-verbatim');

    const typedRewritten = await runConformance({
      strategy: strategy({ compress: rewriting((text) => text.replace('Fix the parser', 'Fix parser')) }),
      includeDefaultFixtures: false,
      fixtures: [withHarnessText],
    });
    expect(failedChecks(typedRewritten)).toContain('user-text-verbatim');
  });

  it('should fail llm-honesty when a strategy with requiresLLM: false calls the summarizer', async () => {
    const report = await runConformance({
      strategy: strategy({
        compress: async (context) => {
          await context.summarizer?.summarize({ entries: context.history });
          return { type: 'no-op', reason: 'already-under-target' };
        },
      }),
    });
    expect(failedChecks(report)).toContain('llm-honesty');
  });

  it('should fail result-shape for a no-op with an unknown reason', async () => {
    const report = await runConformance({
      strategy: strategy({
        compress: () => Promise.resolve({ type: 'no-op', reason: 'because' } as unknown as CompressionResult),
      }),
    });
    expect(failedChecks(report)).toContain('result-shape');
  });

  it('should fail optimize-accepted when optimize() removes and replaces the same index', async () => {
    const report = await runConformance({
      strategy: strategy({
        trigger: { mode: 'continuous', defaultThreshold: 0.85 },
        optimize: (history) =>
          history.length < 2
            ? createEmptyDensityResult()
            : { removals: [0], replacements: new Map([[0, history[0] as HistoryEntry]]), metadata: {} },
      }),
    });
    expect(failedChecks(report)).toContain('optimize-accepted');
    expect(report.results.find((result) => result.checkId === 'optimize-accepted' && result.status === 'failed')?.message).toMatch(
      /both removed and replaced/,
    );
  });

  it('should fail empty-history when compress([]) invents entries', async () => {
    const report = await runConformance({
      strategy: strategy({
        compress: (context) =>
          Promise.resolve(
            context.history.length === 0
              ? applied(context, [{ speaker: 'human', blocks: [{ type: 'text', text: 'hello' }] }])
              : { type: 'no-op', reason: 'already-under-target' },
          ),
      }),
    });
    expect(failedChecks(report)).toEqual(['empty-history']);
  });

  it('should give strategies a budget whose target is below the fixture (tight) and above it (roomy)', async () => {
    const targets: { tokens: number; target: number }[] = [];
    await runConformance({
      strategy: strategy({
        compress: (context) => {
          targets.push({
            tokens: context.tokenCounter.countEntries(context.history),
            target: getHistoryTokenTarget(context.budget),
          });
          return Promise.resolve({ type: 'no-op', reason: 'already-under-target' });
        },
      }),
      includeDefaultFixtures: true,
    });
    const nonEmpty = targets.filter((entry) => entry.tokens > 50);
    expect(nonEmpty.some((entry) => entry.target < entry.tokens)).toBe(true);
    expect(nonEmpty.some((entry) => entry.target > entry.tokens)).toBe(true);
  });

  it('should run the caller fixtures, and only them when defaults are excluded', async () => {
    const report = await runConformance({
      strategy: strategy({}),
      includeDefaultFixtures: false,
      fixtures: [
        {
          name: 'mine',
          description: 'one exchange',
          history: [
            { speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] },
            { speaker: 'ai', blocks: [{ type: 'text', text: 'hello' }] },
          ],
        },
      ],
    });
    const fixtures = new Set(report.results.map((result) => result.fixture).filter(Boolean));
    expect([...fixtures]).toEqual(['mine']);
  });
});

describe('formatConformanceReport', () => {
  it('should list each failure with its fixture and message, then the totals', async () => {
    const report = await runConformance({
      strategy: strategy({ compress: (context) => Promise.resolve(applied(context, context.history)) }),
    });
    const text = formatConformanceReport(report);
    expect(text).toMatch(/^Conformance of "test-strategy": FAILED/);
    expect(text).toMatch(/✗ applied-means-smaller \[chat-only\]: tight budget: returned "applied" without reducing tokens/);
    expect(text).toMatch(/\d+ passed, \d+ failed, \d+ skipped/);
  });
});
