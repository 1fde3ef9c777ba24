import type { JsonValue } from '@ctx/core';
import { z } from 'zod';

/** One message of a mini-swe-agent trajectory: OpenAI chat style, plus whatever the agent recorded (`extra`). */
export interface MiniSweAgentMessage {
  readonly role: string;
  readonly content: string;
  readonly [key: string]: JsonValue;
}

/**
 * A mini-swe-agent `*.traj.json` file: `{ info, messages, trajectory_format, instance_id }`. The model's actions are
 * text: one ```` ```bash ```` block per assistant message, answered by the next `user` message.
 */
export interface MiniSweAgentTrajectory {
  readonly messages: readonly MiniSweAgentMessage[];
  readonly [key: string]: JsonValue;
}

/** The fields the codec reads; everything else passes through untouched. */
export const miniSweAgentTrajectorySchema = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string(), content: z.string() })),
});
