// Node-only entry point (`@ctx/format-claude-code/node`): file access. Everything else is in the browser-safe main entry.
export {
  findClaudeCodeSessions,
  type ClaudeCodeSessionFile,
  type ClaudeCodeSubagentFile,
} from './node/find-claude-code-sessions.js';
export { readClaudeCodeSession } from './node/read-claude-code-session.js';
