import type { Preset } from './preset.js';

/** Tool kinds whose output is not a file's content: commands, searches, listings, task lists, anything else. */
const commandKinds = ['shell', 'search', 'list', 'todo', 'other'];

/**
 * A smart-passes pass that, outside the newest `keepRecentCount` entries, truncates the results of the given tool
 * kinds to `limits` (errors only with `keepErrors: false`) and leaves message text (and, unless given, parameters) alone.
 */
function truncateOldResults(pass: {
  readonly id: string;
  readonly name: string;
  readonly keepRecentCount: number;
  readonly toolKinds: readonly string[];
  readonly limits: { readonly maxLines: number; readonly maxChars: number };
  readonly toolParameters?: unknown;
  readonly keepErrors?: boolean;
}): Readonly<Record<string, unknown>> {
  return {
    id: pass.id,
    name: pass.name,
    selection: { type: 'preserve_recent', keepRecentCount: pass.keepRecentCount },
    mode: 'individual',
    toolKinds: pass.toolKinds,
    individualConfig: {
      defaults: {
        messageText: 'keep',
        toolParameters: pass.toolParameters ?? 'keep',
        toolResults: { operation: 'truncate', params: { truncate: pass.limits } },
      },
      ...(pass.keepErrors === undefined ? {} : { keepErrors: pass.keepErrors }),
    },
    execution: { type: 'always' },
  };
}

/**
 * `speed` (spec 004 FR-CS-003 "speed optimized"): fast mechanical truncation, no model calls. Old tool results,
 * parameters and long texts are cut with markers; the first and the newest messages stay whole.
 */
const speed: Preset = {
  name: 'speed',
  description: 'Fast truncation, no model calls: old tool results and parameters cut with markers, first and newest messages whole.',
  strategies: [{ strategy: 'truncation' }],
};

/**
 * `quality` ("quality optimized"): what a model would still need is preserved first (lossless references, stale
 * reads folded into the files' current content), then a model summarizes the middle of the conversation while the
 * head and the newest turns stay verbatim. Needs a summarizer.
 */
const quality: Preset = {
  name: 'quality',
  description:
    'Best preservation with a model: lossless references and folded edits first, then the middle summarized by a model (head and newest turns verbatim). Needs a summarizer.',
  strategies: [
    { strategy: 'lossless' },
    { strategy: 'high-density', settings: { foldEdits: true } },
    { strategy: 'middle-out' },
  ],
};

/**
 * `cost` ("cost optimized"): mechanical first, a model only as the last resort. Lossless references, then old tool
 * output truncated; only when that is not enough does a model summarize the old part of the conversation (a
 * conditional pass: one call, never when the mechanical passes reached the target).
 */
const cost: Preset = {
  name: 'cost',
  description:
    'Mechanical first, one cheap model call only when needed: lossless references, old tool output truncated, then a conditional summary of the old turns.',
  strategies: [
    { strategy: 'lossless' },
    {
      strategy: 'smart-passes',
      settings: {
        passes: [
          {
            id: 'truncate-old-tool-output',
            name: 'Truncate old tool output',
            selection: { type: 'preserve_recent', keepRecentCount: 10 },
            mode: 'individual',
            individualConfig: { defaults: { messageText: 'keep', toolParameters: 'truncate', toolResults: 'truncate' } },
            execution: { type: 'always' },
          },
          {
            id: 'summarize-old-turns',
            name: 'Summarize the old turns with a model',
            selection: { type: 'preserve_percent', keepPercentage: 30 },
            mode: 'batch',
            batchConfig: { operation: 'summarize', summarizationConfig: { keepFirst: 1, keepLast: 0 } },
            execution: { type: 'conditional', condition: { tokenThreshold: 0 } },
          },
        ],
      },
    },
  ],
};

/**
 * `balanced`: deterministic, a mix of the gentle and the effective. Lossless references, stale reads removed or
 * folded, then smart passes' default passes (truncate, then suppress very old tool output; a summary only with a
 * summarizer and only when still over).
 */
const balanced: Preset = {
  name: 'balanced',
  description:
    'A mix: lossless references, stale reads folded or removed, then smart passes (old tool output truncated, very old output suppressed).',
  strategies: [
    { strategy: 'lossless' },
    { strategy: 'high-density', settings: { foldEdits: true } },
    { strategy: 'smart-passes' },
  ],
};

/**
 * `coding-agent`: built for agent sessions (Claude Code, Codex, SWE-agent …), deterministic. Every user text and the
 * latest state of every file read or edited stay (edits folded into it); file content a later read or write
 * superseded goes; old output of commands, searches and listings is cut first. Runs when the request passes the
 * threshold, and stops once it fits the target: the prompt cache is broken once per compaction, not every turn.
 */
const codingAgent: Preset = {
  name: 'coding-agent',
  description:
    'For coding agents, no model: every user text and the latest state of every file read or edited kept (edits folded into it); superseded file content removed; old command, search and listing output cut first.',
  strategies: [
    {
      strategy: 'smart-passes',
      settings: {
        // Threshold, not continuous: rewriting history already sent breaks the provider's prompt cache, and every turn
        // of such rewrites costs more in cache writes than it saves (measured with `ctx cost`: +16% on a recorded
        // Claude Code session). Compressing only near the window pays that once per compaction.
        trigger: 'threshold',
        foldFileStates: true,
        passes: [
          {
            id: 'superseded-file-content',
            name: 'Remove file content a later read or write superseded',
            selection: { type: 'preserve_recent', keepRecentCount: 0 },
            mode: 'individual',
            fileContent: 'superseded',
            individualConfig: {
              defaults: {
                messageText: 'keep',
                // Paths stay readable; the old file content the parameters carried goes.
                toolParameters: { operation: 'truncate', params: { truncate: { maxChars: 100 } } },
                toolResults: 'suppress',
              },
            },
            execution: { type: 'always' },
          },
          truncateOldResults({
            id: 'old-command-output',
            name: 'Cut old output of commands, searches and listings',
            keepRecentCount: 20,
            toolKinds: commandKinds,
            limits: { maxLines: 3, maxChars: 300 },
            // Long commands (heredocs, scripts) are cut too; what they wrote to files is a file's state elsewhere.
            toolParameters: { operation: 'truncate', params: { truncate: { maxChars: 300 } } },
          }),
          truncateOldResults({
            id: 'old-command-errors',
            name: 'Shorten old errors of commands to their first lines',
            keepRecentCount: 20,
            toolKinds: commandKinds,
            limits: { maxLines: 10, maxChars: 1000 },
            keepErrors: false,
          }),
          truncateOldResults({
            id: 'old-edit-echoes',
            name: 'Shorten what edits and writes echoed back, after the next turns',
            keepRecentCount: 4,
            toolKinds: ['edit', 'write'],
            limits: { maxLines: 1, maxChars: 200 },
          }),
        ],
      },
    },
  ],
};

/**
 * The presets that come with ctx, by name: `speed`, `quality`, `cost`, `balanced` (spec 004 FR-CS-003) and
 * `coding-agent`, the recommended default for coding agents. Each is plain data; copy one to make your own.
 */
export const builtInPresets: Readonly<Record<'speed' | 'quality' | 'cost' | 'balanced' | 'coding-agent', Preset>> = Object.freeze({
  speed,
  quality,
  cost,
  balanced,
  'coding-agent': codingAgent,
});
