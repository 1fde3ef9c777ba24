/** One word of a shell command after quote removal. */
export interface ShellWord {
  /** The word with quotes removed; expansions (`$X`, `$(…)`, `` `…` ``) are kept as written. */
  readonly text: string;
  /** True when the word holds an expansion, so its value is unknown without running the shell. */
  readonly dynamic: boolean;
  /** True when the word holds an unquoted glob character (`*`, `?`, `[`). */
  readonly glob: boolean;
}

/** Redirection operators, as written. */
export type ShellRedirectOperator =
  | '<'
  | '>'
  | '>>'
  | '>|'
  | '<>'
  | '&>'
  | '&>>'
  | '>&'
  | '<&'
  | '<<'
  | '<<-'
  | '<<<';

/** A redirection such as `> out.txt`, `2>&1`, `< in.txt` or a here-document. */
export interface ShellRedirect {
  /** The explicit file descriptor (`2` in `2>file`), if written. */
  readonly fd?: number;
  readonly operator: ShellRedirectOperator;
  /** The file, descriptor, here-document delimiter or here-string. */
  readonly target?: ShellWord;
  /** The body of a here-document (`<<EOF … EOF`): content, never commands. */
  readonly heredoc?: string;
}

/** One simple command: its words (name first) and redirections. */
export interface ShellSimpleCommand {
  readonly words: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
}

/**
 * A flat view of a command line: pipelines in order (separated by `;`, `&&`, `||`, `&` or newlines), and the
 * boundaries of `( … )` subshells, whose `cd` does not outlive them.
 */
export type ShellItem =
  | { readonly type: 'pipeline'; readonly commands: readonly ShellSimpleCommand[] }
  | { readonly type: 'subshell-start' }
  | { readonly type: 'subshell-end' };

interface MutableRedirect {
  fd?: number;
  operator: ShellRedirectOperator;
  target?: ShellWord;
  heredoc?: string;
}

const redirectPattern = /(\d*)(&>>|&>|<<<|<<-|<<|<>|<&|>>|>\||>&|<|>)/y;

/** A table over ASCII code units: 1 for the characters listed. */
function asciiTable(characters: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let index = 0; index < characters.length; index++) table[characters.charCodeAt(index)] = 1;
  return table;
}

/** Blanks between words (a line break ends a command instead). */
const blankCharacters = ' \t\r';
/** What ends an unquoted word: blanks, a line break, and the operators `;`, `&`, `|`, `(`, `)`, `<`, `>`. */
const wordEndCharacters = `${blankCharacters}\n;&|()<>`;
const blanks = asciiTable(blankCharacters);
const wordEnds = asciiTable(wordEndCharacters);

/** Whether the one-character string (or the end of the input, undefined) is listed in `table`. */
function isIn(table: Uint8Array, character: string | undefined): boolean {
  if (character === undefined) return false;
  const code = character.charCodeAt(0);
  return code < 128 && table[code] === 1;
}

function isBlank(character: string | undefined): boolean {
  return isIn(blanks, character);
}

/** Whether `character` ends an unquoted word (the end of the input does too). */
function endsWord(character: string | undefined): boolean {
  return character === undefined || isIn(wordEnds, character);
}

