import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShellCommand, type ShellItem } from './parse-shell-command.js';

/** The words of every command, pipeline by pipeline. */
function words(items: readonly ShellItem[]): string[][][] {
  return items.flatMap((item) => (item.type === 'pipeline' ? [item.commands.map((command) => command.words.map((word) => word.text))] : []));
}

describe('parseShellCommand', () => {
  it('should split pipelines on ;, &&, ||, & and newlines, and commands on pipes', () => {
    expect(words(parseShellCommand('a 1; b && c || d & e\nf | g |& h'))).toEqual([
      [['a', '1']],
      [['b']],
      [['c']],
      [['d']],
      [['e']],
      [['f'], ['g'], ['h']],
    ]);
  });

  it('should remove single quotes, double quotes and backslash escapes', () => {
    expect(words(parseShellCommand(`echo 'a b' "c \\"d\\"" e\\ f $'g\\nh'`))).toEqual([[['echo', 'a b', 'c "d"', 'e f', 'g\nh']]]);
  });

  it('should mark words holding expansions as dynamic and unquoted glob characters as globs', () => {
    const [item] = parseShellCommand(`cat $FILE "$(pwd)/x" '$literal' *.py '*.md'`);
    const command = item?.type === 'pipeline' ? item.commands[0] : undefined;
    expect(command?.words.map((word) => [word.dynamic, word.glob])).toEqual([
      [false, false],
      [true, false],
      [true, false],
      [false, false],
      [false, true],
      [false, false],
    ]);
  });

  it('should find a glob character anywhere in a word, and none inside double quotes', () => {
    const [item] = parseShellCommand(`ls src/lib/a[12].ts notes/draft "report*final?" long-name-with-a-star-at-the-end*`);
    const command = item?.type === 'pipeline' ? item.commands[0] : undefined;
    expect(command?.words.map((word) => [word.text, word.glob])).toEqual([
      ['ls', false],
      ['src/lib/a[12].ts', true],
      ['notes/draft', false],
      ['report*final?', false],
      ['long-name-with-a-star-at-the-end*', true],
    ]);
  });

  it('should keep a long double-quoted script whole, its expansions dynamic', () => {
    const script = `import os\nprint(os.environ["HOME"])\n`.repeat(50);
    const [item] = parseShellCommand(`python3 -c "${script.replaceAll('"', '\\"')}" && echo "home: $HOME (\\$ literal)"`);
    expect(item?.type === 'pipeline' ? item.commands[0]?.words.map((word) => word.text) : undefined).toEqual(['python3', '-c', script]);
    const [, echo] = parseShellCommand(`python3 -c "x" && echo "home: $HOME (\\$ literal)"`);
    expect(echo?.type === 'pipeline' ? echo.commands[0]?.words.map((word) => [word.text, word.dynamic]) : undefined).toEqual([
      ['echo', false],
      ['home: $HOME ($ literal)', true],
    ]);
  });

  it('should keep here-document bodies as content, never as commands', () => {
    const items = parseShellCommand("cat > f.ts <<'EOF'\nrm -rf / && echo $HOME\nEOF\nls");
    expect(words(items)).toEqual([[['cat']], [['ls']]]);
    const first = items[0];
    const redirects = first?.type === 'pipeline' ? first.commands[0]?.redirects : undefined;
    expect(redirects).toEqual([
      { operator: '>', target: { text: 'f.ts', dynamic: false, glob: false } },
      { operator: '<<', target: { text: 'EOF', dynamic: false, glob: false }, heredoc: 'rm -rf / && echo $HOME\n' },
    ]);
  });

  it('should strip leading tabs before the delimiter of <<-', () => {
    const [item] = parseShellCommand('cat <<-END\n\tbody\n\tEND\n');
    expect(item?.type === 'pipeline' ? item.commands[0]?.redirects[0]?.heredoc : undefined).toBe('\tbody\n');
  });

  it('should read redirections with descriptors, duplications and appends', () => {
    const [item] = parseShellCommand('make 2>&1 >> log.txt 2>/dev/null < in.txt &> all.txt');
    const redirects = item?.type === 'pipeline' ? item.commands[0]?.redirects : [];
    expect(redirects?.map((redirect) => [redirect.fd, redirect.operator, redirect.target?.text])).toEqual([
      [2, '>&', '1'],
      [undefined, '>>', 'log.txt'],
      [2, '>', '/dev/null'],
      [undefined, '<', 'in.txt'],
      [undefined, '&>', 'all.txt'],
    ]);
  });

  it('should mark subshell boundaries', () => {
    expect(parseShellCommand('(cd a && b); c').map((item) => item.type)).toEqual([
      'subshell-start',
      'pipeline',
      'pipeline',
      'subshell-end',
      'pipeline',
    ]);
  });

  it('should skip comments and join continued lines', () => {
    expect(words(parseShellCommand('# note\nsed -i x \\\n  f.py # trailing'))).toEqual([[['sed', '-i', 'x', 'f.py']]]);
  });

  it('should keep command substitutions with nested quotes and parentheses in one word', () => {
    expect(words(parseShellCommand(`git commit -m "$(cat <<'EOF'\nfix (x)\nEOF\n)"`))[0]?.[0]?.length).toBe(4);
  });

  it('should run an unterminated quote to the end of the input', () => {
    expect(words(parseShellCommand("echo 'never closed; rm x"))).toEqual([[['echo', 'never closed; rm x']]]);
  });

  it('should never throw', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', "'", '"', '\\', '$', '(', ')', '<', '>', '|', '&', ';', '\n', '`', '#', '-', '{', '}') }), (source) => {
        expect(() => parseShellCommand(source)).not.toThrow();
      }),
    );
  });
});
