import { isJsonObject, type JsonObject, type JsonValue } from '@ctx/core';

/**
 * The agent trajectory formats this package reads; each is also the `format` id of its codec.
 * - `mini-swe-agent`: `*.traj.json`, `{ info, messages, trajectory_format, instance_id }`, text actions.
 * - `swe-agent`: `*.traj`, `{ environment, trajectory, history, info }`, text actions or native tool calls.
 * - `openhands`: one session of an evaluation `output.jsonl`, `{ instance_id, history: events, … }`.
 * - `gemini-cli`: a chat recording `session-*.json`, `{ sessionId, projectHash, messages, … }`.
 */
export type TrajectoryFormat = 'mini-swe-agent' | 'swe-agent' | 'openhands' | 'gemini-cli';

function firstObject(list: readonly JsonValue[]): JsonObject | undefined {
  const first = list[0];
  return isJsonObject(first) ? first : undefined;
}

function isMiniSweAgent(value: JsonObject): boolean {
  if (typeof value.trajectory_format === 'string' && value.trajectory_format.startsWith('mini-swe-agent')) return true;
  const info = value.info;
  return isJsonObject(info) && typeof info.mini_version === 'string';
}

/**
 * Says which trajectory format a parsed JSON value is in, from its shape alone (no full validation: the codec's
 * `decode` does that). Plain chat arrays and other formats give undefined.
 *
 * @param input - A parsed JSON value, e.g. `JSON.parse(fileText)` or one parsed line of an OpenHands `output.jsonl`.
 * @returns The format, or undefined when the value is none of them.
 * @example
 * ```ts
 * const format = detectTrajectoryFormat(JSON.parse(readFileSync('run.traj', 'utf8'))); // 'swe-agent'
 * ```
 */
export function detectTrajectoryFormat(input: unknown): TrajectoryFormat | undefined {
  // `isJsonObject` only tests the shape (`typeof`), so any input may be handed to it; what follows reads JSON fields.
  const value = input as JsonValue;
  if (!isJsonObject(value)) return undefined;
  const { messages, history } = value;
  if (Array.isArray(messages)) {
    const first = firstObject(messages);
    const looksLikeGemini = first !== undefined && typeof first.type === 'string' && !('role' in first);
    if (typeof value.sessionId === 'string' || looksLikeGemini) return 'gemini-cli';
    return isMiniSweAgent(value) ? 'mini-swe-agent' : undefined;
  }
  if (Array.isArray(history)) {
    const first = firstObject(history);
    if (first === undefined) return Array.isArray(value.trajectory) ? 'swe-agent' : undefined;
    if (typeof first.role === 'string') return 'swe-agent';
    if (typeof first.action === 'string' || typeof first.observation === 'string') return 'openhands';
  }
  return undefined;
}
