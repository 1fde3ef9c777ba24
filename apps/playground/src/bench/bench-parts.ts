/**
 * The parts of a `ctx bench` run, each measuring some of its figures; `--only` picks some of them (a run measures
 * every part by default). In the order a run measures them:
 *
 * - `replay`: each session replayed entry by entry with every strategy (and with nothing compressed): replay ÷ one
 *   tokenization pass, per-turn p50 / p99 with and without the tokenizer, characters tokenized, peak heap;
 * - `middleware`: each session replayed through the AI SDK middleware, nothing compressed;
 * - `calls`: `optimize()` and `compress()` on the largest session, warm and fresh;
 * - `turn`: `optimize()` after one more turn at 150 / 300 / 600 entries;
 * - `cold`: fresh node processes — the cold CLI against reading, parsing and tokenizing once.
 */
export const benchParts = ['replay', 'middleware', 'calls', 'turn', 'cold'] as const;

/** One part of a `ctx bench` run (see {@link benchParts}). */
export type BenchPart = (typeof benchParts)[number];

/** Whether `text` names a part of a run. */
export function isBenchPart(text: string): text is BenchPart {
  return (benchParts as readonly string[]).includes(text);
}
