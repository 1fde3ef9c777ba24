import type { ToolCallClassifier } from '../tool-semantics-registry.js';
import { claudeCodeToolClassifiers } from './claude-code-tools.js';
import { codexToolClassifiers } from './codex-tools.js';
import { geminiCliToolClassifiers } from './gemini-cli-tools.js';
import { openHandsToolClassifiers } from './openhands-tools.js';
import { sweAgentToolClassifiers } from './swe-agent-tools.js';

/**
 * Every built-in classifier, by exact tool name. Names are case-sensitive and do not collide across families
 * (Claude Code's `Edit` takes a file path; SWE-agent's `edit` acts on the open file).
 */
export const builtInToolClassifiers: readonly (readonly [string, ToolCallClassifier])[] = [
  ...claudeCodeToolClassifiers,
  ...geminiCliToolClassifiers,
  ...sweAgentToolClassifiers,
  ...openHandsToolClassifiers,
  ...codexToolClassifiers,
];