/** An unquoted `*`, `?` or `[` makes a word a glob. */
const globCharacter = /[*?[]/;

/*
 * The parser jumps from one character that matters to the next with a regular expression search instead of reading
 * every character: it runs once per tool call, so in an agent process its code is seldom optimized, and a loop over
 * characters in unoptimized code costs several times what the engine's compiled search does (classifying the shell
 * commands of the largest Claude Code session of the corpus took about a quarter less time unoptimized, and no more
 * once optimized).
 */

/** What a run of plain characters inside double quotes stops at: a double quote, a backslash, `$`, a backtick. */
const specialInDoubleQuotes = /["\\$`]/g;
/**
 * What a run of plain characters outside quotes stops at: what ends a word (blanks, a line break, `;&|()<>`), quotes,
 * escapes, expansions.
 */
const specialOutsideQuotes = /[ \t\r\n;&|()<>'"\\$`]/g;
/** What matters inside a `$( … )`: escapes, quotes, parentheses. */
const specialInSubstitution = /[\\'"()]/g;
/** What ends a double-quoted string, or is escaped in it. */
const doubleQuoteEnd = /[\\"]/g;
/** What ends a backtick substitution, or is escaped in it. */
const backtickEnd = /[\\`]/g;

/** The first position from `start` where `pattern` (global) matches; the input's length when it does not. */
function findNext(source: string, start: number, pattern: RegExp): number {
  pattern.lastIndex = start;
  const found = pattern.exec(source);
  return found === null ? source.length : found.index;
}

const digitZero = 48;
const digitNine = 57;
const ampersand = 38;
const lessThan = 60;
const greaterThan = 62;

/** Whether a redirection (`2>`, `&>`, `<<`, `>` …) can start with this code unit: a digit, `&`, `<` or `>`. */
function mayStartRedirect(code: number): boolean {
  return (code >= digitZero && code <= digitNine) || code === ampersand || code === lessThan || code === greaterThan;
}

/**
 * A small, total parser for the shell commands agents run: it splits a command line into pipelines and simple
 * commands, removes quotes, keeps redirections and here-document bodies apart from the commands, and never throws
 * (unbalanced quotes run to the end of the input). It does not expand anything: words that need expansion are
 * marked `dynamic`. Linear in the length of the input.
 */
export function parseShellCommand(source: string): ShellItem[] {
  const items: ShellItem[] = [];
  let pipeline: ShellSimpleCommand[] = [];
  let words: ShellWord[] = [];
  let redirects: MutableRedirect[] = [];
  let pendingHeredocs: MutableRedirect[] = [];
  let index = 0;
  const length = source.length;

  const endCommand = () => {
    if (words.length > 0 || redirects.length > 0) pipeline.push({ words, redirects });
    words = [];
    redirects = [];
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length > 0) items.push({ type: 'pipeline', commands: pipeline });
    pipeline = [];
  };

  /** Index just after the `)` matching the `(` at `start`, honouring quotes; the input's end if unbalanced. */
  const skipBalanced = (start: number): number => {
    let depth = 0;
    let position = start;
    while (position < length) {
      // Straight to the next character that matters (a command substitution can hold a long commit message).
      position = findNext(source, position, specialInSubstitution);
      if (position >= length) break;
      const character = source[position];
      if (character === '\\') {
        position += 2;
        continue;
      }
      if (character === "'") {
        const close = source.indexOf("'", position + 1);
        position = close === -1 ? length : close + 1;
        continue;
      }
      if (character === '"') {
        position = skipDoubleQuoted(position + 1);
        continue;
      }
      if (character === '(') depth++;
      else if (character === ')') {
        depth--;
        if (depth === 0) return position + 1;
      }
      position++;
    }
    return length;
  };

  /** Index just after the `"` closing a double-quoted string whose content starts at `start`. */
  const skipDoubleQuoted = (start: number): number => {
    let position = start;
    while (position < length) {
      position = findNext(source, position, doubleQuoteEnd);
      if (position >= length) break;
      if (source[position] === '\\') position += 2;
      else return position + 1;
    }
    return length;
  };

  /** Index just after the backtick closing a command substitution whose content starts at `start`. */
  const skipBacktick = (start: number): number => {
    let position = start;
    while (position < length) {
      position = findNext(source, position, backtickEnd);
      if (position >= length) break;
      if (source[position] === '\\') position += 2;
      else return position + 1;
    }
    return length;
  };

  const readWord = (): ShellWord => {
    // Concatenated, not joined: most words are one piece, which then costs nothing.
    let text = '';
    let dynamic = false;
    let glob = false;
    while (index < length && !endsWord(source[index])) {
      const character = source[index] as string;
      if (character === "'") {
        const close = source.indexOf("'", index + 1);
        const end = close === -1 ? length : close;
        text += source.slice(index + 1, end);
        index = end + 1;
      } else if (character === '"') {
        index++;
        while (index < length && source[index] !== '"') {
          const inner = source[index] as string;
          if (inner === '\\') {
            const next = source[index + 1];
            if (next === '\n') index += 2;
            else if (next === '"' || next === '\\' || next === '$' || next === '`') {
              text += next;
              index += 2;
            } else {
              text += inner;
              index++;
            }
          } else if (inner === '$' && source[index + 1] === '(') {
            dynamic = true;
            const end = skipBalanced(index + 1);
            text += source.slice(index, end);
            index = end;
          } else if (inner === '`') {
            dynamic = true;
            const end = skipBacktick(index + 1);
            text += source.slice(index, end);
            index = end;
          } else if (inner === '$') {
            if (/[A-Za-z_{@*#?$!0-9-]/.test(source[index + 1] ?? '')) dynamic = true;
            text += inner;
            index++;
          } else {
            // A run of characters that mean nothing inside double quotes, taken whole (a script passed to `-c` can be
            // kilobytes long).
            const end = findNext(source, index + 1, specialInDoubleQuotes);
            text += source.slice(index, end);
            index = end;
          }
        }
        index++;
      } else if (character === '\\') {
        const next = source[index + 1];
        if (next !== '\n' && next !== undefined) text += next;
        index += 2;
      } else if (character === '$') {
        const next = source[index + 1];
        if (next === '(') {
          dynamic = true;
          const end = skipBalanced(index + 1);
          text += source.slice(index, end);
          index = end;
        } else if (next === "'") {
          // ANSI-C quoting: $'…' with backslash escapes; the value is literal.
          let position = index + 2;
          while (position < length && source[position] !== "'") {
            if (source[position] === '\\') {
              const escaped = source[position + 1] ?? '';
              text += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
              position += 2;
            } else {
              text += source[position] as string;
              position++;
            }
          }
          index = position + 1;
        } else if (next === '{') {
          dynamic = true;
          const close = source.indexOf('}', index + 2);
          const end = close === -1 ? length : close + 1;
          text += source.slice(index, end);
          index = end;
        } else {
          if (next !== undefined && /[A-Za-z_@*#?$!0-9-]/.test(next)) dynamic = true;
          text += character;
          index++;
        }
      } else if (character === '`') {
        dynamic = true;
        const end = skipBacktick(index + 1);
        text += source.slice(index, end);
        index = end;
      } else {
        // A run of plain characters, taken whole.
        const end = findNext(source, index + 1, specialOutsideQuotes);
        const run = source.slice(index, end);
        glob ||= globCharacter.test(run);
        text += run;
        index = end;
      }
    }
    return { text, dynamic, glob };
  };

  const readHeredocBodies = () => {
    for (const heredoc of pendingHeredocs) {
      const delimiter = heredoc.target?.text ?? '';
      const stripTabs = heredoc.operator === '<<-';
      const lines: string[] = [];
      let closed = false;
      while (index < length) {
        const newline = source.indexOf('\n', index);
        const end = newline === -1 ? length : newline;
        const rawLine = source.slice(index, end);
        index = end + 1;
        const unindented = stripTabs ? rawLine.replace(/^\t+/, '') : rawLine;
        const line = unindented.endsWith('\r') ? unindented.slice(0, -1) : unindented;
        if (line === delimiter) {
          closed = true;
          break;
        }
        lines.push(rawLine);
      }
      if (!closed) index = length;
      heredoc.heredoc = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    }
    pendingHeredocs = [];
  };

  const skipBlanks = () => {
    while (index < length && isBlank(source[index])) index++;
  };

  while (index < length) {
    const character = source[index];
    if (isBlank(character)) {
      index++;
      continue;
    }
    if (character === '\\' && source[index + 1] === '\n') {
      index += 2;
      continue;
    }
    if (character === '\n') {
      endPipeline();
      index++;
      if (pendingHeredocs.length > 0) readHeredocBodies();
      continue;
    }
    if (character === '#') {
      const newline = source.indexOf('\n', index);
      index = newline === -1 ? length : newline;
      continue;
    }
    if (character === ';') {
      endPipeline();
      index++;
      continue;
    }
    if (character === '|') {
      if (source[index + 1] === '|') {
        endPipeline();
        index += 2;
      } else {
        endCommand();
        index += source[index + 1] === '&' ? 2 : 1;
      }
      continue;
    }
    if (character === '&' && source[index + 1] !== '>') {
      endPipeline();
      index += source[index + 1] === '&' ? 2 : 1;
      continue;
    }
    if (character === '(') {
      if (source[index + 1] === '(') {
        // Arithmetic `(( … ))`: no command, no file.
        endPipeline();
        index = skipBalanced(index);
        continue;
      }
      endPipeline();
      items.push({ type: 'subshell-start' });
      index++;
      continue;
    }
    if (character === ')') {
      endPipeline();
      items.push({ type: 'subshell-end' });
      index++;
      continue;
    }

    let redirect: RegExpExecArray | null = null;
    if (mayStartRedirect(source.charCodeAt(index))) {
      redirectPattern.lastIndex = index;
      redirect = redirectPattern.exec(source);
    }
    const processSubstitution =
      redirect !== null &&
      redirect[1] === '' &&
      (redirect[2] === '<' || redirect[2] === '>') &&
      source[index + 1] === '(';
    if (redirect !== null && !processSubstitution) {
      index = redirectPattern.lastIndex;
      const operator = redirect[2] as ShellRedirectOperator;
      const parsed: MutableRedirect = { operator };
      if (redirect[1] !== '') parsed.fd = Number(redirect[1]);
      skipBlanks();
      if (!endsWord(source[index])) parsed.target = readWord();
      if (operator === '<<' || operator === '<<-') pendingHeredocs.push(parsed);
      redirects.push(parsed);
      continue;
    }
    if (processSubstitution) {
      const end = skipBalanced(index + 1);
      words.push({ text: source.slice(index, end), dynamic: true, glob: false });
      index = end;
      continue;
    }
    words.push(readWord());
  }
  endPipeline();
  return items;
}
