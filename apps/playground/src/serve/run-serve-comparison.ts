import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createTokenCounter, type Conversation, type TokenCounter, type TurnReport } from '@ctx/core';
import { isCompactionSummary } from '../calibration/claude-code-model-calls.js';
import { collectTranscripts } from '../collect-transcripts.js';
import { toRow, type CompareResultRow } from '../commands/compare-command.js';
import { compareStrategies } from '../compare-strategies.js';
import { demoTranscriptPath } from '../demo-transcript.js';
import { describeEmptyConversation } from '../empty-conversation.js';
import { TranscriptLoadError, type LoadedTranscript } from '../read-transcripts.js';
import { resolveStrategies } from '../resolve-strategies.js';
import { createTokenizer, tokenizerNames, type TokenizerName } from '../tokenizers.js';
import { MAX_RUNS, validateRunOptions } from '../validate-run-options.js';
import { attributeEntries } from './attribute-entries.js';
import { entryText } from './entry-text.js';
import { InvalidServeRequestError } from './invalid-serve-request-error.js';
import { recordStrategyPasses, type RecordingFactory } from './record-strategy-passes.js';
import type { CompareRequest, CompareResponse, EntryChange, EntryView, InsertedEntry, StrategyDetail, TranscriptOverview } from './serve-api.js';
import { loadCostModels, type CostModels } from './load-cost-models.js';

/** What the server knows beyond the request: its `--plugin` modules and the sessions it listed. */
export interface ServeComparisonContext {
  /** `--plugin` modules given to `ctx serve`. */
  readonly plugins: readonly string[];
  /** The recent sessions the page may name (the server lists them; nothing else on disk is read). */
  readonly recentSessions: () => readonly string[];
}

const upload = (name: string) => basename(name).replace(/[^\w.-]+/g, '_') || 'transcript.json';

/**
 * A turn is one model call: it starts at each `ai` entry that follows a non-`ai` one (the request of that call holds
 * everything before it); entries before the first answer belong to turn 0.
 */
function turnsOf(entries: Conversation['history']): number[] {
  let turn = 0;
  let answered = false;
  return entries.map((entry, index) => {
    if (entry.speaker === 'ai') {
      if (answered && entries[index - 1]?.speaker !== 'ai') turn++;
      answered = true;
    }
    return turn;
  });
}

/** The turn each epoch starts at: 0, then each turn that holds a compaction summary. */
function epochStartsOf(entries: Conversation['history'], turns: readonly number[]): number[] {
  const starts = [0];
  entries.forEach((entry, index) => {
    const turn = turns[index] as number;
    if (isCompactionSummary(entry) && turn !== starts.at(-1)) starts.push(turn);
  });
  return starts;
}

function prefixSums(values: readonly number[]): number[] {
  let sum = 0;
  return values.map((value) => (sum += value));
}

function summarizePasses(report: TurnReport | undefined): StrategyDetail['passes'] {
  return (report?.passes ?? []).map((pass) => ({
    pass: pass.pass,
    strategy: pass.strategy,
    outcome: pass.outcome,
    ...(pass.reason === undefined ? {} : { reason: pass.reason }),
    tokensBefore: pass.tokensBefore,
    tokensAfter: pass.tokensAfter,
    ms: Math.round(pass.durationMs * 100) / 100,
  }));
}

