import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import type { CompareResponse } from '../../src/serve/serve-api.js';
import { colorOf, formatCompact, formatInteger } from './format.js';

type Mode = 'cumulative' | 'per-turn' | 'per-epoch';

/** Sums `values` (one per turn) over each epoch, epochs starting at `starts`. */
function perEpoch(values: readonly number[], starts: readonly number[]): number[] {
  return starts.map((start, index) => values.slice(start, starts[index + 1] ?? values.length).reduce((sum, value) => sum + value, 0));
}

/**
 * Tokens per turn before and after each strategy (uPlot): the context as it grows turn by turn, with the window and
 * the threshold as lines; or each turn's own tokens; or each epoch's tokens (a compaction of the agent starts a new
 * epoch; boundaries are marked in the per-turn views).
 */
export function TokenChart(props: { comparison: CompareResponse; selected: number }) {
  const container = useRef<HTMLDivElement>(null);
  const [mode, setMode] = useState<Mode>('cumulative');
  const { transcript, details } = props.comparison;
  const threshold = details[props.selected]?.threshold ?? details.find((detail) => detail.threshold !== undefined)?.threshold;
  const starts = transcript.epochStarts;

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const epochs = mode === 'per-epoch';
    const turns = epochs ? starts.length : transcript.cumulativeBefore.length;
    const x = Array.from({ length: turns }, (_, index) => index + 1);
    const cumulative = mode === 'cumulative';
    const pick = (cumulativeValues: readonly number[], perTurnValues: readonly number[]) =>
      cumulative ? [...cumulativeValues] : epochs ? perEpoch(perTurnValues, starts) : [...perTurnValues];
    const data: (number | null)[][] = [x, pick(transcript.cumulativeBefore, transcript.perTurnBefore)];
    const series: uPlot.Series[] = [
      { label: epochs ? 'epoch' : 'turn' },
      { label: 'original', stroke: '#6b7280', width: 2, dash: [6, 4], value: (_, value) => (value === null ? '—' : formatInteger(value)) },
    ];
    details.forEach((detail, index) => {
      data.push(pick(detail.cumulativeAfter, detail.perTurnAfter));
      series.push({
        label: detail.strategy,
        stroke: colorOf(index),
        width: index === props.selected ? 2.5 : 1.5,
        value: (_, value) => (value === null ? '—' : formatInteger(value)),
      });
    });
    if (cumulative) {
      data.push(x.map(() => transcript.window));
      series.push({ label: 'window', stroke: '#111827', width: 1, dash: [2, 3], value: () => formatInteger(transcript.window) });
      if (threshold !== undefined) {
        const line = Math.round(transcript.window * threshold);
        data.push(x.map(() => line));
        series.push({ label: `threshold ${Math.round(threshold * 100)}%`, stroke: '#f59e0b', width: 1, dash: [8, 4], value: () => formatInteger(line) });
      }
    }
    const width = Math.max(320, element.clientWidth);
    const plot = new uPlot(
      {
        width,
        height: 300,
        scales: { x: { time: false } },
        axes: [
          {
            label: epochs ? 'epoch (a compaction of the agent starts the next)' : 'turn (one model call each)',
            stroke: '#4b5563',
            grid: { stroke: '#eef0f3' },
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000],
          },
          { label: cumulative ? 'request tokens' : epochs ? 'tokens in the epoch' : 'tokens in the turn', stroke: '#4b5563', size: 64, grid: { stroke: '#eef0f3' }, values: (_, ticks) => ticks.map(formatCompact) },
        ],
        series,
        legend: { live: true },
        // Epoch boundaries as vertical lines in the per-turn views.
        hooks: epochs
          ? {}
          : {
              draw: [
                (chart) => {
                  const context = chart.ctx;
                  context.save();
                  context.strokeStyle = '#8b5cf6';
                  context.setLineDash([3, 3]);
                  context.lineWidth = 1;
                  for (const start of starts.slice(1)) {
                    const left = chart.valToPos(start + 1, 'x', true);
                    context.beginPath();
                    context.moveTo(left, chart.bbox.top);
                    context.lineTo(left, chart.bbox.top + chart.bbox.height);
                    context.stroke();
                  }
                  context.restore();
                },
              ],
            },
        cursor: { drag: { x: true, y: false } },
      },
      data as uPlot.AlignedData,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, element.clientWidth), height: 300 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.comparison, props.selected, mode, threshold]);

  return (
    <section class="card" data-testid="token-chart">
      <header class="card-header">
        <h2>Tokens per turn</h2>
        <div class="segmented" role="group" aria-label="Chart mode">
          <button type="button" class={mode === 'cumulative' ? 'active' : ''} onClick={() => setMode('cumulative')}>
            Context size
          </button>
          <button type="button" class={mode === 'per-turn' ? 'active' : ''} onClick={() => setMode('per-turn')}>
            Each turn
          </button>
          <button type="button" class={mode === 'per-epoch' ? 'active' : ''} onClick={() => setMode('per-epoch')}>
            Each epoch
          </button>
        </div>
      </header>
      <p class="muted small">
        {mode === 'cumulative'
          ? 'The request (system, tools and history up to each turn) before and after each strategy, with the context window and the threshold at which compression starts. Drag to zoom, double-click to reset.'
          : mode === 'per-turn'
            ? "Each turn's own tokens before and after each strategy: where the strategies cut."
            : `Each epoch's tokens before and after each strategy: ${starts.length} epoch${starts.length === 1 ? '' : 's'}; the agent's own compactions start a new one.`}
        {mode !== 'per-epoch' && starts.length > 1 ? ' Violet lines mark where the agent compacted (a new epoch).' : ''}
      </p>
      <div ref={container} class="chart" />
    </section>
  );
}
