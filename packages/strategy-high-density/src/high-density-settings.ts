import type { ToolSemanticsRegistry } from '@ctx/strategy-utils';
import { z } from 'zod';

const registrySchema = z.custom<ToolSemanticsRegistry>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { classify?: unknown }).classify === 'function' &&
    typeof (value as { register?: unknown }).register === 'function',
  { message: 'Expected a tool semantics registry from createToolSemanticsRegistry() (@ctx/strategy-utils)' },
);

/** The settings schema; defaults live here. */
export const highDensitySettingsSchema = z.strictObject({
  /**
   * Drop file reads made stale by a later write to the same file (spec 000 §3a). The orchestrator's
   * `compression.density.readWritePruning` session setting overrides it.
   * @default true
   */
  readWritePruning: z.boolean().default(true),
  /**
   * Keep only the newest `@`-inclusion of each file in human messages (spec 000 §3b). Overridden by
   * `compression.density.fileDedupe`.
   * @default true
   */
  fileDedupe: z.boolean().default(true),
  /**
   * Keep only the newest `recencyRetention` results of each tool; older ones become a pointer (spec 000 §3c).
   * Overridden by `compression.density.recencyPruning`.
   * @default false
   */
  recencyPruning: z.boolean().default(false),
  /**
   * Results kept per tool when `recencyPruning` is on. Overridden by `compression.density.recencyRetention`
   * (where values below 1 mean 1, spec 000 BR-RECENCY-005).
   * @default 3
   */
  recencyRetention: z.int('Expected an integer ≥ 1').min(1, 'Expected an integer ≥ 1').default(3),
  /**
   * How recency pruning counts results: `per-tool` keeps the newest `recencyRetention` results of each tool name
   * (spec 000 §3c, BR-RECENCY-001); `all-tools` keeps the newest `recencyRetention` results across every tool, as
   * SWE-agent's last-N observations and Anthropic's clear-tool-uses do — the one that helps agents whose every
   * action goes through one or two tools (a shell), where per-tool counting keeps almost everything.
   * @default 'per-tool'
   */
  recencyScope: z.enum(['per-tool', 'all-tools']).default('per-tool'),
  /**
   * Instead of deleting a read that later edits made stale, rewrite it into the file's content after those edits
   * (their old → new replacements applied), so the latest state of the file stays in context once. Falls back to
   * deleting the read when an edit does not apply cleanly. Not part of spec 000, hence off by default.
   * @default false
   */
  foldEdits: z.boolean().default(false),
  /**
   * Assistant turns at the end of the history (each with its tool results) whose results `compress()` never
   * summarizes.
   * @default 2
   */
  preserveRecentTurns: z.int('Expected an integer ≥ 0').min(0, 'Expected an integer ≥ 0').default(2),
  /**
   * Tool knowledge for your own tools (`createToolSemanticsRegistry()` from `@ctx/strategy-utils`).
   * @default the built-in registry (Claude Code, gemini-cli / llxprt, SWE-agent, OpenHands, mini-swe-agent, Codex, shell)
   */
  registry: registrySchema.optional(),
});

/** Settings of the high-density strategy, defaults filled in. */
export type HighDensitySettings = z.output<typeof highDensitySettingsSchema>;

/** Settings as a user writes them: every option optional. */
export type HighDensitySettingsInput = z.input<typeof highDensitySettingsSchema>;
