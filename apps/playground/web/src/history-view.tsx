import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import type { CompareResponse, EntryEvent } from '../../src/serve/serve-api.js';
import { EntryDiff } from './entry-diff.js';
import { colorOf, formatInteger } from './format.js';
import { buildHistoryRows, type HistoryFilter, type HistoryRow } from './history-rows.js';

const ROW_HEIGHT = 76;
const PREVIEW = 360;

const preview = (text: string) => (text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text);

function describeEvent(event: EntryEvent): string {
  const rules = event.rules.length === 0 ? '' : ` · ${event.rules.join(', ')}`;
  return `${event.action} by ${event.strategy} (${event.pass} pass${rules})`;
}

/** The list's rows, virtualized: only the visible ones are in the page, so a session of thousands of entries scrolls smoothly. */
function useVirtualRows(count: number, scrollElement: () => HTMLElement | null) {
  const [, rerender] = useReducer((tick: number) => tick + 1, 0);
  const virtualizer = useMemo(
    () =>
      new Virtualizer<HTMLElement, HTMLElement>({
        count,
        getScrollElement: scrollElement,
        estimateSize: () => ROW_HEIGHT,
        overscan: 12,
        scrollToFn: elementScroll,
        observeElementRect,
        observeElementOffset,
        onChange: () => rerender(undefined),
      }),
    [],
  );
  virtualizer.setOptions({ ...virtualizer.options, count });
  useLayoutEffect(() => virtualizer._didMount(), []);
  useLayoutEffect(() => virtualizer._willUpdate());
  return virtualizer;
}

function Speaker(props: { speaker: string }) {
  return <span class={`speaker speaker-${props.speaker}`}>{props.speaker === 'ai' ? 'assistant' : props.speaker === 'human' ? 'user' : 'tool'}</span>;
}

function RowView(props: { row: HistoryRow; selected: boolean; onSelect: () => void }) {
  const { row } = props;
  if (row.kind === 'inserted') {
    const { inserted } = row;
    return (
      <div class={`history-row state-inserted ${props.selected ? 'selected' : ''}`} onClick={props.onSelect} data-testid="history-row" data-state="inserted">
        <div class="cell meta">
          <span class="index">+</span>
        </div>
        <div class="cell original empty">—</div>
        <div class="cell after">
          <div class="row-head">
            <Speaker speaker={inserted.speaker} />
            <span class="badge badge-inserted">added{inserted.generator === undefined ? '' : ` by ${inserted.generator}`}</span>
            <span class="tokens">{formatInteger(inserted.tokens)} tokens</span>
          </div>
          <div class="preview">{preview(inserted.text)}</div>
        </div>
      </div>
    );
  }
  const { entry, change } = row;
  const state = change?.state ?? 'kept';
  return (
    <div class={`history-row state-${state} ${props.selected ? 'selected' : ''}`} onClick={props.onSelect} data-testid="history-row" data-state={state} data-index={row.index}>
      <div class="cell meta">
        <span class="index">#{row.index + 1}</span>
        <span class="turn">turn {entry.turn + 1}</span>
      </div>
      <div class="cell original">
        <div class="row-head">
          <Speaker speaker={entry.speaker} />
          <span class="tokens">{formatInteger(entry.tokens)} tokens</span>
        </div>
        <div class="preview">{preview(entry.text)}</div>
      </div>
      <div class="cell after">
        <div class="row-head">
          <span class={`badge badge-${state}`}>{state}</span>
          {change === undefined ? null : <span class="event" title={change.events.map(describeEvent).join('\n')}>{describeEvent(change.events.at(-1) as EntryEvent)}</span>}
          {change?.replacement === undefined ? null : <span class="tokens">{formatInteger(change.replacement.tokens)} tokens</span>}
        </div>
        <div class="preview">{state === 'removed' ? '' : preview(change?.replacement?.text ?? entry.text)}</div>
      </div>
    </div>
  );
}

function EntryDetail(props: { row: HistoryRow; onClose: () => void }) {
  const { row } = props;
  let body;
  if (row.kind === 'inserted') {
    body = (
      <>
        <h3>Added entry{row.inserted.generator === undefined ? '' : ` (by ${row.inserted.generator})`}</h3>
        <pre class="full-text">{row.inserted.text}</pre>
      </>
    );
  } else if (row.change?.replacement !== undefined) {
    body = (
      <>
        <h3>
          Entry #{row.index + 1}: replaced — {formatInteger(row.entry.tokens)} → {formatInteger(row.change.replacement.tokens)} tokens
        </h3>
        <ul class="events">
          {row.change.events.map((event, index) => (
            <li key={index}>{describeEvent(event)}</li>
          ))}
        </ul>
        <EntryDiff before={row.entry.text} after={row.change.replacement.text} />
      </>
    );
  } else {
    body = (
      <>
        <h3>
          Entry #{row.index + 1}: {row.change?.state ?? 'kept'} — {formatInteger(row.entry.tokens)} tokens
        </h3>
        {row.change === undefined ? null : (
          <ul class="events">
            {row.change.events.map((event, index) => (
              <li key={index}>{describeEvent(event)}</li>
            ))}
          </ul>
        )}
        <pre class={`full-text ${row.change?.state === 'removed' ? 'removed-text' : ''}`}>{row.entry.text}</pre>
      </>
    );
  }
  return (
    <div class="entry-detail" data-testid="entry-detail">
      <button type="button" class="close" onClick={props.onClose} aria-label="Close">
        ×
      </button>
      {body}
    </div>
  );
}

