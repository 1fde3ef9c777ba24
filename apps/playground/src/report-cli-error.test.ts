import { CommanderError } from 'commander';
import { InvalidStrategySettingsError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli-io.js';
import { isDebugRequested, reportCliError } from './report-cli-error.js';
import { UsageError } from './usage-error.js';

function report(error: unknown, debug = false): { code: number; lines: string[] } {
  const lines: string[] = [];
  const code = reportCliError(error, { io: { stdout: () => undefined, stderr: (text) => lines.push(...text.split('\n')) }, debug });
  return { code, lines };
}

describe('reportCliError', () => {
  it('should print a usage error in one line and return 2', () => {
    expect(report(new UsageError('--runs expects a whole number from 1 to 100, got 0'))).toEqual({
      code: 2,
      lines: ['ctx: --runs expects a whole number from 1 to 100, got 0'],
    });
  });

  it('should print a user error in one line, control characters escaped, and return 1', () => {
    expect(report(new CliError('bad.json: not valid JSON near "\u001b[2J"\nsecond line'))).toEqual({
      code: 1,
      lines: ['ctx: bad.json: not valid JSON near "\\x1b[2J" second line'],
    });
    const settings = new InvalidStrategySettingsError({ strategyName: 'x', issues: [] });
    expect(report(settings).code).toBe(1);
  });

  it('should print an operating-system error in one line without calling it a bug', () => {
    const error = Object.assign(new Error("EACCES: permission denied, open 'x'"), { code: 'EACCES', syscall: 'open' });
    expect(report(error)).toEqual({ code: 1, lines: ["ctx: EACCES: permission denied, open 'x'"] });
  });

  it('should call any other error a bug, in one line plus the --debug hint, never with its stack', () => {
    expect(report(new TypeError("Cannot read properties of undefined (reading 'length')"))).toEqual({
      code: 1,
      lines: [
        "ctx: unexpected error (a bug in ctx): TypeError: Cannot read properties of undefined (reading 'length')",
        'ctx: run again with --debug for the stack trace',
      ],
    });
  });

  it('should add the stack of the error and of its causes with debug', () => {
    const { lines } = report(new CliError('--plugin x: importing x failed', { cause: new RangeError('inner') }), true);
    expect(lines[0]).toBe('ctx: --plugin x: importing x failed');
    expect(lines[1]).toBe('CliError: --plugin x: importing x failed');
    expect(lines[2]).toMatch(/^\s+at /);
    expect(lines).toContain('Caused by:');
    expect(lines).toContain('RangeError: inner');
  });

  it('should return 0 for help and version, and 2 for the usage errors commander has printed', () => {
    expect(report(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toEqual({ code: 0, lines: [] });
    expect(report(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"))).toEqual({ code: 2, lines: [] });
  });
});

describe('isDebugRequested', () => {
  it('should see --debug anywhere before --, and CTX_DEBUG unless empty or 0', () => {
    expect(isDebugRequested(['compare', '--debug'], {})).toBe(true);
    expect(isDebugRequested(['compare', '--', '--debug'], {})).toBe(false);
    expect(isDebugRequested(['compare'], { CTX_DEBUG: '1' })).toBe(true);
    expect(isDebugRequested(['compare'], { CTX_DEBUG: '0' })).toBe(false);
    expect(isDebugRequested(['compare'], { CTX_DEBUG: '' })).toBe(false);
  });
});