/** The page's view of one strategy's result: each entry's fate and the tokens per turn after it. */
function describeStrategy(options: {
  readonly conversation: Conversation;
  readonly turns: readonly number[];
  readonly turnCount: number;
  readonly overheadTokens: number;
  readonly tokenCounter: TokenCounter;
  readonly recording: RecordingFactory;
  readonly row: CompareResultRow;
  readonly report: TurnReport | undefined;
  readonly costModels: CostModels | undefined;
  readonly costModel: string | undefined;
}): StrategyDetail {
  const { conversation, turns, tokenCounter, row } = options;
  const history = conversation.history;
  const passes = options.recording.latest();
  const emergency = options.report?.passes.some((pass) => pass.pass === 'emergency' && pass.outcome === 'applied') === true;
  const attribution = row.outcome === 'failed' || passes === undefined ? undefined : attributeEntries(history, passes);
  const changes: EntryChange[] = [];
  const inserted: InsertedEntry[] = [];
  const perTurnAfter = new Array<number>(options.turnCount).fill(0);
  perTurnAfter[0] = options.overheadTokens;
  if (attribution !== undefined) {
    for (const [index, events] of [...attribution.events].sort(([a], [b]) => a - b)) {
      if (!attribution.present.has(index)) changes.push({ index, state: 'removed', events });
    }
    let previous = -1;
    for (const slot of attribution.final) {
      const tokens = tokenCounter.countEntry(slot.entry);
      if (slot.origin === null) {
        const generator = slot.entry.metadata?.providerMetadata?.ctx?.generatedBy;
        inserted.push({
          after: previous,
          speaker: slot.entry.speaker,
          text: entryText(slot.entry),
          tokens,
          ...(typeof generator === 'string' ? { generator } : {}),
        });
      } else {
        previous = slot.origin;
        const events = attribution.events.get(slot.origin);
        if (events?.some((event) => event.action === 'replaced') === true) {
          changes.push({ index: slot.origin, state: 'replaced', events, replacement: { text: entryText(slot.entry), tokens } });
        }
      }
      const turn = previous === -1 ? 0 : (turns[previous] as number);
      perTurnAfter[turn] = (perTurnAfter[turn] as number) + tokens;
    }
    changes.sort((a, b) => a.index - b.index);
  } else {
    // Nothing observed (a failed or frozen strategy): the history as it was.
    history.forEach((entry, index) => {
      const turn = turns[index] as number;
      perTurnAfter[turn] = (perTurnAfter[turn] as number) + tokenCounter.countEntry(entry);
    });
  }
  const cost =
    options.costModels === undefined || options.costModel === undefined || row.tokensAfter === null
      ? undefined
      : { model: options.costModel, before: options.costModels.priceInput(options.costModel, row.tokensBefore), after: options.costModels.priceInput(options.costModel, row.tokensAfter) };
  return {
    strategy: row.strategy,
    changes,
    inserted,
    perTurnAfter,
    cumulativeAfter: prefixSums(perTurnAfter),
    ...(options.report === undefined ? {} : { threshold: options.report.threshold.value }),
    passes: summarizePasses(options.report),
    attribution: attribution === undefined ? 'unavailable' : emergency ? 'passes-then-emergency' : 'passes',
    ...(cost === undefined ? {} : { cost }),
  };
}

async function writeSettings(directory: string, settings: CompareRequest['settings']): Promise<string | undefined> {
  if (settings === undefined || Object.keys(settings).length === 0) return undefined;
  const file = join(directory, 'settings.json');
  await writeFile(file, JSON.stringify(settings));
  return file;
}

/**
 * Runs `POST /api/compare`: the same steps as `ctx compare --json` on one file (the same strategy resolution and
 * settings validation, `compareStrategies`, and the same rows), plus what the page draws for the file's first
 * transcript — entries, tokens per turn, and what each pass did to each entry.
 *
 * @throws `InvalidServeRequestError`, `UsageError`, `CliError`, `TranscriptLoadError` or a strategy's
 *   `InvalidStrategySettingsError` for a request that cannot run (the server answers 400).
 */
