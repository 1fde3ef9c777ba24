export { createWatermarkStrategy } from './watermark-strategy.js';
export {
  createStatefulWatermarkStrategy,
  type StatefulWatermarkStrategy,
} from './stateful-watermark-strategy.js';
export {
  DEFAULT_CHECKPOINT_TOOL_NAMES,
  type WatermarkSettings,
  type WatermarkSettingsInput,
} from './watermark-settings.js';
export {
  createCheckpointToolDefinition,
  type CheckpointToolDefinitionOptions,
} from './checkpoint-tool-definition.js';
export {
  findCheckpointCall,
  findLatestCheckpointCall,
  findToolCall,
  type FindCheckpointCallOptions,
  type ToolCallLocation,
} from './find-checkpoint-call.js';
export { findTurnStart, findWatermarkBoundary, type WatermarkBoundary } from './find-watermark-boundary.js';
export {
  removeToolBlocksBefore,
  type RemoveToolBlocksOptions,
  type ToolBlockRemoval,
  type ToolBlockRemovalCounts,
} from './remove-tool-blocks-before.js';