/**
 * The history side by side: each original entry on the left, on the right what the chosen strategy made of it —
 * kept, replaced (with the replacement) or removed, by which pass and rule — and the entries it added. Click a row for
 * its full text, or the diff of a replacement.
 */
export function HistoryView(props: { comparison: CompareResponse; selected: number; onSelect: (index: number) => void }) {
  const { comparison, selected } = props;
  const [filter, setFilter] = useState<HistoryFilter>('changed');
  const [open, setOpen] = useState<HistoryRow | undefined>(undefined);
  const rows = useMemo(() => buildHistoryRows(comparison, selected, filter), [comparison, selected, filter]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualRows(rows.length, () => scroller.current);
  const detail = comparison.details[selected];
  useEffect(() => setOpen(undefined), [comparison, selected]);
  const counts = useMemo(() => {
    const replaced = detail?.changes.filter((change) => change.state === 'replaced').length ?? 0;
    const removed = detail?.changes.filter((change) => change.state === 'removed').length ?? 0;
    return { replaced, removed, added: detail?.inserted.length ?? 0, kept: comparison.transcript.entries.length - replaced - removed };
  }, [comparison, detail]);

  return (
    <section class="card" data-testid="history-view">
      <header class="card-header">
        <h2>History, entry by entry</h2>
        <div class="tabs" role="tablist">
          {comparison.details.map((strategyDetail, index) => (
            <button
              type="button"
              role="tab"
              key={strategyDetail.strategy}
              aria-selected={index === selected}
              class={index === selected ? 'active' : ''}
              style={{ '--accent': colorOf(index) }}
              onClick={() => props.onSelect(index)}
            >
              {strategyDetail.strategy}
            </button>
          ))}
        </div>
      </header>
      <div class="history-toolbar">
        <div class="segmented" role="group" aria-label="Show">
          {(
            [
              ['changed', `Changed (${formatInteger(counts.replaced + counts.removed + counts.added)})`],
              ['replaced', `Replaced (${formatInteger(counts.replaced)})`],
              ['removed', `Removed (${formatInteger(counts.removed)})`],
              ['all', `All (${formatInteger(comparison.transcript.entries.length + counts.added)})`],
            ] as const
          ).map(([value, text]) => (
            <button type="button" key={value} class={filter === value ? 'active' : ''} onClick={() => setFilter(value)}>
              {text}
            </button>
          ))}
        </div>
        <span class="muted small">
          {formatInteger(counts.kept)} kept · {formatInteger(counts.replaced)} replaced · {formatInteger(counts.removed)} removed · {formatInteger(counts.added)} added
        </span>
      </div>
      {detail?.attribution === 'unavailable' ? (
        <p class="notice">This strategy failed or could not be observed, so its entries are not shown one by one.</p>
      ) : detail?.attribution === 'passes-then-emergency' ? (
        <p class="notice">The emergency cut also shortened the largest tool results after this strategy; those cuts are not shown entry by entry.</p>
      ) : null}
      <div class="history-columns">
        <span />
        <span>Original</span>
        <span>After {detail?.strategy ?? ''}</span>
      </div>
      <div class="history-layout">
        <div class="history-scroller" ref={scroller}>
          {rows.length === 0 ? (
            <p class="muted empty-list">Nothing here: {filter === 'all' ? 'the transcript has no entries' : 'this strategy changed no entry of this kind'}.</p>
          ) : (
            <div style={{ height: `${virtualizer.getTotalSize()}px`, position: 'relative' }}>
              {virtualizer.getVirtualItems().map((item) => {
                const row = rows[item.index] as HistoryRow;
                return (
                  <div key={item.key} style={{ position: 'absolute', top: 0, left: 0, right: 0, height: `${ROW_HEIGHT}px`, transform: `translateY(${item.start}px)` }}>
                    <RowView row={row} selected={open === row} onSelect={() => setOpen(row)} />
                  </div>
                );
              })}
            </div>
          )}
        </div>
        {open === undefined ? null : <EntryDetail row={open} onClose={() => setOpen(undefined)} />}
      </div>
    </section>
  );
}
