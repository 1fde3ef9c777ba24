import { readCorpusText } from '@ctx/format-utils/testing';

/** The OpenAI-style message array of a corpus trajectory: `messages` (mini-swe-agent) or `history` (SWE-agent). */
export function readTrajectoryMessages(file: string): unknown[] {
  const trajectory = JSON.parse(readCorpusText(file)) as { messages?: unknown; history?: unknown };
  const messages = trajectory.messages ?? trajectory.history;
  if (!Array.isArray(messages)) throw new Error(`${file} has no messages or history array`);
  return messages;
}
