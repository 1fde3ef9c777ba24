import { formatTable } from '../format-table.js';
import { blamedOverflows, isInvalidCell, type StressMatrix } from './run-stress-matrix.js';
import type { StressSessionResult } from './simulate-stress-session.js';

const integer = new Intl.NumberFormat('en-US');

/** What a typed "cannot fit" means, by reason. */
const cannotFitHints: Readonly<Record<string, string>> = {
  'cannot-shrink-further':
    'every strategy of the chain and the cut of the largest tool results ran, and the request is still over the window. Chains that keep every turn cannot fit a conversation larger than the window: add sliding-window or top-down-truncation as a fallback.',
  'overhead-too-large': 'the system instructions and tool definitions alone do not fit the window; no strategy ran.',
};

/** Column letters for the chains, so the matrix stays narrow: A, B, C, … */
function chainLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** `200k`, `8k`, `128k`. */
function windowLabel(tokens: number): string {
  return tokens % 1000 === 0 ? `${tokens / 1000}k` : integer.format(tokens);
}

/**
 * One cell: compactions and the largest request sent as a share of the window, then what went wrong — `OV`n
 * overflows it is to blame for, `ov`n a blind overflow (see the legend), `LOOP`n, `CF@`turn for a typed "cannot
 * fit", `ERR`, `INV`.
 */
export function formatStressCell(cell: StressSessionResult): string {
  const parts = [`${cell.compactions}c ${Math.round(cell.maxRealShare * 100)}%`];
  const blamed = blamedOverflows(cell);
  const blind = cell.overflows.length - blamed;
  if (blamed > 0) parts.push(`OV${blamed}`);
  if (blind > 0) parts.push(`ov${blind}`);
  if (cell.loops.length > 0) parts.push(`LOOP${cell.loops.length}`);
  if (cell.outcome.type === 'cannot-fit') parts.push(`CF@${cell.outcome.turn}`);
  if (cell.outcome.type === 'error') parts.push('ERR');
  if (isInvalidCell(cell)) parts.push('INV');
  return parts.join(' ');
}

/** The lines that explain a failing or cannot-fit cell. */
function describeCell(cell: StressSessionResult): string[] {
  const where = `${cell.scenario} × ${cell.chain}`;
  const lines: string[] = [];
  for (const overflow of cell.overflows) {
    lines.push(
      `${where}: turn ${overflow.turn} (${overflow.call}) sent ${integer.format(overflow.realTokens)} provider tokens to a ${integer.format(overflow.contextLimit)}-token window${overflow.blind ? ' (blind: no usage reported yet)' : ''}`,
    );
  }
  for (const loop of cell.loops) lines.push(`${where}: ${loop.kind} at turn ${loop.turn} — ${loop.detail}`);
  if (cell.outcome.type === 'error') lines.push(`${where}: turn ${cell.outcome.turn} threw ${cell.outcome.name}: ${cell.outcome.message}`);
  for (const [provider, problems] of [['Anthropic', cell.validity.anthropic], ['OpenAI', cell.validity.openai]] as const) {
    for (const problem of problems) lines.push(`${where}: invalid ${provider} request — ${problem.rule}: ${problem.message}`);
  }
  return lines;
}

/**
 * Renders a `ctx stress` run for a terminal: the matrix (scenarios × chain letters), the chain legend, the totals,
 * every defect with its figures, and the cells that cannot fit grouped by reason.
 */
export function formatStressMatrix(matrix: StressMatrix, tokenizerName: string): string {
  const { totals } = matrix;
  const cellsOf = (scenario: string) => matrix.cells.filter((cell) => cell.scenario === scenario);
  const rows = matrix.scenarios.map((scenario) => {
    const cells = cellsOf(scenario.name);
    const ratios = new Set(scenario.turns.map((turn) => turn.tokenRatio));
    const ratio = ratios.size === 1 ? scenario.turns[0]?.tokenRatio.toFixed(1) ?? '—' : 'varies';
    return [
      scenario.name.replace(/^TestStress_/, ''),
      windowLabel(scenario.contextLimit),
      String(scenario.turns.length),
      ratio,
      scenario.turns.some((turn) => turn.usageMetadata) ? 'yes' : 'no',
      ...matrix.chains.map((chain) => {
        const cell = cells.find((candidate) => candidate.chain === chain.name);
        return cell === undefined ? '—' : formatStressCell(cell);
      }),
    ];
  });
  const header = ['scenario', 'window', 'turns', 'ratio', 'usage', ...matrix.chains.map((_, index) => chainLetter(index))];
  const legend = matrix.chains.map((chain, index) => `  ${chainLetter(index)} = ${chain.name}`);

  const defects = matrix.cells.flatMap((cell) =>
    blamedOverflows(cell) > 0 || cell.loops.length > 0 || cell.outcome.type === 'error' || isInvalidCell(cell) ? describeCell(cell) : [],
  );
  const blindCells = matrix.cells.filter((cell) => cell.overflows.length > 0 && blamedOverflows(cell) === 0);
  // reason → chain → scenarios
  const cannotFit = new Map<string, Map<string, string[]>>();
  for (const cell of matrix.cells) {
    if (cell.outcome.type !== 'cannot-fit') continue;
    const byChain = cannotFit.get(cell.outcome.reason) ?? new Map<string, string[]>();
    byChain.set(cell.chain, [...(byChain.get(cell.chain) ?? []), cell.scenario.replace(/^TestStress_/, '')]);
    cannotFit.set(cell.outcome.reason, byChain);
  }

  const lines = [
    `ctx stress: ${matrix.scenarios.length} scenarios × ${matrix.chains.length} chains through the real orchestrator (ensureCompressionBeforeSend → send → recordUsage); the simulated provider counts ratio × our ${tokenizerName} tokens and rejects a request over the window, naming its count.`,
    '',
    formatTable(header, rows),
    '',
    'Chains (the first strategy is active, the rest are its fallbacks):',
    ...legend,
    '',
    'Cell: compactions, the largest request sent as a share of the window; OVn overflows, ovn a blind overflow (no usage',
    'reported yet and the undercount above the initial factor: the rejection reveals the ratio, nothing sent after it',
    'overflows), LOOPn loops, CF@t a typed ContextWindowExceededError at turn t (nothing sent), ERR, INV.',
    '',
    `${integer.format(totals.sessions)} sessions, ${integer.format(totals.sends)} sends, ${integer.format(totals.compactions)} compactions; overflows ${totals.blamedOverflows} (+${totals.blindOverflows} blind), loops ${totals.loops}, errors ${totals.errorCells}, invalid ${totals.invalidCells}; cannot fit ${totals.cannotFitCells} cells; failing ${totals.failingCells} cells; ${(matrix.durationMs / 1000).toFixed(1)} s.`,
  ];
  if (defects.length > 0) lines.push('', 'Defects:', ...defects.map((line) => `  ${line}`));
  if (blindCells.length > 0) {
    lines.push('', `Blind overflows (${blindCells.length} cells): ${[...new Set(blindCells.map((cell) => cell.scenario.replace(/^TestStress_/, '')))].join(', ')}; set calibration.initialFactor to your tokenizer's ratio when the provider reports no usage.`);
  }
  for (const [reason, byChain] of cannotFit) {
    const count = [...byChain.values()].reduce((total, scenarios) => total + scenarios.length, 0);
    lines.push('', `Cannot fit — ${reason} (${count} cells): ${cannotFitHints[reason] ?? ''}`);
    for (const [chain, scenarios] of byChain) lines.push(`  ${chain}: ${scenarios.join(', ')}`);
  }
  return lines.join('\n');
}
