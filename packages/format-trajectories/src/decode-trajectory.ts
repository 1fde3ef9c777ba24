import { InvalidFormatError, type DecodeResult } from '@ctx/core';
import { createGeminiCliCodec } from './gemini-cli-codec.js';
import { createMiniSweAgentCodec } from './mini-swe-agent-codec.js';
import { createOpenHandsCodec } from './openhands-codec.js';
import { createSweAgentCodec } from './swe-agent-codec.js';
import { detectTrajectoryFormat, type TrajectoryFormat } from './trajectory-format.js';

/** A decoded trajectory and the format it was read as. */
export interface TrajectoryDecodeResult extends DecodeResult {
  readonly format: TrajectoryFormat;
}

/**
 * Detects the format of a parsed trajectory file (see {@link detectTrajectoryFormat}) and decodes it with that
 * format's codec. For OpenHands `output.jsonl` files use `decodeOpenHandsJsonl` on the text instead; this reads
 * one session.
 *
 * @param value - A parsed JSON value, e.g. `JSON.parse(fileText)`.
 * @returns The conversation, the codec's warnings and the format.
 * @throws `InvalidFormatError` when the value is none of the formats, or fails its codec's validation.
 * @example
 * ```ts
 * const { format, conversation } = decodeTrajectory(JSON.parse(readFileSync(path, 'utf8')));
 * ```
 */
export function decodeTrajectory(value: unknown): TrajectoryDecodeResult {
  const format = detectTrajectoryFormat(value);
  switch (format) {
    case 'mini-swe-agent':
      return { format, ...createMiniSweAgentCodec().decode(value) };
    case 'swe-agent':
      return { format, ...createSweAgentCodec().decode(value) };
    case 'openhands':
      return { format, ...createOpenHandsCodec().decode(value) };
    case 'gemini-cli':
      return { format, ...createGeminiCliCodec().decode(value) };
    case undefined:
      throw new InvalidFormatError({
        format: 'trajectory',
        issues: [
          {
            path: '',
            message:
              'Expected a mini-swe-agent (`messages` + `trajectory_format`), SWE-agent (`history` of messages), OpenHands (`history` of events) or gemini-cli (`sessionId` + `messages`) trajectory',
          },
        ],
      });
  }
}
