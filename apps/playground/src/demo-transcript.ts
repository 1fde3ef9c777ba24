import { fileURLToPath } from 'node:url';

/** Path of the built-in demo transcript (a hand-written coding-agent session in ctx.conversation.v1 format). */
export const demoTranscriptPath = fileURLToPath(new URL('../demo/demo-session.json', import.meta.url));
