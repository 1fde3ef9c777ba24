import type { BenchGoal } from './bench-report.js';

/** The goals of issue 18's table, by figure. */
export const benchGoals = {
  /** Replay of a whole session ÷ one o200k tokenization pass. */
  replayVsTokenization: { text: '≤ 1.2×', max: 1.2 },
  /** Per-turn overhead with the tokenizer's time taken out, median. */
  turnOverheadP50: { text: '≤ 1 ms', max: 1 },
  /** Per-turn overhead with the tokenizer's time taken out, 99th percentile. */
  turnOverheadP99: { text: '≤ 10 ms', max: 10 },
  /** Characters tokenized during a replay ÷ characters in the session. */
  charactersTokenized: { text: '1.00', max: 1 },
  /** `optimize()` on the whole largest session. */
  optimize: { text: '≤ 1 ms', max: 1 },
  /** `compress()` on the whole largest session. */
  compress: { text: '≤ 3 ms', max: 3 },
  /** `optimize()` after one more turn at 600 entries ÷ at 150. */
  oneMoreTurnGrowth: { text: '≤ 1.5× (flat)', max: 1.5 },
  /** Cold `ctx compress <largest session>` ÷ a process that reads, parses and tokenizes it once. */
  coldCli: { text: '≤ 2×', max: 2 },
} as const satisfies Record<string, BenchGoal>;
