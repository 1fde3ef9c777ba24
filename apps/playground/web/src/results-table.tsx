import type { CompareResponse, CompareResultRow } from '../../src/serve/serve-api.js';
import { colorOf, formatInteger, formatMs, formatPercent, formatUsd } from './format.js';

function Retention(props: { field: string; value: number | null; throughReferences: boolean; title: string }) {
  const { value } = props;
  const level = value === null ? 'none' : value >= 0.999 ? 'good' : value >= 0.8 ? 'fair' : 'poor';
  return (
    <td data-field={props.field} data-value={JSON.stringify(value)}>
      <span class={`badge badge-${level}`} title={props.title}>
        {value === null ? '—' : formatPercent(value)}
        {props.throughReferences ? '*' : ''}
      </span>
    </td>
  );
}

function Validity(props: { field: string; value: boolean | null; provider: string }) {
  return (
    <span data-field={props.field} data-value={JSON.stringify(props.value)}>
      <span
        class={`badge ${props.value === null ? 'badge-none' : props.value ? 'badge-good' : 'badge-poor'}`}
        title={props.value === false ? `The compressed request breaks ${props.provider}'s rules (e.g. a tool result without its call)` : `A valid ${props.provider} request`}
      >
        {props.value === null ? '—' : props.value ? `${props.provider} ✓` : `${props.provider} ✗`}
      </span>
    </span>
  );
}

function outcomeText(row: CompareResultRow): string {
  return row.outcome === 'no-op' ? `no-op (${row.reason ?? ''})` : row.outcome;
}

/**
 * The figures of `ctx compare --json`, one row per strategy: tokens before → after, reduction, what was retained
 * (user texts, latest file states, errors), validity for Anthropic and OpenAI, cost and time. Click a row to see its
 * entries.
 */
export function ResultsTable(props: { comparison: CompareResponse; selected: number; onSelect: (index: number) => void }) {
  const { comparison } = props;
  const multiple = comparison.transcript.sessions > 1;
  const anyReferences = comparison.results.some((row) => row.keptThroughReferences);
  return (
    <section class="card">
      <header class="card-header">
        <h2>Results</h2>
        <span class="muted small">the same figures as <code>ctx compare --json</code></span>
      </header>
      <div class="table-scroll">
        <table class="results" data-testid="results-table">
          <thead>
            <tr>
              {multiple ? <th>session</th> : null}
              <th>strategy</th>
              <th>outcome</th>
              <th class="number" title="Request tokens: history + system instructions + tool definitions">tokens before → after</th>
              <th class="number">reduction</th>
              <th title="User-typed texts kept verbatim">user texts</th>
              <th title="Latest content of each file the agent read or wrote">file states</th>
              <th title="Error results kept">errors</th>
              <th>valid</th>
              <th class="number" title="Input cost of the next request (uncached)">cost</th>
              <th class="number" title="Median time of the strategy's passes">time</th>
            </tr>
          </thead>
          <tbody>
            {comparison.results.map((row, index) => {
              const detail = index < comparison.details.length ? comparison.details[index] : undefined;
              const selectable = detail !== undefined;
              return (
                <tr
                  key={`${row.file}:${row.strategy}:${index}`}
                  data-testid="result-row"
                  data-strategy={row.strategy}
                  class={`${selectable ? 'selectable' : ''} ${index === props.selected ? 'selected' : ''}`}
                  onClick={() => selectable && props.onSelect(index)}
                >
                  {multiple ? <td class="file">{row.file}</td> : null}
                  <td>
                    <span class="swatch" style={{ background: selectable ? colorOf(index) : '#d1d5db' }} />
                    <strong>{row.strategy}</strong>
                    {row.requiresLLM ? <span class="badge badge-none" title="Summarizes with a model; ctx serve runs without one">LLM</span> : null}
                  </td>
                  <td data-field="outcome" data-value={JSON.stringify(row.outcome)} title={row.detail ?? ''}>
                    <span class={`outcome outcome-${row.outcome}`}>{outcomeText(row)}</span>
                  </td>
                  <td class="number" data-field="tokensAfter" data-value={JSON.stringify(row.tokensAfter)} data-before={row.tokensBefore}>
                    {formatInteger(row.tokensBefore)} → <strong>{row.tokensAfter === null ? '—' : formatInteger(row.tokensAfter)}</strong>
                  </td>
                  <td class="number" data-field="reduction" data-value={JSON.stringify(row.reduction)}>
                    {row.reduction === null ? '—' : formatPercent(row.reduction)}
                  </td>
                  <Retention field="userTextsKept" value={row.userTextsKept} throughReferences={false} title="User texts kept verbatim" />
                  <Retention field="fileStatesKept" value={row.fileStatesKept} throughReferences={row.keptThroughReferences} title="Latest file states kept" />
                  <Retention field="errorsKept" value={row.errorsKept} throughReferences={row.keptThroughReferences} title="Errors kept" />
                  <td class="validity">
                    <Validity field="validAnthropic" value={row.validAnthropic} provider="Anthropic" />
                    <Validity field="validOpenAI" value={row.validOpenAI} provider="OpenAI" />
                  </td>
                  <td class="number" data-field="cost">
                    {detail?.cost === undefined ? '—' : `${formatUsd(detail.cost.before)} → ${formatUsd(detail.cost.after)}`}
                  </td>
                  <td class="number" data-field="ms" data-value={row.ms}>
                    {formatMs(row.ms)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {anyReferences ? (
        <p class="muted small">* content replaced by a reference counts as kept: the model can read it where the reference points, and expand() restores it exactly.</p>
      ) : null}
      {comparison.results
        .filter((row) => row.outcome !== 'applied' && row.detail !== undefined && row.detail !== row.reason)
        .map((row) => (
          <p class="muted small note" key={`${row.file}:${row.strategy}`}>
            <strong>{row.strategy}</strong>: {row.detail}
          </p>
        ))}
    </section>
  );
}
