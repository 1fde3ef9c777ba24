import { useEffect, useMemo, useState } from 'preact/hooks';
import type { CompareRequest, CompareResponse, ServeInfo, TranscriptSource } from '../../src/serve/serve-api.js';
import { fetchInfo, runCompare } from './api.js';
import { formatBytes, formatInteger } from './format.js';
import { HistoryView } from './history-view.js';
import { ResultsTable } from './results-table.js';
import { SettingsForm } from './settings-form.js';
import { TokenChart } from './token-chart.js';

type Settings = Readonly<Record<string, unknown>>;

/** The transcript chosen, with what to show about it. */
interface ChosenTranscript {
  readonly source: TranscriptSource;
  readonly title: string;
  readonly bytes?: number;
}

const defaultStrategies = ['high-density', 'truncation'];

function TranscriptPicker(props: { info: ServeInfo | undefined; chosen: ChosenTranscript | undefined; onChoose: (chosen: ChosenTranscript) => void }) {
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const open = async (file: File | undefined) => {
    if (file === undefined) return;
    try {
      const text = await file.text();
      setError(undefined);
      props.onChoose({ source: { kind: 'upload', name: file.name, text }, title: file.name, bytes: file.size });
    } catch (problem) {
      setError(`Could not read ${file.name}: ${(problem as Error).message}`);
    }
  };
  return (
    <section class="panel">
      <h2>1 · Transcript</h2>
      <label
        class={`drop-zone ${dragging ? 'dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void open(event.dataTransfer?.files[0]);
        }}
      >
        <input type="file" accept=".json,.jsonl,.traj,application/json" data-testid="file-input" onChange={(event) => void open(event.currentTarget.files?.[0])} />
        <strong>Drop a transcript here</strong>
        <span class="muted small">or click to choose a file — Claude Code sessions, trajectories, Anthropic / OpenAI / Gemini / AI SDK messages, ctx JSON</span>
      </label>
      {error === undefined ? null : <p class="field-error">{error}</p>}
      <div class="sources">
        <button
          type="button"
          class={`source ${props.chosen?.source.kind === 'demo' ? 'active' : ''}`}
          data-testid="transcript-demo"
          onClick={() => props.onChoose({ source: { kind: 'demo' }, title: 'Built-in demo session' })}
        >
          Built-in demo session
        </button>
        {props.info === undefined ? null : props.info.recentSessions.length === 0 ? (
          <p class="muted small">No recent Claude Code sessions in {props.info.sessionsDirectory}.</p>
        ) : (
          <>
            <p class="muted small">Your recent Claude Code sessions:</p>
            <div class="recent-list">
              {props.info.recentSessions.map((session) => {
                const active = props.chosen?.source.kind === 'recent' && props.chosen.source.path === session.path;
                return (
                  <button
                    type="button"
                    key={session.path}
                    class={`source ${active ? 'active' : ''}`}
                    title={session.path}
                    onClick={() => props.onChoose({ source: { kind: 'recent', path: session.path }, title: session.path.split('/').pop() ?? session.path, bytes: session.bytes })}
                  >
                    <span class="source-name">{session.project.replace(/^-/, '').replaceAll('-', '/')}</span>
                    <span class="muted small">
                      {new Date(session.modified).toLocaleString()} · {formatBytes(session.bytes)}
                    </span>
                  </button>
                );
              })}
            </div>
          </>
        )}
      </div>
      {props.chosen === undefined ? null : (
        <p class="chosen" data-testid="chosen-transcript">
          ✓ {props.chosen.title}
          {props.chosen.bytes === undefined ? '' : ` (${formatBytes(props.chosen.bytes)})`}
        </p>
      )}
    </section>
  );
}

function StrategyPicker(props: {
  info: ServeInfo;
  strategies: readonly string[];
  presets: readonly string[];
  settings: Readonly<Record<string, Settings>>;
  onStrategies: (names: string[]) => void;
  onPresets: (names: string[]) => void;
  onSettings: (name: string, value: Settings) => void;
}) {
  const [expanded, setExpanded] = useState<string | undefined>(undefined);
  const toggle = (list: readonly string[], name: string) => (list.includes(name) ? list.filter((item) => item !== name) : [...list, name]);
  return (
    <section class="panel">
      <h2>2 · Strategies</h2>
      <ul class="choices">
        {props.info.strategies.map((strategy) => {
          const checked = props.strategies.includes(strategy.name);
          const changed = Object.keys(props.settings[strategy.name] ?? {}).length;
          return (
            <li key={strategy.name} class={checked ? 'checked' : ''}>
              <div class="choice">
                <label title={strategy.description}>
                  <input
                    type="checkbox"
                    data-testid={`strategy-${strategy.name}`}
                    checked={checked}
                    onChange={() => props.onStrategies(toggle(props.strategies, strategy.name))}
                  />
                  <span class="choice-name">{strategy.name}</span>
                  {strategy.requiresLLM ? <span class="badge badge-none">LLM</span> : null}
                  {strategy.origin.startsWith('@ctx/') ? null : (
                    <span class="badge badge-plugin" title={strategy.origin}>
                      plugin
                    </span>
                  )}
                </label>
                <button type="button" class="link" aria-expanded={expanded === strategy.name} onClick={() => setExpanded(expanded === strategy.name ? undefined : strategy.name)}>
                  {changed > 0 ? `settings (${changed})` : 'settings'}
                </button>
              </div>
              {strategy.description === undefined ? null : <p class="muted small description">{strategy.description}</p>}
              {expanded === strategy.name ? (
                <SettingsForm
                  name={strategy.name}
                  schema={strategy.settingsJsonSchema}
                  defaults={strategy.defaultSettings}
                  value={props.settings[strategy.name] ?? {}}
                  onChange={(value) => props.onSettings(strategy.name, value)}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
      {props.info.presets.length === 0 ? null : (
        <>
          <h3>Presets</h3>
          <ul class="choices">
            {props.info.presets.map((preset) => (
              <li key={preset.name} class={props.presets.includes(preset.name) ? 'checked' : ''}>
                <div class="choice">
                  <label title={preset.description}>
                    <input type="checkbox" data-testid={`preset-${preset.name}`} checked={props.presets.includes(preset.name)} onChange={() => props.onPresets(toggle(props.presets, preset.name))} />
                    <span class="choice-name">{preset.name}</span>
                  </label>
                </div>
                <p class="muted small description">
                  {preset.steps.join(' → ')} — {preset.description}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

interface RunOptions {
  window: string;
  threshold: string;
  budget: string;
  tokenizer: string;
  runs: string;
  costModel: string;
}

function RunOptionsPanel(props: { info: ServeInfo; options: RunOptions; onChange: (options: RunOptions) => void }) {
  const set = (key: keyof RunOptions) => (event: { currentTarget: { value: string } }) => props.onChange({ ...props.options, [key]: event.currentTarget.value });
  return (
    <section class="panel">
      <h2>3 · Options</h2>
      <div class="options-grid">
        <label for="option-window">Context window</label>
        <input id="option-window" type="number" min={1} placeholder="the transcript's size" value={props.options.window} onInput={set('window')} />
        <label for="option-threshold">Threshold</label>
        <input id="option-threshold" type="number" min={0.01} max={1} step={0.01} placeholder="each strategy's own" value={props.options.threshold} onInput={set('threshold')} />
        <label for="option-budget">Target tokens</label>
        <input id="option-budget" type="number" min={1} placeholder="threshold × window × 0.6" value={props.options.budget} onInput={set('budget')} />
        <label for="option-tokenizer">Tokenizer</label>
        <select id="option-tokenizer" value={props.options.tokenizer} onChange={set('tokenizer')}>
          {props.info.tokenizers.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
        <label for="option-runs">Runs (median time)</label>
        <input id="option-runs" type="number" min={1} max={100} value={props.options.runs} onInput={set('runs')} />
        {props.info.costModels.length === 0 ? null : (
          <>
            <label for="option-cost">Price with</label>
            <select id="option-cost" value={props.options.costModel} onChange={set('costModel')}>
              <option value="">no cost</option>
              {props.info.costModels.map((model) => (
                <option key={model}>{model}</option>
              ))}
            </select>
          </>
        )}
      </div>
    </section>
  );
}

function toNumber(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

/** The playground page: choose a transcript and strategies on the left, see the comparison on the right. */
export function App() {
  const [info, setInfo] = useState<ServeInfo | undefined>(undefined);
  const [infoError, setInfoError] = useState<string | undefined>(undefined);
  const [chosen, setChosen] = useState<ChosenTranscript | undefined>(undefined);
  const [strategies, setStrategies] = useState<string[]>([]);
  const [presets, setPresets] = useState<string[]>([]);
  const [settings, setSettings] = useState<Record<string, Settings>>({});
  const [options, setOptions] = useState<RunOptions>({ window: '', threshold: '', budget: '', tokenizer: 'gpt-tokenizer', runs: '1', costModel: '' });
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [comparison, setComparison] = useState<CompareResponse | undefined>(undefined);
  const [elapsed, setElapsed] = useState<number | undefined>(undefined);
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    fetchInfo()
      .then((loaded) => {
        setInfo(loaded);
        setStrategies(defaultStrategies.filter((name) => loaded.strategies.some((strategy) => strategy.name === name)));
        if (loaded.costModels.length > 0) setOptions((current) => ({ ...current, costModel: loaded.costModels.find((model) => model.includes('sonnet')) ?? loaded.costModels[0] ?? '' }));
      })
      .catch((problem: unknown) => setInfoError((problem as Error).message));
  }, []);

  const request = useMemo((): CompareRequest | undefined => {
    if (chosen === undefined) return undefined;
    const used = Object.fromEntries(Object.entries(settings).filter(([name, value]) => strategies.includes(name) && Object.keys(value).length > 0));
    const numbers = { window: toNumber(options.window), threshold: toNumber(options.threshold), budget: toNumber(options.budget), runs: toNumber(options.runs) };
    return {
      source: chosen.source,
      strategies,
      presets,
      ...(Object.keys(used).length === 0 ? {} : { settings: used }),
      ...Object.fromEntries(Object.entries(numbers).filter(([, value]) => value !== undefined)),
      tokenizer: options.tokenizer,
      ...(options.costModel === '' ? {} : { costModel: options.costModel }),
    };
  }, [chosen, strategies, presets, settings, options]);

  const run = async () => {
    if (request === undefined) return;
    setRunning(true);
    setError(undefined);
    const started = performance.now();
    try {
      const result = await runCompare(request);
      setComparison(result);
      setSelected(0);
      setElapsed(performance.now() - started);
    } catch (problem) {
      setError((problem as Error).message);
    } finally {
      setRunning(false);
    }
  };

  const nothingChosen = strategies.length === 0 && presets.length === 0;
  return (
    <div class="layout">
      <header class="topbar">
        <h1>
          ctx <span>playground</span>
        </h1>
        <p class="muted">Compare context-compression strategies on a real transcript: what each one keeps, replaces and removes.</p>
        {info === undefined ? null : <span class="muted small version">v{info.version}</span>}
      </header>
      <aside class="sidebar">
        {infoError === undefined ? null : <p class="error">Could not reach the ctx serve server: {infoError}</p>}
        <TranscriptPicker info={info} chosen={chosen} onChoose={setChosen} />
        {info === undefined ? null : (
          <>
            <StrategyPicker
              info={info}
              strategies={strategies}
              presets={presets}
              settings={settings}
              onStrategies={setStrategies}
              onPresets={setPresets}
              onSettings={(name, value) => setSettings((current) => ({ ...current, [name]: value }))}
            />
            <RunOptionsPanel info={info} options={options} onChange={setOptions} />
          </>
        )}
        <div class="run-bar">
          <button type="button" class="primary" data-testid="run" disabled={running || request === undefined || nothingChosen} onClick={() => void run()}>
            {running ? 'Comparing…' : 'Compare'}
          </button>
          <span class="muted small">
            {chosen === undefined ? 'Choose a transcript first.' : nothingChosen ? 'Choose a strategy or a preset.' : `${strategies.length + presets.length} to run`}
          </span>
        </div>
        {problemsOf(info)}
      </aside>
      <main class="content">
        {error === undefined ? null : (
          <p class="error" data-testid="error" role="alert">
            {error}
          </p>
        )}
        {comparison === undefined ? (
          <div class="empty-state">
            <h2>Nothing compared yet</h2>
            <ol>
              <li>Open a transcript: drop a file, pick a recent Claude Code session, or use the built-in demo.</li>
              <li>Tick the strategies and presets to compare; open "settings" to change a strategy's settings.</li>
              <li>Press Compare. The chart shows the context per turn before and after; the history shows each entry's fate.</li>
            </ol>
          </div>
        ) : (
          <>
            <section class="summary" data-testid="summary">
              <div>
                <span class="muted small">transcript</span>
                <strong title={comparison.transcript.label}>{comparison.transcript.label.split('/').pop()}</strong>
                <span class="muted small">{comparison.transcript.format}</span>
              </div>
              <div>
                <span class="muted small">entries</span>
                <strong>{formatInteger(comparison.transcript.entries.length)}</strong>
                <span class="muted small">{formatInteger(comparison.transcript.cumulativeBefore.length)} turns</span>
              </div>
              <div>
                <span class="muted small">request tokens</span>
                <strong>{formatInteger(comparison.transcript.tokens)}</strong>
                <span class="muted small">{formatInteger(comparison.transcript.overheadTokens)} system and tools · {comparison.transcript.tokenizer}</span>
              </div>
              <div>
                <span class="muted small">context window</span>
                <strong>{formatInteger(comparison.transcript.window)}</strong>
                <span class="muted small">{options.window === '' ? "the transcript's own size" : 'as set'}</span>
              </div>
              {elapsed === undefined ? null : (
                <div>
                  <span class="muted small">compared in</span>
                  <strong>{(elapsed / 1000).toFixed(1)} s</strong>
                  <span class="muted small">{comparison.transcript.sessions > 1 ? `${comparison.transcript.sessions} sessions; details for the first` : 'one session'}</span>
                </div>
              )}
            </section>
            <ResultsTable comparison={comparison} selected={selected} onSelect={setSelected} />
            <TokenChart comparison={comparison} selected={selected} />
            <HistoryView comparison={comparison} selected={selected} onSelect={setSelected} />
          </>
        )}
      </main>
    </div>
  );
}

function problemsOf(info: ServeInfo | undefined) {
  if (info === undefined || info.problems.length === 0) return null;
  return (
    <div class="notice small">
      Saved presets that could not be read:
      <ul>
        {info.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}
