import type { JsonValue } from '@ctx/core';
import { z } from 'zod';

/**
 * One message of a SWE-agent `history`: OpenAI chat style plus SWE-agent's own keys (`agent`, `message_type`,
 * `thought`, `action`, `is_demo`, …). Text-mode runs put the action in the message text (a fenced block, also
 * recorded as `action`); function-calling runs use `tool_calls` and `role: 'tool'` messages with `tool_call_ids`.
 */
export interface SweAgentMessage {
  readonly role: string;
  readonly content: string | null;
  readonly [key: string]: JsonValue;
}

/** A SWE-agent `*.traj` file: `{ environment, trajectory, history, info, replay_config? }`. */
export interface SweAgentTrajectory {
  readonly history: readonly SweAgentMessage[];
  readonly [key: string]: JsonValue;
}

const toolCallSchema = z.looseObject({
  id: z.string().min(1),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

/** The fields the codec reads; everything else passes through untouched. */
export const sweAgentTrajectorySchema = z.looseObject({
  history: z.array(
    z.looseObject({
      role: z.string(),
      content: z.string().nullable(),
      tool_calls: z.array(toolCallSchema).nullable().optional(),
      tool_call_ids: z.array(z.string().min(1)).nullable().optional(),
      tool_call_id: z.string().min(1).nullable().optional(),
    }),
  ),
});
