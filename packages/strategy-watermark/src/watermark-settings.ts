import { z } from 'zod';

/**
 * The checkpoint tool names a watermark strategy watches by default: the two checkpoint tools of spec 003
 * (`compress_to_checkpoint`, `deactivate_augments`), bare and under the `nisaba` MCP server that spec 003 runs them
 * in (`mcp__nisaba__…`). Names match exactly: list other MCP servers' names in full.
 */
export const DEFAULT_CHECKPOINT_TOOL_NAMES: readonly string[] = Object.freeze([
  'compress_to_checkpoint',
  'deactivate_augments',
  'mcp__nisaba__compress_to_checkpoint',
  'mcp__nisaba__deactivate_augments',
]);

const toolName = z.string().min(1, 'Expected a non-empty tool name');

/** The settings schema of both watermark strategies; defaults live here. */
export const watermarkSettingsSchema = z.strictObject({
  /**
   * Tool names whose calls are checkpoints: a call to one of them moves the watermark to that call. Exact,
   * case-sensitive names (`TodoWrite`, `mcp__nisaba__deactivate_augments`). A single name may be given as a string
   * (convenient on the command line: `--set watermark.checkpointToolNames=TodoWrite`). An empty list turns automatic
   * checkpoints off; the stateful form then moves only on `requestCheckpoint` and `setWatermark` (spec 003's own
   * set-up, where the tool's implementation raises the flag).
   * @default DEFAULT_CHECKPOINT_TOOL_NAMES
   */
  checkpointToolNames: z
    .union([toolName.transform((name) => [name]), z.array(toolName)])
    .default([...DEFAULT_CHECKPOINT_TOOL_NAMES]),
  /**
   * Also remove thinking blocks before the watermark. Spec 003 removes only tool calls and results; reasoning about
   * tool work that is gone is rarely worth its tokens, but it is not tool history, so it stays by default. Thinking
   * is always dropped whole, never edited.
   * @default false
   */
  removeThinking: z.boolean().default(false),
});

/** Settings of the watermark strategies, defaults filled in. */
export type WatermarkSettings = z.output<typeof watermarkSettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type WatermarkSettingsInput = z.input<typeof watermarkSettingsSchema>;
