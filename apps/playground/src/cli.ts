import { Command, Option } from 'commander';
import { processIo, type CliIo } from './cli-io.js';
// Commands are imported by their actions (`await import`), so `ctx --help` and each command load only what they use.
import type { BenchCommandOptions } from './commands/bench-command.js';
import type { CompareCommandOptions } from './commands/compare-command.js';
import type { CompressCommandOptions } from './commands/compress-command.js';
import type { CostCommandOptions } from './commands/cost-command.js';
import type { StressCommandOptions } from './commands/stress-command.js';
import { parseOnlyOption, parseSessionsOption } from './bench/bench-options.js';
import { benchParts } from './bench/bench-parts.js';
import { outputFormats } from './output-format-names.js';
import { exitCodesHelp } from './exit-codes.js';
import { isDebugRequested, reportCliError } from './report-cli-error.js';
import type { StrategyCommandOptions } from './resolve-strategies.js';
import { tokenizerNames, type TokenizerName } from './tokenizers.js';
import { UsageError } from './usage-error.js';
import {
  parseBudgetOption,
  parseRunsOption,
  parseSummarizerWindowOption,
  parseThresholdOption,
  parseWindowOption,
} from './validate-run-options.js';
import { playgroundVersion } from './version.js';

/**
 * Runs the `ctx` command line and returns the exit code (see `exitCodes`): 0 on success, 1 when a check failed, the
 * input was unreadable or a strategy failed, 2 for a usage error — each error one line on stderr, with its stack
 * only under `--debug` (or `CTX_DEBUG=1`).
 *
 * @param argv - The arguments after `ctx`.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name('ctx')
    .description("Keep an agent's history inside the context window: compare strategies on real transcripts.")
    .version(playgroundVersion, '-V, --version', "print ctx's version")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text.trimEnd()),
      writeErr: (text) => io.stderr(text.trimEnd()),
      // One line like every other error: "ctx: unknown option '--x'" rather than "error: unknown option '--x'".
      outputError: (text, write) => write(`ctx: ${text.replace(/^error: /, '')}`),
    })
    // Parsed by commander so that it is listed and accepted anywhere; `isDebugRequested` reads it from argv.
    .option('--debug', 'print the stack trace of an error (or set CTX_DEBUG=1)')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', exitCodesHelp);

  const collect = (value: string, previous: string[]) => [...previous, value];
  const withStrategyOptions = (command: Command) =>
    command
      .option('--plugin <module>', 'load third-party strategies from a module path or installed package (repeatable)', collect, [])
      .option('--set <strategy.option=value>', 'a strategy setting, e.g. top-down-truncation.minEntriesKept=4 (repeatable)', collect, [])
      .option('--config <file.json>', 'strategy settings keyed by strategy name');
  const withSummarizerOptions = (command: Command) =>
    command
      .option('--summarizer-url <url>', 'OpenAI-compatible base URL for LLM strategies, e.g. http://127.0.0.1:11434/v1 (key in CTX_SUMMARIZER_API_KEY)')
      .option('--summarizer-model <id>', 'the model at --summarizer-url')
      .option('--summarizer-window <tokens>', "the summarizer model's context window (requests stay within 80% of it)", parseSummarizerWindowOption)
      .option('--summarizer <provider:model>', 'anthropic:<model> for LLM strategies (key in ANTHROPIC_API_KEY)');
  const withRunOptions = (command: Command) =>
    command
      .option('--window <tokens>', "context window (default: the transcript's own size, as if it had just filled it)", parseWindowOption)
      .option('--budget <tokens>', 'compression target for the whole request (default: threshold × window × 0.6)', parseBudgetOption)
      .option('--threshold <fraction>', "compression threshold in (0, 1] (default: each strategy's own)", parseThresholdOption)
      .addOption(new Option('--tokenizer <name>', 'tokenizer').choices(tokenizerNames).default('gpt-tokenizer'));

  withSummarizerOptions(withRunOptions(
    withStrategyOptions(
      program
        .command('compare')
        .description(
          'Run each strategy on each transcript; print tokens before → after, reduction, user texts kept, validity for Anthropic and OpenAI, file states kept, errors kept, time. Without a path: your recent Claude Code sessions, else the built-in demo.',
        )
        .argument('[paths...]', 'transcript files or directories (Claude Code, trajectories, provider messages, ctx JSON)')
        .option('--strategies <names>', 'comma-separated strategy names (default: every known strategy, or none with --presets)')
        .option('--presets <names>', 'comma-separated presets (built-in, saved, or .json files), each compared as one pipeline'),
    ),
  ))
    .option('--runs <count>', 'runs per strategy; the median time is reported (1 to 100)', parseRunsOption, 3)
    .option('--json', 'print {"results": [...]} instead of a table', false)
    .option('--strict', 'fail (exit 1, compare nothing) when an input line is malformed, instead of warning', false)
    .action(async (paths: string[], options: CompareCommandOptions) => {
      const { runCompareCommand } = await import('./commands/compare-command.js');
      exitCode = await runCompareCommand(paths, options, io);
    });

  withSummarizerOptions(withRunOptions(
    withStrategyOptions(
      program
        .command('compress')
        .description(
          'Compress one transcript with the named strategies in order, print the per-pass report with retention and validity, and write the result.',
        )
        .argument('<file>', 'a transcript file (file#<line> picks one session of a multi-session file)')
        .option('--strategy <names>', 'comma-separated strategy names, run in order')
        .option('--preset <name>', 'a preset (built-in, saved, or a .json file) instead of --strategy; see ctx presets'),
    ),
  ))
    .addOption(new Option('--epoch <which>', 'whole session, or what the model saw at the end').choices(['all', 'last']).default('all'))
    .option('--out <file>', 'write the compressed conversation here (a new file; never the input)')
    .addOption(
      new Option('--format <format>', 'format of --out (default: from its name: x.json is ctx, x.<format>.json that format)').choices(
        outputFormats,
      ),
    )
    .option('--force', 'replace an existing --out file', false)
    .option('--json', 'print the report as JSON', false)
    .option('--strict', 'fail (exit 1, compress and write nothing) when an input line is malformed, instead of warning', false)
    .action(async (file: string, options: Omit<CompressCommandOptions, 'strategies' | 'presets'> & { strategy?: string; preset?: string }) => {
      if ((options.strategy === undefined) === (options.preset === undefined)) {
        throw new UsageError(
          options.preset === undefined
            ? 'compress needs --strategy <names> or --preset <name> (see ctx strategies, ctx presets)'
            : 'use either --strategy or --preset, not both (a preset already names its strategies)',
        );
      }
      const { strategy, preset, ...rest } = options;
      const { runCompressCommand } = await import('./commands/compress-command.js');
      exitCode = await runCompressCommand(
        file,
        { ...rest, ...(strategy === undefined ? {} : { strategies: strategy }), ...(preset === undefined ? {} : { presets: preset }) },
        io,
      );
    });

  program
    .command('inspect')
    .description('Show what transcripts contain: format, entries, tool calls by kind, tokens, epochs and compactions, orphans, sidechains, files read and written.')
    .argument('<paths...>', 'transcript files or directories')
    .addOption(new Option('--tokenizer <name>', 'tokenizer').choices(tokenizerNames).default('gpt-tokenizer'))
    .option('--json', 'print JSON: one object per transcript', false)
    .option('--strict', 'exit 1 when an input line is malformed (the report is still printed)', false)
    .action(async (paths: string[], options: { json: boolean; tokenizer: TokenizerName; strict: boolean }) => {
      const { runInspectCommand } = await import('./commands/inspect-command.js');
      exitCode = await runInspectCommand(paths, options, io);
    });

  withStrategyOptions(
    program
      .command('cost')
      .description(
        'What recorded Claude Code sessions cost per model (each API call counted once, as ccusage counts it), and what they would have cost with each deterministic strategy or preset, replayed turn by turn with prompt caching.',
      )
      .argument('<sessions...>', 'Claude Code session files (subagent files too) or directories of them')
      .option('--strategies <names>', 'comma-separated strategy names (default: every known strategy, or none with --presets)')
      .option('--presets <names>', 'comma-separated presets (built-in, saved, or .json files)'),
  )
    .option('--window <tokens>', "the model's context window (default: 200,000)", parseWindowOption)
    .option('--json', 'print the report as JSON', false)
    .option('--no-cache-aware', 'skip the second replay with cache-aware planning (compactions that do not pay for their cache rewrite declined)')
    .option('--condensing-models <ids>', 'Anthropic models to price one compaction of each LLM strategy with, besides the session\'s own (default: claude-haiku-4-5)')
    .action(async (paths: string[], options: CostCommandOptions) => {
      const { runCostCommand } = await import('./commands/cost-command.js');
      exitCode = await runCostCommand(paths, options, io);
    });

  withStrategyOptions(
    program
      .command('bench')
      .description(
        "Replay the largest corpus sessions (or the given transcripts; the demo without either) entry by entry through the history service and orchestrator with every mechanical strategy and preset; print issue 18's figures (replay ÷ one tokenization pass, per-turn p50/p99, the AI SDK middleware per call, characters tokenized, optimize and compress, one more turn at 150/300/600 entries, cold CLI, memory), each beside its goal.",
      )
      .argument('[paths...]', 'transcript files or directories (default: the largest sessions of ../shared/corpus or CTX_CORPUS)')
      .option('--strategies <names>', 'comma-separated strategy names (default: every known strategy, or none with --presets)')
      .option('--presets <names>', 'comma-separated presets (default: every built-in one, or none with --strategies)'),
  )
    .option('--sessions <count>', 'how many sessions, largest first (default: 3; 1 with --quick)', parseSessionsOption)
    .option('--runs <count>', 'timed runs of each replay, call and cold process; the median is reported (default: 3; 1 with --quick)', parseRunsOption)
    .option('--window <tokens>', "the replays' context window (default: each session's own size in tokens, at most 200,000)", parseWindowOption)
    .option('--quick', 'one session, one run of each measure and a short warm-up: a smoke run', false)
    .option('--only <parts>', `measure only these parts of the run, comma-separated: ${benchParts.join(', ')} (default: all)`, parseOnlyOption)
    .option('--json', 'print the report as JSON', false)
    .action(async (paths: string[], options: BenchCommandOptions) => {
      const { runBenchCommand } = await import('./commands/bench-command.js');
      exitCode = await runBenchCommand(paths, options, io);
    });

  program
    .command('strategies')
    .description('List the known strategies (built in, and --plugin ones).')
    .option('--plugin <module>', 'also load strategies from a module path or installed package (repeatable)', collect, [])
    .option('--json', 'print JSON', false)
    .action(async (options: { json: boolean; plugin: string[] }) => {
      const { runStrategiesCommand } = await import('./commands/strategies-command.js');
      exitCode = await runStrategiesCommand(options, io);
    });

  withStrategyOptions(
    program
      .command('conformance')
      .description('Run the conformance kit on every known strategy (or the named ones).')
      .option('--strategies <names>', 'comma-separated strategy names (default: all)'),
  )
    .option('--json', 'print JSON', false)
    .action(async (options: StrategyCommandOptions & { json: boolean }) => {
      const { runConformanceCommand } = await import('./commands/conformance-command.js');
      exitCode = await runConformanceCommand(options, io);
    });

  program
    .command('stress')
    .description(
      "Play spec 002's stress scenarios (and tool outputs of 1×, 2×, 5× the window) through the real orchestrator with every strategy and fallback chain; the simulated provider counts ratio × our tokens. Prints compactions, largest request, overflows, loops and typed cannot-fit per cell; exits 1 on any overflow or loop.",
    )
    .option('--scenarios <names>', 'comma-separated parts of scenario names, e.g. 8k,GiantOutput (default: all)')
    .option('--chains <chains>', 'comma-separated chains, strategies joined with ">", e.g. high-density>sliding-window,lossless (default: 9 chains)')
    .addOption(new Option('--tokenizer <name>', 'tokenizer').choices(tokenizerNames).default('gpt-tokenizer'))
    .option('--json', 'print the matrix as JSON', false)
    .action(async (options: StressCommandOptions) => {
      const { runStressCommand } = await import('./commands/stress-command.js');
      exitCode = await runStressCommand(options, io);
    });

  program
    .command('serve')
    .description(
      'Open the playground in the browser: load a transcript (or a recent Claude Code session), pick strategies, presets and settings, and see tokens per turn, what each strategy kept, replaced and removed, retention, validity, cost and time.',
    )
    .option('--port <port>', 'port on 127.0.0.1 (default: 0, any free port; the address is printed)')
    .option('--plugin <module>', 'also offer strategies from a module path or installed package (repeatable)', collect, [])
    .option('--no-open', 'do not open the page in the browser')
    .action(async (options: { port?: string; plugin: string[]; open: boolean }) => {
      const { runServeCommand } = await import('./commands/serve-command.js');
      exitCode = await runServeCommand(options, io);
    });

  program
    .command('proxy')
    .description(
      'Run a compressing proxy in front of an Anthropic Messages or OpenAI Chat Completions API: every request is kept inside the model\'s window by a preset, per conversation, without breaking the prompt cache between compactions; everything else is forwarded unchanged. Point Claude Code at it with ANTHROPIC_BASE_URL.',
    )
    .requiredOption('--upstream <url>', "the provider's base URL, e.g. https://api.anthropic.com or https://api.openai.com")
    .option('--preset <name>', 'a mechanical preset: coding-agent, speed, balanced, or a .json file (default: coding-agent)')
    .option('--port <port>', 'port to listen on (default: 8787; 0 picks a free one)')
    .option('--host <host>', 'address to listen on (default: 127.0.0.1; anything else exposes your keys to the network and prints a warning)')
    .option('--window <tokens>', "the model's context window (default: looked up from the request's model)")
    .option('--stateless', 'keep no conversation state: compress every request from scratch (breaks the prompt cache more often)', false)
    .option('--no-cache-aware', 'apply every compaction, even one whose saving does not pay for the prompt-cache writes it causes')
    .option('--max-body <bytes>', 'largest request body accepted, else 413 (default: 33554432)')
    .option('--timeout <ms>', "how long to wait for the upstream's response headers, else 504 (default: 600000)")
    .option('--max-conversations <count>', 'conversations kept in memory, least recently used forgotten first (default: 256)')
    .action(async (options: unknown) => {
      const { runProxyCommand } = await import('./commands/proxy-command.js');
      // Commander's parsed options are the command's options as declared above.
      exitCode = await runProxyCommand(options as Parameters<typeof runProxyCommand>[0], io);
    });

  const presets = program
    .command('presets')
    .description('List, show, export and import presets: named pipelines of strategies with their settings.');
  presets
    .command('list', { isDefault: true })
    .description('List the built-in and saved presets.')
    .option('--json', 'print JSON', false)
    .action(async (options: { json: boolean }) => {
      const { runPresetsCommand } = await import('./commands/presets-command.js');
      exitCode = await runPresetsCommand({ action: 'list', json: options.json }, io);
    });
  presets
    .command('show')
    .description('Show a preset: what it does, its strategies in order with their settings, whether each is installed.')
    .argument('<name>', 'a preset name or a preset .json file')
    .option('--json', 'print the preset as JSON', false)
    .action(async (name: string, options: { json: boolean }) => {
      const { runPresetsCommand } = await import('./commands/presets-command.js');
      exitCode = await runPresetsCommand({ action: 'show', name, json: options.json }, io);
    });
  presets
    .command('export')
    .description('Print a preset as JSON (or write it to a file), to edit it or share it.')
    .argument('<name>', 'a preset name')
    .option('--out <file>', 'write it here instead of printing it (never over an existing file without --force)')
    .option('--force', 'replace an existing --out file', false)
    .action(async (name: string, options: { out?: string; force: boolean }) => {
      const { runPresetsCommand } = await import('./commands/presets-command.js');
      exitCode = await runPresetsCommand({ action: 'export', name, ...options }, io);
    });
  presets
    .command('import')
    .description('Validate a preset .json file and save it, so --preset and --presets find it by name.')
    .argument('<file>', 'the preset .json file')
    .option('--name <name>', 'save it under this name instead of the one in the file')
    .option('--force', 'replace a saved preset of the same name', false)
    .action(async (file: string, options: { name?: string; force: boolean }) => {
      const { runPresetsCommand } = await import('./commands/presets-command.js');
      exitCode = await runPresetsCommand({ action: 'import', file, ...options }, io);
    });

  program
    .command('settings')
    .description('List the compression.* settings with their defaults.')
    .option('--json', 'print JSON', false)
    .action(async (options: { json: boolean }) => {
      const { runSettingsCommand } = await import('./commands/settings-command.js');
      exitCode = runSettingsCommand(options, io);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportCliError(error, { io, debug: isDebugRequested(argv) });
  }
}
