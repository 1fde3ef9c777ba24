import { parseStrategySettings, type CompressionStrategy } from '@ctx/core';
import { buildWatermarkStrategy } from './build-watermark-strategy.js';
import { findTurnStart } from './find-watermark-boundary.js';
import { createLatestCheckpointFinder } from './latest-checkpoint-finder.js';
import {
  watermarkSettingsSchema,
  type WatermarkSettings,
  type WatermarkSettingsInput,
} from './watermark-settings.js';

const name = 'watermark';

/**
 * Creates the stateless watermark strategy (spec 003 without a proxy, registered as `watermark`): a call to one of
 * the checkpoint tools is the watermark, and every tool call and tool result before the assistant turn holding the
 * newest such call is removed, while all conversational text (user messages, assistant text, text in tool entries)
 * stays. Entries left empty are dropped. No call to a checkpoint tool: nothing happens.
 *
 * It keeps no state: the watermark is re-derived from the history on every call, so it survives restarts (spec 003
 * "Future Enhancements 3") and is where spec 003's stateful watermark ends up once every checkpoint has been
 * resolved. (It remembers only where it last looked, so a history that grew since is searched in what was added.)
 * Continuous trigger: `optimize()` removes tool history before every send, as spec 003's proxy does on every
 * request; `compress()` does the same for threshold and forced runs, whatever the budget (it warns `target-not-met`
 * when the result is still over the target). Pure and linear.
 *
 * @param settings - Validated once, here.
 * @returns The strategy.
 * @throws `InvalidStrategySettingsError` (from `@ctx/core`) for invalid settings, e.g. `checkpointToolNames: ['']`.
 *
 * @example
 * ```ts
 * const strategy = createWatermarkStrategy({ checkpointToolNames: ['compress_to_checkpoint', 'TodoWrite'] });
 * const orchestrator = createCompressionOrchestrator({ history, strategies: [strategy], contextLimit: 200_000 });
 * await orchestrator.ensureCompressionBeforeSend(); // tool history before the newest checkpoint is gone
 * ```
 */
export function createWatermarkStrategy(settings?: WatermarkSettingsInput): CompressionStrategy<WatermarkSettings> {
  const resolved = parseStrategySettings(watermarkSettingsSchema, settings, name);
  const toolNames = new Set(resolved.checkpointToolNames);
  const toolList = resolved.checkpointToolNames.join(', ');
  const findLatest = createLatestCheckpointFinder(toolNames);
  return buildWatermarkStrategy({
    name,
    description:
      'Removes tool calls and results before the newest checkpoint tool call; conversation text stays. Stateless.',
    settings: resolved,
    resolveWatermark: (view) => {
      const call = findLatest(view);
      if (call === undefined) {
        return {
          watermark: undefined,
          boundary: undefined,
          missing:
            toolNames.size === 0
              ? 'no checkpoint tools are configured (checkpointToolNames is empty)'
              : `no call of a checkpoint tool (${toolList}) in the history`,
          warnings: [],
        };
      }
      return {
        watermark: call.callId,
        boundary: { call, boundaryIndex: findTurnStart(view.entries, call.entryIndex) },
        missing: '',
        warnings: [],
      };
    },
  });
}
