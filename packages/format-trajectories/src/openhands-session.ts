import type { JsonValue } from '@ctx/core';
import { z } from 'zod';

/**
 * One OpenHands event: an action (`action: 'run' | 'read' | 'edit' | 'think' | 'finish' | 'message' | 'system' |
 * 'recall' | …`, with `args`) or an observation (`observation: …`, with `content` and the `cause` action id). Actions
 * the model made through function calling carry `tool_call_metadata { function_name, tool_call_id, model_response,
 * total_calls_in_response }`, and so do the observations answering them.
 */
export interface OpenHandsEvent {
  readonly [key: string]: JsonValue;
}

/** One line of an OpenHands evaluation `output.jsonl`: `{ instance_id, instruction, history: events, metrics, … }`. */
export interface OpenHandsSession {
  readonly history: readonly OpenHandsEvent[];
  readonly [key: string]: JsonValue;
}

/** The fields the codec reads; everything else passes through untouched. */
export const openHandsSessionSchema = z.looseObject({
  history: z.array(
    z
      .looseObject({
        action: z.string().optional(),
        observation: z.string().optional(),
        source: z.string().optional(),
        message: z.string().optional(),
        args: z.looseObject({}).optional(),
        content: z.string().optional(),
        cause: z.number().nullable().optional(),
        tool_call_metadata: z
          .looseObject({ function_name: z.string(), tool_call_id: z.string().min(1) })
          .nullable()
          .optional(),
      })
      .refine((event) => (event.action === undefined) !== (event.observation === undefined), {
        message: 'Expected an event with exactly one of `action` and `observation`',
      }),
  ),
});
