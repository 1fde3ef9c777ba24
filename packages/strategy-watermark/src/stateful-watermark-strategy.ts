import { parseStrategySettings, type CompressionStrategy, type StrategyWarning } from '@ctx/core';
import { buildWatermarkStrategy, type WatermarkResolution } from './build-watermark-strategy.js';
import { findCheckpointCall, findToolCall } from './find-checkpoint-call.js';
import { findWatermarkBoundary } from './find-watermark-boundary.js';
import type { HistoryView } from './history-view.js';
import {
  watermarkSettingsSchema,
  type WatermarkSettings,
  type WatermarkSettingsInput,
} from './watermark-settings.js';

const name = 'stateful-watermark';

/**
 * The stateful watermark strategy: a {@link CompressionStrategy} that keeps its watermark between calls, plus the
 * manual checkpoint API.
 */
export interface StatefulWatermarkStrategy extends CompressionStrategy<WatermarkSettings> {
  /** The watermark: the id of the checkpoint call the kept history starts at, or undefined before the first one. */
  getWatermark(): string | undefined;
  /**
   * Sets the watermark to a tool call id, or clears it with undefined: to restore a watermark saved before a
   * restart (spec 003 "Future Enhancements 3"), or to checkpoint at a call of your choice. Takes effect on the next
   * pass; an id that is not in the history there removes nothing and warns (spec 003 edge case 1).
   *
   * @param callId - A tool call id, or undefined to start over.
   */
  setWatermark(callId: string | undefined): void;
  /**
   * Raises spec 003's checkpoint flag (`checkpoint_tool_name`): the next pass moves the watermark to the first call
   * of `toolName` after the current watermark, then clears the flag. Call it from a tool's own implementation, like
   * spec 003's `deactivate_augments`, for tools that are not in `checkpointToolNames` (or with
   * `checkpointToolNames: []`, for exactly spec 003's set-up). When the next pass finds no such call, the watermark
   * stays and the pass warns (spec 003 edge case 2).
   *
   * @param toolName - The exact name of the tool whose call is the checkpoint.
   */
  requestCheckpoint(toolName: string): void;
  /**
   * Warnings of the last pass that moved or applied the watermark. `optimize()` results carry no warnings in the
   * core contract, so a continuous run reports "watermark not found" and "checkpoint not found" here.
   */
  getLastWarnings(): readonly StrategyWarning[];
}

/**
 * Creates the stateful watermark strategy, spec 003's mechanism without a proxy (registered as
 * `stateful-watermark`). The watermark is a tool call id kept in the strategy object. On every pass (each
 * `optimize()` or `compress()` call):
 *
 * 1. Checkpoint resolution: the first call of a checkpoint tool (`checkpointToolNames`, plus any tool named with
 *    {@link StatefulWatermarkStrategy.requestCheckpoint}) after the watermark becomes the watermark, so several
 *    checkpoints advance it one per pass (spec 003 edge case 3). No watermark yet: search from the start (edge case
 *    4).
 * 2. Compression: every tool call and tool result before the assistant turn holding the watermark is removed,
 *    conversational text stays, entries left empty are dropped. A watermark that is not in the history removes
 *    nothing and warns (edge case 1).
 *
 * Two deliberate differences from spec 003's code: "after the watermark" excludes the watermark call itself (spec
 * 003 would find it again and never advance), and when the watermark is no longer in the history (another strategy
 * dropped its turn), resolution searches the whole history instead of never moving again — everything left is newer
 * than a watermark that was cut away.
 *
 * Not pure: `optimize()` and `compress()` move the watermark. Create one instance per conversation. For a watermark
 * that is re-derived from the history (and survives restarts without saving anything), use
 * `createWatermarkStrategy`.
 *
 * @param settings - Validated once, here.
 * @returns The strategy with its manual checkpoint API.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings.
 *
 * @example
 * ```ts
 * const strategy = createStatefulWatermarkStrategy({ checkpointToolNames: [] });
 * // In the implementation of your deactivate_augments tool:
 * strategy.requestCheckpoint('mcp__nisaba__deactivate_augments');
 * // Before the next model call, the orchestrator's optimize() pass moves the watermark and compresses.
 * await orchestrator.ensureCompressionBeforeSend();
 * saveToDisk(strategy.getWatermark());
 * ```
 */
export function createStatefulWatermarkStrategy(settings?: WatermarkSettingsInput): StatefulWatermarkStrategy {
  const resolved = parseStrategySettings(watermarkSettingsSchema, settings, name);
  let watermark: string | undefined;
  const requested = new Set<string>();
  let lastWarnings: readonly StrategyWarning[] = [];

  const resolveWatermark = ({ entries: history }: HistoryView, options: { readonly commit: boolean }): WatermarkResolution => {
    const warnings: StrategyWarning[] = [];
    let next = watermark;
    const toolNames = new Set([...resolved.checkpointToolNames, ...requested]);
    if (toolNames.size > 0) {
      const watermarkPresent = next !== undefined && findToolCall(history, next) !== undefined;
      const checkpoint = findCheckpointCall(history, { toolNames, after: watermarkPresent ? next : undefined });
      if (checkpoint !== undefined) {
        next = checkpoint.callId;
      } else if (requested.size > 0) {
        warnings.push({
          type: 'other',
          message: `checkpoint tool ${[...requested].join(', ')} has no call after the watermark ${next ?? '(none yet)'}; the watermark stays`,
        });
      }
    }
    const boundary = next === undefined ? undefined : findWatermarkBoundary(history, next);
    if (next !== undefined && boundary === undefined) {
      warnings.push({ type: 'other', message: `watermark ${next} not found in the history; nothing was removed` });
    }
    if (options.commit) {
      watermark = next;
      requested.clear();
      lastWarnings = warnings;
    }
    return {
      watermark: next,
      boundary,
      missing:
        next === undefined
          ? toolNames.size === 0
            ? 'no watermark: no checkpoint tools are configured and none was requested'
            : `no watermark yet: no call of a checkpoint tool (${[...toolNames].join(', ')}) in the history`
          : `watermark ${next} not found in the history`,
      warnings,
    };
  };

  return {
    ...buildWatermarkStrategy({
      name,
      description:
        'Spec 003 watermark: a checkpoint tool call moves a watermark kept between calls; tool history before it is removed.',
      settings: resolved,
      resolveWatermark,
    }),
    getWatermark: () => watermark,
    setWatermark: (callId) => {
      watermark = callId === '' ? undefined : callId;
    },
    requestCheckpoint: (toolName) => {
      requested.add(toolName);
    },
    getLastWarnings: () => lastWarnings,
  };
}
