import type { CliIo } from '../cli-io.js';
import { CliError } from '../cli-io.js';
import { createProgress } from '../progress.js';
import { formatStressMatrix } from '../stress/format-stress-matrix.js';
import { runStressMatrix, type StressMatrix } from '../stress/run-stress-matrix.js';
import { createDefaultStressChains, parseStressChain } from '../stress/stress-chains.js';
import { createStressScenarios } from '../stress/stress-scenarios.js';
import { createTokenizer, type TokenizerName } from '../tokenizers.js';
import { UsageError } from '../usage-error.js';

/** Options of `ctx stress`. */
export interface StressCommandOptions {
  /** Comma-separated parts of scenario names; a scenario runs when its name contains one. */
  readonly scenarios?: string;
  /** Comma-separated chains, strategies joined with `>` (or `→`, `+`), e.g. `high-density>sliding-window,lossless`. */
  readonly chains?: string;
  readonly tokenizer: TokenizerName;
  readonly json: boolean;
}

/** The JSON `ctx stress --json` prints: the run without the per-send reports (those stay in memory). */
function toJson(matrix: StressMatrix): unknown {
  return {
    scenarios: matrix.scenarios.map(({ turns, ...scenario }) => ({ ...scenario, turns: turns.length })),
    chains: matrix.chains.map(({ name, strategies }) => ({ name, strategies })),
    cells: matrix.cells.map(({ sendLog: _sendLog, overflows, loops, outcome, ...cell }) => ({
      ...cell,
      overflows: overflows.map(({ report: _report, ...overflow }) => overflow),
      loops: loops.map(({ report: _report, ...loop }) => loop),
      outcome: outcome.type === 'cannot-fit' ? (({ report: _report, ...rest }) => rest)(outcome) : outcome,
    })),
    totals: matrix.totals,
    durationMs: matrix.durationMs,
  };
}

/**
 * `ctx stress`: plays spec 002's stress scenarios (and the giant-output ones) through the real orchestrator with
 * every strategy and fallback chain, and prints the matrix. Exits 1 when any cell overflows (beyond a blind first
 * rejection), loops, throws something other than a typed "cannot fit", or ends with a provider-invalid history.
 *
 * @throws {@link UsageError} when `--scenarios` matches nothing or `--chains` names an unknown strategy (exit 2).
 */
export async function runStressCommand(options: StressCommandOptions, io: CliIo): Promise<number> {
  const filters = (options.scenarios ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
  const all = createStressScenarios();
  const scenarios = filters.length === 0 ? all : all.filter((scenario) => filters.some((part) => scenario.name.toLowerCase().includes(part)));
  if (scenarios.length === 0) {
    throw new UsageError(`Expected --scenarios to match a scenario, got "${options.scenarios ?? ''}"; known: ${all.map((scenario) => scenario.name).join(', ')}`);
  }
  const chains =
    options.chains === undefined
      ? createDefaultStressChains()
      : options.chains
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== '')
          .map((chain) => {
            try {
              return parseStressChain(chain);
            } catch (error) {
              // A chain naming an unknown or repeated strategy is a usage error, like an unknown --strategies name.
              if (CliError.isInstance(error)) throw new UsageError(`--chains ${chain}: ${error.message}`, { cause: error });
              throw error;
            }
          });
  if (chains.length === 0) throw new UsageError('Expected at least one chain in --chains, got none');
  const tokenizer = await createTokenizer(options.tokenizer);
  const progress = createProgress(scenarios.length * chains.length);
  const matrix = await runStressMatrix({
    scenarios,
    chains,
    tokenizer,
    onCell: (cell) => progress.advance(`${cell.scenario} × ${cell.chain}`),
  });
  progress.done();
  io.stdout(options.json ? JSON.stringify(toJson(matrix), null, 2) : formatStressMatrix(matrix, options.tokenizer));
  return matrix.totals.failingCells === 0 ? 0 : 1;
}
