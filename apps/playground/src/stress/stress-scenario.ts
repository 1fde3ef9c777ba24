import type { StressToolName } from './generate-stress-text.js';

/** One tool call the simulated model makes, and the size of the output the tool returns. */
export interface StressToolCall {
  readonly tool: StressToolName;
  /** Characters of the tool's output. */
  readonly characters: number;
}

/** One turn of a simulated session: a user message, the model's answer, and the tool calls it makes. */
export interface StressTurn {
  /** Characters of the user's message. */
  readonly userCharacters: number;
  /** Characters of each text answer of the model (the first answer, and the one after the tool results). */
  readonly answerCharacters: number;
  /** Calls the model makes in parallel (one assistant entry); empty for a text-only turn. */
  readonly toolCalls: readonly StressToolCall[];
  /** How many provider tokens the simulated provider counts per token of ours (spec 002 "token ratio"). */
  readonly tokenRatio: number;
  /** Whether the provider reports its input size (spec 002 "UsageMetadata"): then `recordUsage()` is called. */
  readonly usageMetadata: boolean;
}

/** Where a scenario comes from: spec 002's table of 25 `TestStress_*` tests, or the giant-output set. */
export type StressScenarioSource = 'spec-002' | 'giant-output';

/** A simulated agent session, turn by turn, with everything the simulation needs fixed in advance. */
export interface StressScenario {
  /** e.g. `TestStress_8k_ToolBurst` (the spec's test name) or `TestStress_200k_GiantOutput_1x`. */
  readonly name: string;
  readonly source: StressScenarioSource;
  /** The model's context window, in provider tokens. */
  readonly contextLimit: number;
  /** `compression.reservedOutputTokens`: the room kept for the model's answer (its max_tokens). */
  readonly reservedOutputTokens: number;
  /** Characters of the system prompt. */
  readonly systemPromptCharacters: number;
  /** What the scenario shows when it passes (the spec's "What it validates" column). */
  readonly validates: string;
  /** The spec table's row as written (turns, ratio, usage metadata, tools), for reports. */
  readonly specRow: string;
  readonly turns: readonly StressTurn[];
}
