import { SummarizerError, type HistoryEntry, type Summarizer, type TokenCounter } from '@ctx/core';
import { fitSummarizerInput } from '@ctx/strategy-utils';
import { SUMMARIZED_CONTENT_PREFIX } from './content-markers.js';
import type { ContentType } from './content-operations.js';
import type { SummaryJob } from './individual-pass.js';

/** Summarizer calls running at once for one pass. */
export const SUMMARY_CONCURRENCY = 4;

/** The summarizer's window when it does not say (`Summarizer.contextWindow`). */
const fallbackWindow = 128_000;

const describedAs: Readonly<Record<ContentType, string>> = {
  toolResults: 'the output of a tool call',
  toolParameters: 'an argument of a tool call',
  messageText: "an assistant's message",
};

/** What {@link summarizePieces} got back. */
export interface PieceSummaries {
  /** One per job, in job order: the replacement text, or undefined when that piece must be truncated instead. */
  readonly texts: readonly (string | undefined)[];
  readonly calls: number;
  readonly failures: readonly string[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly aborted: boolean;
}

function instructionsFor(job: SummaryJob): string {
  if (job.operation.summarize.customPrompt !== undefined) return job.operation.summarize.customPrompt;
  const words = job.operation.summarize.maxTokens === undefined ? '' : ` in under ${Math.max(20, Math.floor(job.operation.summarize.maxTokens * 0.75))} words`;
  return `Summarize ${describedAs[job.type]} from an AI coding agent's conversation${words}, so the agent can continue without the original. Keep exact file paths, identifiers, numbers and error messages; state what it showed or did. Answer with the summary only.`;
}

/**
 * Summarizes each piece with one summarizer call (spec 004 FR-SM-002 `summarize`), at most
 * {@link SUMMARY_CONCURRENCY} at once, results in job order. A piece larger than the summarizer's window is cut to
 * fit 80% of it first. A call that fails, answers with nothing, or does not shorten the piece gives `undefined` for
 * that piece (the caller truncates it instead); an aborted signal stops the remaining calls.
 *
 * @param jobs - The pieces, in walk order.
 * @param options - The summarizer for each job, the token counter and the abort signal.
 * @returns The summaries, the failures and the usage the summarizer reported.
 */
export async function summarizePieces(
  jobs: readonly SummaryJob[],
  options: {
    readonly summarizerFor: (job: SummaryJob) => Summarizer | undefined;
    readonly tokenCounter: TokenCounter;
    readonly signal?: AbortSignal;
  },
): Promise<PieceSummaries> {
  const texts: (string | undefined)[] = Array.from({ length: jobs.length }, () => undefined);
  const failures: string[] = [];
  let calls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let aborted = false;
  let next = 0;
  // A function, not a narrowed property: the signal can be aborted while a call is awaited.
  const signalAborted = () => options.signal?.aborted === true;
  const worker = async () => {
    while (next < jobs.length && !aborted) {
      const position = next++;
      const job = jobs[position] as SummaryJob;
      const summarizer = options.summarizerFor(job);
      if (summarizer === undefined) continue;
      if (signalAborted()) {
        aborted = true;
        return;
      }
      const instructions = instructionsFor(job);
      const window = summarizer.contextWindow ?? fallbackWindow;
      const entry: HistoryEntry = { speaker: 'human', blocks: [{ type: 'text', text: job.text }] };
      const fitted = fitSummarizerInput([entry], {
        tokenCounter: options.tokenCounter,
        maxTokens: Math.floor(window * 0.8) - options.tokenCounter.countText(instructions),
      });
      calls++;
      try {
        const result = await summarizer.summarize({
          entries: fitted.entries,
          instructions,
          ...(job.operation.summarize.maxTokens === undefined ? {} : { maxOutputTokens: job.operation.summarize.maxTokens }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
        inputTokens += result.usage?.inputTokens ?? 0;
        outputTokens += result.usage?.outputTokens ?? 0;
        const text = result.text.trim();
        if (text === '') failures.push(`${summarizer.name} answered with an empty summary`);
        else texts[position] = `${SUMMARIZED_CONTENT_PREFIX}\n${text}`;
      } catch (error) {
        if (signalAborted() || (SummarizerError.isInstance(error) && error.reason === 'aborted')) {
          aborted = true;
          return;
        }
        failures.push(error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SUMMARY_CONCURRENCY, jobs.length) }, worker));
  return { texts, calls, failures, inputTokens, outputTokens, aborted };
}
