import type { ToolDefinition } from '@ctx/core';

/** Options of {@link createCheckpointToolDefinition}. */
export interface CheckpointToolDefinitionOptions {
  /**
   * The tool's name; put the same name in `checkpointToolNames` (the default list has it).
   * @default 'compress_to_checkpoint'
   */
  readonly name?: string;
  /** What the model reads about when to call it; the default describes a task switch. */
  readonly description?: string;
}

const defaultDescription =
  'Marks a checkpoint in the conversation. Call it when a task is finished and you are about to start a different ' +
  'one: from the next request on, the tool calls and tool results before this call are removed from your context ' +
  '(the conversation text stays). Put anything you will still need from those results in `note`; it stays until ' +
  'the next checkpoint.';

/**
 * The definition of a checkpoint tool to offer the model (spec 003 "Future Enhancements 1": manual checkpoints via
 * a dedicated `compress_to_checkpoint` tool), so the model (or a user asking it) can checkpoint at a task
 * boundary. Your tool implementation only needs to answer (e.g. "Checkpoint set."); the watermark strategies find
 * the call in the history. Its `note` survives the checkpoint because the watermark's own turn is kept whole.
 *
 * @param options - Name and description.
 * @returns A tool definition to add to the request's tools.
 * @example
 * ```ts
 * const tools = [...myTools, createCheckpointToolDefinition()];
 * const strategy = createWatermarkStrategy(); // watches compress_to_checkpoint by default
 * ```
 */
export function createCheckpointToolDefinition(options: CheckpointToolDefinitionOptions = {}): ToolDefinition {
  return {
    name: options.name ?? 'compress_to_checkpoint',
    description: options.description ?? defaultDescription,
    inputSchema: {
      type: 'object',
      properties: {
        note: {
          type: 'string',
          description: 'Facts from the earlier tool results that you still need (file paths, decisions, open issues).',
        },
      },
      additionalProperties: false,
    },
  };
}
