import type { CompressionStrategy, Summarizer } from '@ctx/core';
import { escapeForTerminal } from './terminal-text.js';
import { UsageError } from './usage-error.js';

/** The summarizer options of `ctx compare` and `ctx compress`, as commander parses them. */
export interface SummarizerCommandOptions {
  /** `--summarizer-url`: the base URL of an OpenAI-compatible API (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter). */
  readonly summarizerUrl?: string;
  /** `--summarizer-model`: the model id at that URL. */
  readonly summarizerModel?: string;
  /** `--summarizer-window`: the summarizer model's context window, in tokens. */
  readonly summarizerWindow?: number;
  /** `--summarizer anthropic:<model>`: an Anthropic model, the key from `ANTHROPIC_API_KEY`. */
  readonly summarizer?: string;
}

/** The environment variable holding the OpenAI-compatible summarizer's API key (never printed). */
export const summarizerKeyVariable = 'CTX_SUMMARIZER_API_KEY';

/** How to give the CLI a summarizer, for messages about a missing one. */
export const summarizerFlagsHint =
  '--summarizer-url <OpenAI-compatible base URL> --summarizer-model <id> (key in CTX_SUMMARIZER_API_KEY), or --summarizer anthropic:<model> (key in ANTHROPIC_API_KEY)';

function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--summarizer-url expects an http:// or https:// base URL such as http://127.0.0.1:11434/v1, got ${escapeForTerminal(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--summarizer-url expects an http:// or https:// base URL, got ${escapeForTerminal(url.protocol)} (${escapeForTerminal(text)})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(`--summarizer-url must not carry credentials; put the key in ${summarizerKeyVariable}`);
  }
  return url;
}

/**
 * Builds the summarizer the command line asks for: `--summarizer-url` + `--summarizer-model` with
 * `@ai-sdk/openai-compatible` (key from `CTX_SUMMARIZER_API_KEY`, optional: local servers need none), or
 * `--summarizer anthropic:<model>` with `@ai-sdk/anthropic` (key from `ANTHROPIC_API_KEY`). Keys are read from the
 * environment only and never appear in names, reports or errors.
 *
 * @param options - The parsed options.
 * @param environment - Where the keys are read from.
 * @returns The summarizer, or undefined when no summarizer option was given.
 * @throws {@link UsageError} for an incomplete or contradictory set of options, an invalid URL, a missing Anthropic key.
 */
export async function createCliSummarizer(
  options: SummarizerCommandOptions,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<Summarizer | undefined> {
  // The AI SDK is loaded only when a summarizer is asked for: most runs use none, and it is slow to import.
  const { summarizerUrl: url, summarizerModel: model, summarizer: spec } = options;
  const window = options.summarizerWindow === undefined ? {} : { contextWindow: options.summarizerWindow };
  if (spec !== undefined) {
    if (url !== undefined || model !== undefined) {
      throw new UsageError('give either --summarizer <provider:model> or --summarizer-url with --summarizer-model, not both');
    }
    const match = /^anthropic:(.+)$/.exec(spec);
    if (match === null) throw new UsageError(`--summarizer expects anthropic:<model>, e.g. anthropic:claude-haiku-4-5, got ${escapeForTerminal(spec)}`);
    const apiKey = environment.ANTHROPIC_API_KEY;
    if (apiKey === undefined || apiKey === '') throw new UsageError('--summarizer anthropic:… needs the API key in ANTHROPIC_API_KEY, which is not set');
    const modelId = match[1] as string;
    const [{ createAnthropic }, { createAiSdkSummarizer }] = await Promise.all([import('@ai-sdk/anthropic'), import('@ctx/summarizer-ai-sdk')]);
    return createAiSdkSummarizer({ model: createAnthropic({ apiKey })(modelId), name: `anthropic:${modelId}`, ...window });
  }
  if (url === undefined && model === undefined) {
    if (options.summarizerWindow !== undefined) throw new UsageError(`--summarizer-window needs a summarizer: ${summarizerFlagsHint}`);
    return undefined;
  }
  if (url === undefined) throw new UsageError('--summarizer-model needs --summarizer-url <OpenAI-compatible base URL>');
  if (model === undefined || model.trim() === '') throw new UsageError('--summarizer-url needs --summarizer-model <id>');
  const baseURL = parseBaseUrl(url);
  const apiKey = environment[summarizerKeyVariable];
  const [{ createOpenAICompatible }, { createAiSdkSummarizer }] = await Promise.all([
    import('@ai-sdk/openai-compatible'),
    import('@ctx/summarizer-ai-sdk'),
  ]);
  const provider = createOpenAICompatible({
    name: 'summarizer',
    baseURL: baseURL.href.replace(/\/$/, ''),
    ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
  });
  return createAiSdkSummarizer({ model: provider(model), name: `${model} @ ${baseURL.host}`, ...window });
}

/**
 * Refuses to compress with a strategy that needs a model when no summarizer was given, naming the flags.
 *
 * @throws {@link UsageError} naming the first such strategy and the flags that give it a summarizer.
 */
export function requireSummarizerFor(strategies: readonly CompressionStrategy[], summarizer: Summarizer | undefined): void {
  if (summarizer !== undefined) return;
  const needing = strategies.find((strategy) => strategy.requiresLLM);
  if (needing !== undefined) throw new UsageError(`${needing.name} summarizes with a model and no summarizer was given: add ${summarizerFlagsHint}`);
}
