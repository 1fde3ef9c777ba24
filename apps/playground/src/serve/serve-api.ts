/**
 * The JSON API between `ctx serve` and its page. Types only: the page imports them too, so both sides agree on the
 * shapes at compile time.
 */
import type { CompareResultRow } from '../commands/compare-command.js';
import type { SkippedTranscript } from '../collect-transcripts.js';

/** A strategy the page can run: built in, installed, or from `--plugin`. */
export interface StrategyInfo {
  readonly name: string;
  /** The package or plugin path it comes from. */
  readonly origin: string;
  readonly description?: string;
  readonly requiresLLM: boolean;
  /** JSON Schema of the settings input (from the strategy's Standard Schema), when the schema can give one. */
  readonly settingsJsonSchema?: Readonly<Record<string, unknown>>;
  /** The settings in effect with no settings given (defaults filled in). */
  readonly defaultSettings?: unknown;
}

/** A preset the page can run: built in or saved with `ctx presets import`. */
export interface PresetInfo {
  readonly name: string;
  readonly description: string;
  /** `built-in`, or the file it was read from. */
  readonly origin: string;
  /** The strategies it runs, in order. */
  readonly steps: readonly string[];
}

/** One of the user's recent Claude Code sessions. */
export interface RecentSessionInfo {
  readonly path: string;
  /** The project folder name Claude Code gave it. */
  readonly project: string;
  /** ISO-8601 time of the last change. */
  readonly modified: string;
  readonly bytes: number;
}

/** `GET /api/info`: what the page can offer. */
export interface ServeInfo {
  readonly version: string;
  readonly strategies: readonly StrategyInfo[];
  readonly presets: readonly PresetInfo[];
  readonly tokenizers: readonly string[];
  /** Models the installed cost model prices; empty when no cost model is installed. */
  readonly costModels: readonly string[];
  readonly recentSessions: readonly RecentSessionInfo[];
  /** Where the recent sessions were looked for. */
  readonly sessionsDirectory: string;
  /** Saved presets that could not be read (one line each). */
  readonly problems: readonly string[];
}

/** Which transcript to compare: a file the user opened in the page, a listed recent session, or the built-in demo. */
export type TranscriptSource =
  | { readonly kind: 'upload'; readonly name: string; readonly text: string }
  | { readonly kind: 'recent'; readonly path: string }
  | { readonly kind: 'demo' };

/** `POST /api/compare`: the same choices as `ctx compare` options. */
export interface CompareRequest {
  readonly source: TranscriptSource;
  /** Strategy names (as `--strategies`). */
  readonly strategies: readonly string[];
  /** Preset names (as `--presets`). */
  readonly presets: readonly string[];
  /** Settings keyed by strategy name (as a `--config` file). */
  readonly settings?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly window?: number;
  readonly budget?: number;
  readonly threshold?: number;
  readonly tokenizer?: string;
  /** Runs per strategy (the median time is reported). @default 1 */
  readonly runs?: number;
  /** A model of the installed cost model, to price the next request before and after. */
  readonly costModel?: string;
}

/** One entry of the original history, as the page shows it. */
export interface EntryView {
  readonly speaker: 'human' | 'ai' | 'tool';
  /** The entry's content as readable text (tool calls and results included). */
  readonly text: string;
  readonly tokens: number;
  /** The turn it belongs to: a turn is one model call, from an answer of the model to the next one. */
  readonly turn: number;
}

/** One thing a pass did to an entry. */
export interface EntryEvent {
  /** `density` (optimize) or `compression` (compress). */
  readonly pass: 'density' | 'compression';
  readonly strategy: string;
  readonly action: 'replaced' | 'removed';
  /** The rules the pass reported using (its operation counts), e.g. `recencyPruned`. */
  readonly rules: readonly string[];
}

/** What happened to one original entry that did not survive unchanged. */
export interface EntryChange {
  /** Index in the original history. */
  readonly index: number;
  readonly state: 'replaced' | 'removed';
  readonly events: readonly EntryEvent[];
  /** The content in its place, for `replaced`. */
  readonly replacement?: { readonly text: string; readonly tokens: number };
}

/** An entry a strategy added (a summary, a note), placed after the original entry it follows. */
export interface InsertedEntry {
  /** The original entry it comes after; -1 at the start. */
  readonly after: number;
  readonly speaker: 'human' | 'ai' | 'tool';
  readonly text: string;
  readonly tokens: number;
  /** Who wrote it (the entry's `generatedBy` mark), when marked. */
  readonly generator?: string;
}

/** What one pass of a strategy did (from its turn report). */
export interface PassSummary {
  readonly pass: 'density' | 'compression' | 'emergency';
  readonly strategy: string;
  readonly outcome: 'applied' | 'no-op' | 'failed';
  readonly reason?: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly ms: number;
}

/** The details behind one row of `results` for the first transcript: entry by entry, and tokens per turn. */
export interface StrategyDetail {
  readonly strategy: string;
  /** Non-kept entries only; every other original entry was kept as it was. */
  readonly changes: readonly EntryChange[];
  readonly inserted: readonly InsertedEntry[];
  /** Request tokens up to the end of each turn after the strategy (same turns as the transcript's `turns`). */
  readonly cumulativeAfter: readonly number[];
  /** Request tokens of each turn's own entries after the strategy. */
  readonly perTurnAfter: readonly number[];
  /** The threshold in effect, as a fraction of the window. */
  readonly threshold?: number;
  readonly passes: readonly PassSummary[];
  /**
   * `passes` when each entry's fate comes from the strategy's own results; `passes-then-emergency` when the
   * orchestrator's emergency cut also shortened tool results afterwards (not shown entry by entry); `unavailable` when
   * the strategy failed or could not be observed (a frozen object).
   */
  readonly attribution: 'passes' | 'passes-then-emergency' | 'unavailable';
  /** Cost of the next request's input (uncached), before and after, in US dollars. */
  readonly cost?: { readonly model: string; readonly before: number; readonly after: number };
}

/** The first transcript of the file, as the page shows it. */
export interface TranscriptOverview {
  readonly label: string;
  readonly format: string;
  readonly entries: readonly EntryView[];
  /** Request tokens up to the end of each turn. */
  readonly cumulativeBefore: readonly number[];
  /** Request tokens of each turn's own entries (the system and tools are counted in the first). */
  readonly perTurnBefore: readonly number[];
  /**
   * The turn each epoch starts at, in order: `[0]`, then the turn of each compaction summary the agent wrote (a
   * Claude Code compaction restarts the model's context from its summary).
   */
  readonly epochStarts: readonly number[];
  readonly overheadTokens: number;
  readonly tokens: number;
  readonly window: number;
  readonly budget?: number;
  readonly tokenizer: string;
  /** How many transcripts the file holds; details are for the first. */
  readonly sessions: number;
}

/** `POST /api/compare`: `results` is exactly what `ctx compare --json` prints; the rest is for the page. */
export interface CompareResponse {
  readonly results: readonly CompareResultRow[];
  readonly skipped?: readonly SkippedTranscript[];
  readonly transcript: TranscriptOverview;
  readonly details: readonly StrategyDetail[];
}

/** Every error answer: status 400 for a request the server cannot run, 500 for a bug. */
export interface ErrorResponse {
  readonly error: { readonly name: string; readonly message: string };
}

export type { CompareResultRow, SkippedTranscript };