export async function runServeComparison(request: CompareRequest, context: ServeComparisonContext): Promise<CompareResponse> {
  const tokenizer = (request.tokenizer ?? 'gpt-tokenizer') as TokenizerName;
  if (!tokenizerNames.includes(tokenizer)) {
    throw new InvalidServeRequestError({ message: `Expected \`tokenizer\` to be one of ${tokenizerNames.join(', ')}, got "${tokenizer}"` });
  }
  const runs = request.runs ?? 1;
  if (!(Number.isInteger(runs) && runs >= 1 && runs <= MAX_RUNS)) {
    throw new InvalidServeRequestError({ message: `Expected \`runs\` to be a whole number from 1 to ${MAX_RUNS}, got ${runs}` });
  }
  validateRunOptions(request);
  const costModels = request.costModel === undefined ? undefined : await loadCostModels();
  if (request.costModel !== undefined && !(costModels?.models.includes(request.costModel) ?? false)) {
    throw new InvalidServeRequestError({
      message: `Expected \`costModel\` to be a model the installed cost model prices (${costModels?.models.join(', ') || 'none installed'}), got "${request.costModel}"`,
    });
  }

  const directory = await mkdtemp(join(tmpdir(), 'ctx-serve-'));
  try {
    let path: string;
    let label: string | undefined;
    if (request.source.kind === 'upload') {
      path = join(directory, upload(request.source.name));
      label = request.source.name;
      await writeFile(path, request.source.text);
    } else if (request.source.kind === 'recent') {
      if (!context.recentSessions().includes(request.source.path)) {
        throw new InvalidServeRequestError({
          message: `Expected one of the recent sessions the server listed (GET /api/info), got "${request.source.path}"; open other files with the file picker`,
        });
      }
      path = request.source.path;
    } else {
      path = demoTranscriptPath;
    }
    const config = await writeSettings(directory, request.settings);
    const factories = await resolveStrategies({
      ...(request.strategies.length === 0 ? {} : { strategies: request.strategies.join(',') }),
      ...(request.presets.length === 0 ? {} : { presets: request.presets.join(',') }),
      plugin: context.plugins,
      set: [],
      ...(config === undefined ? {} : { config }),
    });
    const tokenCounter = createTokenCounter(await createTokenizer(tokenizer));
    let collected;
    try {
      collected = await collectTranscripts([path], { check: describeEmptyConversation });
    } catch (error) {
      // The temporary copy's path means nothing to the user: name the file they opened.
      if (error instanceof TranscriptLoadError && label !== undefined) throw new TranscriptLoadError(error.message.replaceAll(path, label), { cause: error });
      throw error;
    }

    const results: CompareResultRow[] = [];
    let overview: TranscriptOverview | undefined;
    let details: StrategyDetail[] = [];
    for (const [position, loaded] of collected.transcripts.entries()) {
      const transcript: LoadedTranscript = label === undefined ? loaded : { ...loaded, label: loaded.label.replace(path, label) };
      const recordings = position === 0 ? factories.map(recordStrategyPasses) : undefined;
      const comparison = await compareStrategies({
        conversation: transcript.conversation,
        strategies: recordings?.map((recording) => recording.create) ?? factories,
        tokenizer: tokenCounter,
        runs,
        ...(request.window === undefined ? {} : { window: request.window }),
        ...(request.budget === undefined ? {} : { budget: request.budget }),
        ...(request.threshold === undefined ? {} : { threshold: request.threshold }),
      });
      const rows = comparison.results.map((result) => toRow(transcript, result));
      results.push(...rows);
      if (recordings === undefined) continue;

      const { history } = transcript.conversation;
      const turns = turnsOf(history);
      const turnCount = (turns.at(-1) ?? 0) + 1;
      const entries: EntryView[] = history.map((entry, index) => ({
        speaker: entry.speaker,
        text: entryText(entry),
        tokens: tokenCounter.countEntry(entry),
        turn: turns[index] as number,
      }));
      const perTurnBefore = new Array<number>(turnCount).fill(0);
      perTurnBefore[0] = comparison.overheadTokens;
      for (const entry of entries) perTurnBefore[entry.turn] = (perTurnBefore[entry.turn] as number) + entry.tokens;
      overview = {
        label: transcript.label,
        format: transcript.format,
        entries,
        perTurnBefore,
        cumulativeBefore: prefixSums(perTurnBefore),
        epochStarts: epochStartsOf(history, turns),
        overheadTokens: comparison.overheadTokens,
        tokens: comparison.tokens,
        window: comparison.window,
        ...(request.budget === undefined ? {} : { budget: request.budget }),
        tokenizer: tokenCounter.tokenizer.name,
        sessions: collected.transcripts.length,
      };
      details = comparison.results.map((result, index) =>
        describeStrategy({
          conversation: transcript.conversation,
          turns,
          turnCount,
          overheadTokens: comparison.overheadTokens,
          tokenCounter,
          recording: recordings[index] as RecordingFactory,
          row: rows[index] as CompareResultRow,
          report: result.report,
          costModels,
          costModel: request.costModel,
        }),
      );
    }
    if (overview === undefined) {
      throw new InvalidServeRequestError({ message: `Expected a transcript with entries in ${label ?? path}, found none that can be compared` });
    }
    return { results, ...(collected.skipped.length === 0 ? {} : { skipped: collected.skipped }), transcript: overview, details };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
