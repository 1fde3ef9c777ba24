// Codecs
export { createGeminiCliCodec } from './gemini-cli-codec.js';
export { createMiniSweAgentCodec } from './mini-swe-agent-codec.js';
export { createOpenHandsCodec } from './openhands-codec.js';
export { createSweAgentCodec } from './swe-agent-codec.js';

// Files and detection
export { decodeTrajectory, type TrajectoryDecodeResult } from './decode-trajectory.js';
export { decodeOpenHandsJsonl, type OpenHandsJsonlResult, type OpenHandsJsonlSession } from './openhands-jsonl.js';
export { detectTrajectoryFormat, type TrajectoryFormat } from './trajectory-format.js';
export { trajectoryKey, type TrajectoryEntryKind } from './trajectory-metadata.js';

// Native shapes
export type { GeminiCliChatRecording, GeminiCliMessage } from './gemini-cli-recording.js';
export type { MiniSweAgentMessage, MiniSweAgentTrajectory } from './mini-swe-agent-trajectory.js';
export type { OpenHandsEvent, OpenHandsSession } from './openhands-session.js';
export type { SweAgentMessage, SweAgentTrajectory } from './swe-agent-trajectory.js';
