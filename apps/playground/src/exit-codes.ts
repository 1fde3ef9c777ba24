/**
 * The exit codes of `ctx`, one meaning each. Scripts can tell "fix the command line" (2) from "the run found a
 * problem" (1).
 */
export const exitCodes = {
  /** Everything ran and every check passed. */
  success: 0,
  /**
   * A check failed (a strategy made a request invalid, conformance or stress found a defect), input could not be used
   * (a transcript, `--config` file or plugin; an `--out` target that is refused), or a strategy failed.
   */
  failure: 1,
  /**
   * A usage error: nothing ran. An unknown command or option, a missing argument, a value that is not one of the
   * option's choices, a number that is not a number, not whole where it must be, or out of its range, an empty or
   * unknown strategy, scenario or chain name, a `--set` that is not `<strategy>.<option>=<value>`.
   */
  usage: 2,
} as const;

/** The exit-code table printed at the end of `ctx --help` (lines within 80 columns). */
export const exitCodesHelp = `
Exit codes:
  0  success: everything ran and every check passed
  1  a check failed, input could not be used (a transcript, --config file,
     plugin or --out target), or a strategy failed
  2  usage error, nothing ran: unknown command or option, missing argument,
     invalid choice; a number that is not one, not whole or out of range; an
     empty or unknown strategy, scenario or chain name; a malformed --set

Errors are one line on stderr ("ctx: ..."); --debug (before or after the
command) or CTX_DEBUG=1 adds the stack trace.`;
