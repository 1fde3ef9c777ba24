import {
  DEFAULT_COMPRESSION_THRESHOLD,
  createEmptyDensityResult,
  getHistoryTokenTarget,
  type CompressionResult,
  type CompressionStrategy,
  type DensityResult,
  type HistoryEntry,
  type ReductionEstimate,
  type StrategyWarning,
  formatCount,
} from '@ctx/core';
import type { WatermarkBoundary } from './find-watermark-boundary.js';
import { createCleanPrefix } from './clean-prefix.js';
import { createHistoryViews, type HistoryView } from './history-view.js';
import { holdsNothingToRemove, removeToolBlocksBetween, type ToolBlockRemoval } from './remove-tool-blocks-before.js';
import { watermarkSettingsSchema, type WatermarkSettings } from './watermark-settings.js';

/** Where the watermark is on one pass, as a watermark strategy sees it. */
export interface WatermarkResolution {
  /** The watermark: the call id it points at, when there is one. */
  readonly watermark: string | undefined;
  /** Where the watermark cuts this history; undefined when there is no watermark or it is not in the history. */
  readonly boundary: WatermarkBoundary | undefined;
  /** Why there is no boundary, as a phrase for a no-op message. */
  readonly missing: string;
  /** Things the user should know (spec 003 edge cases 1 and 2). */
  readonly warnings: readonly StrategyWarning[];
}

/**
 * Finds the watermark of a history (read from its view: `view.entries`); `commit: false` for forecasts, which must
 * not move a stateful watermark.
 */
export type ResolveWatermark = (view: HistoryView, options: { readonly commit: boolean }) => WatermarkResolution;

/** What distinguishes the stateless and the stateful watermark strategy. */
export interface WatermarkStrategyParts {
  readonly name: string;
  readonly description: string;
  readonly settings: WatermarkSettings;
  readonly resolveWatermark: ResolveWatermark;
}

function plural(count: number, noun: string, nounPlural = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : nounPlural}`;
}

function isEmptyRemoval(removal: ToolBlockRemoval): boolean {
  return removal.removals.length === 0 && removal.replacements.size === 0;
}

/**
 * Builds a watermark strategy around a way of finding the watermark. Both forms share everything else: a
 * continuous trigger (`optimize()` before every send removes tool history before the watermark, as spec 003's proxy
 * does on every request), the same removal in `compress()` for threshold and forced runs, and the same reports.
 */
export function buildWatermarkStrategy(parts: WatermarkStrategyParts): CompressionStrategy<WatermarkSettings> {
  const { name, settings, resolveWatermark } = parts;

  const removalOptions = { removeThinking: settings.removeThinking };
  // Each call copies the history and compares it with the previous call's once; what the pass remembers is checked
  // against that.
  const views = createHistoryViews();
  // Before every model call the entries before the watermark are read for tool blocks; once a removal is applied
  // they hold none, so only what changed since the last call is read again.
  const cleanPrefix = createCleanPrefix((entry) => holdsNothingToRemove(entry, removalOptions));

  const plan = (history: readonly HistoryEntry[], commit: boolean) => {
    const view = views(history);
    const resolution = resolveWatermark(view, { commit });
    if (resolution.boundary === undefined) return { resolution, removal: undefined };
    const { boundaryIndex } = resolution.boundary;
    const removal = removeToolBlocksBetween(view.entries, cleanPrefix(view, boundaryIndex), boundaryIndex, removalOptions);
    return { resolution, removal };
  };

  const withWarnings = (warnings: readonly StrategyWarning[]) => (warnings.length === 0 ? {} : { warnings });

  return {
    specificationVersion: 'v1',
    name,
    description: parts.description,
    requiresLLM: false,
    trigger: { mode: 'continuous', defaultThreshold: DEFAULT_COMPRESSION_THRESHOLD },
    capabilities: { lossless: false, estimatedSpeed: 'fast' },
    settingsSchema: watermarkSettingsSchema,
    settings,

    optimize(history): DensityResult {
      if (history.length === 0) return createEmptyDensityResult();
      const { removal } = plan(history, true);
      if (removal === undefined || isEmptyRemoval(removal)) return createEmptyDensityResult();
      return { removals: removal.removals, replacements: removal.replacements, metadata: { ...removal.counts } };
    },

    compress(context): Promise<CompressionResult> {
      const { history, tokenCounter } = context;
      if (history.length === 0) return Promise.resolve({ type: 'no-op', reason: 'empty-history' });
      const { resolution, removal } = plan(history, true);
      if (removal === undefined || resolution.boundary === undefined) {
        return Promise.resolve({
          type: 'no-op',
          reason: 'too-few-compressible',
          message: resolution.missing,
          ...withWarnings(resolution.warnings),
        });
      }
      const { boundaryIndex } = resolution.boundary;
      if (isEmptyRemoval(removal)) {
        return Promise.resolve({
          type: 'no-op',
          reason: 'too-few-compressible',
          message: `no tool call${settings.removeThinking ? ', tool result or thinking block' : ' or tool result'} before the watermark ${resolution.watermark ?? ''} (its turn starts at entry ${boundaryIndex})`,
          ...withWarnings(resolution.warnings),
        });
      }
      const tokensBefore = tokenCounter.countEntries(history);
      const tokensAfter = tokenCounter.countEntries(removal.history);
      const { counts } = removal;
      const removed = [
        plural(counts.toolCallsRemoved, 'tool call'),
        plural(counts.toolResultsRemoved, 'tool result'),
        ...(counts.thinkingBlocksRemoved > 0 ? [plural(counts.thinkingBlocksRemoved, 'thinking block')] : []),
      ].join(', ');
      const warnings: StrategyWarning[] = [
        ...resolution.warnings,
        {
          type: 'lossy',
          message: `removed ${removed} before the watermark ${resolution.watermark ?? ''} (${formatCount(tokensBefore - tokensAfter)} tokens, ${plural(counts.entriesRemoved, 'emptied entry', 'emptied entries')} dropped); conversation text kept, the removed blocks are not retrievable`,
        },
      ];
      const target = getHistoryTokenTarget(context.budget);
      if (tokensAfter > target) {
        warnings.push({
          type: 'target-not-met',
          message: `kept ${formatCount(tokensAfter)} tokens, over the target of ${formatCount(target)}: only tool history before the watermark is removed`,
        });
      }
      return Promise.resolve({
        type: 'applied',
        newHistory: removal.history,
        metadata: {
          originalMessageCount: history.length,
          compressedMessageCount: removal.history.length,
          strategyUsed: name,
          llmCallMade: false,
          counts: { ...counts, tokensRemoved: tokensBefore - tokensAfter, boundaryIndex },
        },
        warnings,
      });
    },

    estimateReduction(context): Promise<ReductionEstimate> {
      const tokensBefore = context.tokenCounter.countEntries(context.history);
      const { removal } = plan(context.history, false);
      return Promise.resolve({
        tokensBefore,
        estimatedTokensAfter: removal === undefined ? tokensBefore : context.tokenCounter.countEntries(removal.history),
      });
    },
  };
}
