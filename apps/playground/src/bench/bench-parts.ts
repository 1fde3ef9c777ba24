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

/** Which part measures each figure, by the figure's id. */
const partOfFigure: Readonly<Record<string, BenchPart>> = {
  'replay-vs-tokenization': 'replay',
  'turn-p50': 'replay',
  'turn-p99': 'replay',
  'turn-overhead-p50': 'replay',
  'turn-overhead-p99': 'replay',
  'middleware-overhead-p50': 'middleware',
  'middleware-overhead-p99': 'middleware',
  'characters-tokenized': 'replay',
  optimize: 'calls',
  compress: 'calls',
  'one-more-turn': 'turn',
  'one-more-turn-growth': 'turn',
  'cold-cli': 'cold',
  'cold-processes': 'cold',
  'peak-memory': 'replay',
};

/**
 * The part of a run that measures a figure.
 *
 * @param figureId - A figure's `id`, e.g. `turn-p99`.
 * @throws When no part measures a figure of that id (a figure added to the run without a part here).
 */
export function benchPartOf(figureId: string): BenchPart {
  const part = partOfFigure[figureId];
  if (part === undefined) throw new Error(`Expected the id of a ctx bench figure, found ${JSON.stringify(figureId)}`);
  return part;
}

/** Whether `text` names a part of a run. */
export function isBenchPart(text: string): text is BenchPart {
  return (benchParts as readonly string[]).includes(text);
}
