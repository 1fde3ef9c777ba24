import type { ShellWord } from './parse-shell-command.js';

/** Which options of a command take a value. */
export interface OptionSpec {
  /** Short option letters that take a value (`n` for `head -n 5`, `-n5`). */
  readonly shortWithValue?: string;
  /** Long option names that take a value when written without `=` (`lines` for `--lines 5`). */
  readonly longWithValue?: readonly string[];
  /** `-20` means `-n 20` (head, tail). */
  readonly numericShorthand?: boolean;
}

/** A command's options and operands, split the way getopt would. */
export interface ParsedOptions {
  /** Option name (letter or long name) → its last value, or `true`. */
  readonly options: ReadonlyMap<string, string | true>;
  /** Every value of options given more than once (`-e a -e b`). */
  readonly repeated: ReadonlyMap<string, readonly string[]>;
  readonly operands: readonly ShellWord[];
}

/**
 * Splits arguments into options and operands: clusters (`-rn`), attached values (`-n5`, `--lines=5`), detached
 * values for the options `spec` names, and `--` ending the options. Options may follow operands (GNU style).
 */
export function parseCommandOptions(args: readonly ShellWord[], spec: OptionSpec = {}): ParsedOptions {
  const options = new Map<string, string | true>();
  const repeated = new Map<string, string[]>();
  const operands: ShellWord[] = [];
  const shortWithValue = spec.shortWithValue ?? '';
  // A few names at most: searched in place rather than copied into a set on every call.
  const longWithValue = spec.longWithValue ?? [];
  const set = (name: string, value: string | true) => {
    options.set(name, value);
    if (typeof value === 'string') repeated.set(name, [...(repeated.get(name) ?? []), value]);
  };
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    const text = word.text;
    if (text === '--') {
      for (const operand of args.slice(index + 1)) operands.push(operand);
      break;
    }
    if (text.startsWith('--') && text.length > 2) {
      const equals = text.indexOf('=');
      if (equals !== -1) set(text.slice(2, equals), text.slice(equals + 1));
      else if (longWithValue.includes(text.slice(2)) && index + 1 < args.length) {
        set(text.slice(2), (args[index + 1] as ShellWord).text);
        index++;
      } else set(text.slice(2), true);
      continue;
    }
    if (text.startsWith('-') && text.length > 1) {
      if (spec.numericShorthand === true && /^-\d+$/.test(text)) {
        set('n', text.slice(1));
        continue;
      }
      for (let position = 1; position < text.length; position++) {
        const letter = text[position] as string;
        if (!shortWithValue.includes(letter)) {
          set(letter, true);
          continue;
        }
        const attached = text.slice(position + 1);
        if (attached !== '') set(letter, attached);
        else if (index + 1 < args.length) {
          set(letter, (args[index + 1] as ShellWord).text);
          index++;
        } else set(letter, true);
        break;
      }
      continue;
    }
    operands.push(word);
  }
  return { options, repeated, operands };
}
