import { CtxError } from '@ctx/core';

/** Where the CLI writes; tests capture it. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The width of the terminal stdout goes to; undefined when it is not a terminal (text is then wrapped at 80). */
  readonly columns?: number | undefined;
}

let quietOnClosedPipe = false;

/**
 * `ctx … | head` closes stdout early: stop quietly, as other command-line tools do, instead of crashing with a stack
 * trace of the failed write.
 */
function stopQuietlyWhenStdoutCloses(): void {
  if (quietOnClosedPipe) return;
  quietOnClosedPipe = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

/** The process's own streams. */
export const processIo: CliIo = {
  stdout: (text) => {
    stopQuietlyWhenStdoutCloses();
    process.stdout.write(`${text}\n`);
  },
  stderr: (text) => process.stderr.write(`${text}\n`),
  get columns() {
    return process.stdout.isTTY ? process.stdout.columns : undefined;
  },
};

const cliErrorMarker = 'ctx.error.CliError';
const cliErrorSymbol = Symbol.for(cliErrorMarker);

/**
 * Input that cannot be used, or a run that cannot go on (an unreadable file, a broken plugin, an `--out` that is
 * refused): printed as one line, exit code 1. Its message says what was expected and what was found.
 */
export class CliError extends CtxError {
  private readonly [cliErrorSymbol] = true;

  /**
   * @param message - One line: what was expected, what was found, and the fix.
   * @param options - `cause`: the underlying error, shown with `--debug`.
   */
  constructor(message: string, options?: { cause?: unknown; name?: string }) {
    super({ name: options?.name ?? 'CliError', message, cause: options?.cause });
  }

  /** Returns true when `error` is a `CliError` (a `UsageError` included) from any copy of the playground. */
  static override isInstance(error: unknown): error is CliError {
    return CtxError.hasMarker(error, cliErrorMarker);
  }
}
