import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CtxError } from '@ctx/core';
import { CliError, processIo, type CliIo } from './cli-io.js';
import { runCompareCommand } from './commands/compare-command.js';
import { runConformanceCommand } from './commands/conformance-command.js';
import { runInspectCommand } from './commands/inspect-command.js';
import { runSettingsCommand } from './commands/settings-command.js';
import { runStrategiesCommand } from './commands/strategies-command.js';
import { TranscriptLoadError } from './read-transcripts.js';
import { tokenizerNames, type TokenizerName } from './tokenizers.js';

function parseNumber(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new InvalidArgumentError(`expected a number, got "${value}"`);
  return parsed;
}

/**
 * Runs the `ctx` command line and returns the exit code: 0 on success, 1 when a check failed or the input was
 * unreadable (one line on stderr), 2 for a usage error.
 *
 * @param argv - The arguments after `ctx`.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name('ctx')
    .description("Keep an agent's history inside the context window: compare strategies on real transcripts.")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text.trimEnd()),
      writeErr: (text) => io.stderr(text.trimEnd()),
    })
    .showHelpAfterError('(run ctx --help for usage)');

  program
    .command('compare')
    .description('Run each strategy on each transcript and print tokens before → after, reduction, pairing validity and time. Without a file: the built-in demo session.')
    .argument('[paths...]', 'transcript files or directories (Claude Code, trajectories, provider messages, ctx JSON)')
    .option('--strategies <names>', 'comma-separated strategy names (default: every installed strategy)')
    .option('--window <tokens>', "context window to compress for (default: the transcript's own size)", parseNumber)
    .option('--threshold <fraction>', "compression threshold in (0, 1] (default: each strategy's own)", parseNumber)
    .addOption(new Option('--tokenizer <name>', 'tokenizer').choices(tokenizerNames).default('gpt-tokenizer'))
    .option('--runs <count>', 'runs per strategy; the median time is reported', parseNumber, 3)
    .option('--json', 'print JSON instead of a table', false)
    .action(async (files: string[], options: { strategies?: string; window?: number; threshold?: number; tokenizer: TokenizerName; runs: number; json: boolean }) => {
      exitCode = await runCompareCommand(files, options, io);
    });

  program
    .command('inspect')
    .description('Show what transcripts contain: format, entries, tool calls by kind, tokens, epochs and compactions, orphans, sidechains, files read and written.')
    .argument('<paths...>', 'transcript files or directories')
    .addOption(new Option('--tokenizer <name>', 'tokenizer').choices(tokenizerNames).default('gpt-tokenizer'))
    .option('--json', 'print JSON: one object per transcript', false)
    .action(async (paths: string[], options: { json: boolean; tokenizer: TokenizerName }) => {
      exitCode = await runInspectCommand(paths, options, io);
    });

  program
    .command('strategies')
    .description('List the installed strategies.')
    .option('--json', 'print JSON', false)
    .action((options: { json: boolean }) => {
      exitCode = runStrategiesCommand(options, io);
    });

  program
    .command('conformance')
    .description('Run the conformance kit on every installed strategy.')
    .option('--strategies <names>', 'comma-separated strategy names (default: all)')
    .option('--json', 'print JSON', false)
    .action(async (options: { strategies?: string; json: boolean }) => {
      exitCode = await runConformanceCommand(options, io);
    });

  program
    .command('settings')
    .description('List the compression.* settings with their defaults.')
    .option('--json', 'print JSON', false)
    .action((options: { json: boolean }) => {
      exitCode = runSettingsCommand(options, io);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit with 0; usage errors were already printed by commander.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CliError || error instanceof TranscriptLoadError || CtxError.isInstance(error)) {
      io.stderr(`ctx: ${error.message.split('\n').join(' ')}`);
      return 1;
    }
    throw error;
  }
}
