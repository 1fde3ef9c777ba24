import type { JsonValue } from '@ctx/core';
import { z } from 'zod';

/**
 * One message of a gemini-cli chat recording: `{ id, timestamp, type: 'user' | 'gemini' | 'info' | …, content }`,
 * and for `gemini` messages `thoughts`, `tokens`, `model` and `toolCalls: [{ id, name, args, result, status, … }]`
 * (each call's result is recorded in the message that made it).
 */
export interface GeminiCliMessage {
  readonly type: string;
  readonly content: string;
  readonly [key: string]: JsonValue;
}

/** A gemini-cli `session-*.json`: `{ sessionId, projectHash, startTime, lastUpdated, messages, … }`. */
export interface GeminiCliChatRecording {
  readonly messages: readonly GeminiCliMessage[];
  readonly [key: string]: JsonValue;
}

/** The fields the codec reads; everything else passes through untouched. */
export const geminiCliChatRecordingSchema = z.looseObject({
  messages: z.array(
    z.looseObject({
      type: z.string(),
      content: z.string(),
      thoughts: z.array(z.looseObject({ description: z.string() })).optional(),
      toolCalls: z
        .array(z.looseObject({ id: z.string().min(1), name: z.string().min(1), status: z.string().optional() }))
        .optional(),
    }),
  ),
});
