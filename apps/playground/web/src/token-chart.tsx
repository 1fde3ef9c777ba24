import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import type { CompareResponse } from '../../src/serve/serve-api.js';
import { colorOf, formatCompact, formatInteger } from './format.js';

type Mode = 'cumulative' | 'per-turn';

/**
 * Tokens per turn before and after each strategy (uPlot): the context as it grows turn by turn, with the window and
 * the threshold as lines; or each turn's own tokens.
 */
export function TokenChart(props: { comparison: CompareResponse; selected: number }) {
  const container = useRef<HTMLDivElement>(null);
  const [mode, setMode] = useState<Mode>('cumulative');
  const { transcript, details } = props.comparison;
  const threshold = details[props.selected]?.threshold ?? details.find((detail) => detail.threshold !== undefined)?.threshold;

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const turns = transcript.cumulativeBefore.length;
    const x = Array.from({ length: turns }, (_, index) => index + 1);
    const cumulative = mode === 'cumulative';
    const data: (number | null)[][] = [x, cumulative ? [...transcript.cumulativeBefore] : [...transcript.perTurnBefore]];
    const series: uPlot.Series[] = [
      { label: 'turn' },
      { label: 'original', stroke: '#6b7280', width: 2, dash: [6, 4], value: (_, value) => (value === null ? '—' : formatInteger(value)) },
    ];
    details.forEach((detail, index) => {
      data.push(cumulative ? [...detail.cumulativeAfter] : [...detail.perTurnAfter]);
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
          { label: 'turn (one model call each)', stroke: '#4b5563', grid: { stroke: '#eef0f3' }, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000] },
          { label: cumulative ? 'request tokens' : 'tokens in the turn', stroke: '#4b5563', size: 64, grid: { stroke: '#eef0f3' }, values: (_, ticks) => ticks.map(formatCompact) },
        ],
        series,
        legend: { live: true },
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
        </div>
      </header>
      <p class="muted small">
        {mode === 'cumulative'
          ? 'The request (system, tools and history up to each turn) before and after each strategy, with the context window and the threshold at which compression starts. Drag to zoom, double-click to reset.'
          : "Each turn's own tokens before and after each strategy: where the strategies cut."}
      </p>
      <div ref={container} class="chart" />
    </section>
  );
}
