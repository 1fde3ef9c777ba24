import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyShellCommand } from './classify-shell-command.js';

const workspaceRoot = '/repo';
const classify = (command: string, openFile?: string) =>
  classifyShellCommand(command, openFile === undefined ? { workspaceRoot } : { workspaceRoot, openFile });

describe('classifyShellCommand', () => {
  describe('reads', () => {
    it('should read whole files with cat, cat -n and nl -ba', () => {
      for (const command of ['cat src/a.ts', 'cat -n src/a.ts', 'nl -ba src/a.ts', 'less src/a.ts']) {
        expect(classify(command)).toEqual({
          kind: 'read',
          reads: [{ path: '/repo/src/a.ts', partial: false }],
          writes: [],
          globs: [],
          command,
        });
      }
    });

    it("should read lines a..b with sed -n 'a,bp'", () => {
      expect(classify("sed -n '10,20p' a.py").reads).toEqual([{ path: '/repo/a.py', lineRange: { start: 10, end: 20 }, partial: true }]);
      expect(classify('sed -n 5p a.py').reads).toEqual([{ path: '/repo/a.py', lineRange: { start: 5, end: 5 }, partial: true }]);
      expect(classify("sed -n '7,$p' a.py").reads).toEqual([{ path: '/repo/a.py', lineRange: { start: 7 }, partial: true }]);
    });

    it('should not take long sed options for the script', () => {
      expect(classify("sed --regexp-extended -n '3,4p' a.py").reads).toEqual([{ path: '/repo/a.py', lineRange: { start: 3, end: 4 }, partial: true }]);
    });

    it('should read the slice bat -r a:b prints', () => {
      expect(classify('bat -r 10:20 a.py').reads).toEqual([{ path: '/repo/a.py', lineRange: { start: 10, end: 20 }, partial: true }]);
      expect(classify('bat a.py').reads).toEqual([{ path: '/repo/a.py', partial: false }]);
    });

    it('should read the first N lines with head, in every spelling', () => {
      for (const command of ['head a.py -n 30', 'head -n 30 a.py', 'head -30 a.py', 'head -n30 a.py', 'head --lines=30 a.py']) {
        expect(classify(command).reads).toEqual([{ path: '/repo/a.py', lineRange: { start: 1, end: 30 }, partial: true }]);
      }
      expect(classify('head a.py').reads).toEqual([{ path: '/repo/a.py', lineRange: { start: 1, end: 10 }, partial: true }]);
    });

    it('should read the end of a file with tail, with a range only for +N', () => {
      expect(classify('tail -n 20 a.py').reads).toEqual([{ path: '/repo/a.py', partial: true }]);
      expect(classify('tail -n +40 a.py').reads).toEqual([{ path: '/repo/a.py', lineRange: { start: 40 }, partial: true }]);
    });

    it("should compose a pipe of a reader and a range filter: nl -ba f | sed -n 'a,bp'", () => {
      expect(classify("nl -ba sympy/core/numbers.py | sed -n '100,150p'")).toMatchObject({
        kind: 'read',
        reads: [{ path: '/repo/sympy/core/numbers.py', lineRange: { start: 100, end: 150 }, partial: true }],
      });
      expect(classify("sed -n '100,200p' f.py | head -n 10").reads).toEqual([
        { path: '/repo/f.py', lineRange: { start: 100, end: 109 }, partial: true },
      ]);
    });

    it('should read a file given on standard input', () => {
      expect(classify('head -5 < data.csv').reads).toEqual([{ path: '/repo/data.csv', lineRange: { start: 1, end: 5 }, partial: true }]);
    });

    it('should not be a read when a file cannot be named (cat $F)', () => {
      expect(classify('cat $FILE')).toMatchObject({ kind: 'shell', reads: [] });
      expect(classify('cd $HOME && cat notes.txt')).toMatchObject({ kind: 'shell', reads: [] });
    });

    it('should report glob operands as globs, not reads', () => {
      expect(classify('cat src/*.ts')).toMatchObject({ kind: 'read', reads: [], globs: ['/repo/src/*.ts'] });
    });
  });

  describe('writes', () => {
    it("should write the target of cat > f <<'EOF' and ignore the here-document body", () => {
      expect(classify("cat > types/state.ts << 'EOF'\nimport { a } from './a';\nrm -rf src && cat secret\nEOF")).toEqual({
        kind: 'write',
        reads: [],
        writes: [{ path: '/repo/types/state.ts', partial: false }],
        globs: [],
        command: "cat > types/state.ts << 'EOF'\nimport { a } from './a';\nrm -rf src && cat secret\nEOF",
      });
    });

    it('should report appends (>>, tee -a) as partial writes', () => {
      expect(classify('cat >> log.md <<EOF\nline\nEOF').writes).toEqual([{ path: '/repo/log.md', partial: true }]);
      expect(classify('echo x | tee -a log.md').writes).toEqual([{ path: '/repo/log.md', partial: true }]);
    });

    it('should write with echo > f, printf > f and tee f', () => {
      expect(classify('echo hi > out.txt')).toMatchObject({ kind: 'write', writes: [{ path: '/repo/out.txt', partial: false }] });
      expect(classify("printf '%s' x > out.txt")).toMatchObject({ kind: 'write', writes: [{ path: '/repo/out.txt', partial: false }] });
      expect(classify('tee out.txt <<EOF\nx\nEOF')).toMatchObject({ kind: 'write', writes: [{ path: '/repo/out.txt', partial: false }] });
    });

    it('should ignore descriptor duplications and /dev/null (2>&1, > /dev/null)', () => {
      expect(classify('make 2>&1 > /dev/null')).toMatchObject({ kind: 'shell', writes: [] });
      expect(classify('cat a.txt 2>/dev/null')).toMatchObject({ kind: 'read', writes: [] });
    });

    it('should write the destination of cp and read its source', () => {
      expect(classify('cp a.txt b.txt')).toMatchObject({
        kind: 'write',
        reads: [{ path: '/repo/a.txt', partial: false }],
        writes: [{ path: '/repo/b.txt', partial: false }],
      });
      expect(classify('cp a.txt lib/').writes).toEqual([{ path: '/repo/lib/a.txt', partial: false }]);
    });

    it('should write both the source (removed) and the destination of mv', () => {
      expect(classify('mv old.py new.py').writes).toEqual([
        { path: '/repo/old.py', partial: false },
        { path: '/repo/new.py', partial: false },
      ]);
    });

    it('should report rm and touch as writes (touch as partial: it may only change times)', () => {
      expect(classify('rm -f a.py b.py').writes).toEqual([
        { path: '/repo/a.py', partial: false },
        { path: '/repo/b.py', partial: false },
      ]);
      expect(classify('touch a.py').writes).toEqual([{ path: '/repo/a.py', partial: true }]);
    });

    it('should edit files in place with sed -i (GNU and BSD spellings) and perl -pi', () => {
      for (const command of ["sed -i 's/a/b/' f.py", "sed -i '' 's/a/b/' f.py", "sed -i.bak -e 's/a/b/' f.py", "perl -pi -e 's/a/b/' f.py"]) {
        expect(classify(command)).toMatchObject({ kind: 'edit', writes: [{ path: '/repo/f.py', partial: true }] });
      }
    });

    it('should find the files a here-document patch changes (patch, git apply)', () => {
      const diff = '--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1 @@\n-a\n+b\n';
      expect(classify(`patch -p1 <<'EOF'\n${diff}EOF`).writes).toEqual([{ path: '/repo/src/x.py', partial: true }]);
      expect(classify(`git apply <<'EOF'\n${diff}EOF`).writes).toEqual([{ path: '/repo/src/x.py', partial: true }]);
    });

    it('should not know which files a patch read from a file changes', () => {
      expect(classify('git apply fix.diff')).toMatchObject({ kind: 'edit', reads: [{ path: '/repo/fix.diff', partial: false }], writes: [] });
    });

    it('should write files restored by git checkout -- and git checkout <file>', () => {
      expect(classify('git checkout -- src/a.py').writes).toEqual([{ path: '/repo/src/a.py', partial: false }]);
      expect(classify('git checkout django/db/base.py').writes).toEqual([{ path: '/repo/django/db/base.py', partial: false }]);
      expect(classify('git checkout main')).toMatchObject({ kind: 'shell', writes: [] });
    });

    it('should treat python - <<EOF as an unknown program', () => {
      expect(classify("python - <<'EOF'\nopen('x.py', 'w').write('')\nEOF")).toMatchObject({ kind: 'shell', reads: [], writes: [] });
    });
  });

  describe('sequences and directories', () => {
    it('should resolve paths after cd dir && … inside dir', () => {
      expect(classify('cd src && cat a.ts').reads).toEqual([{ path: '/repo/src/a.ts', partial: false }]);
      expect(classify('cd /tmp; cat a').reads).toEqual([{ path: '/tmp/a', partial: false }]);
    });

    it("should end a subshell's cd with the subshell", () => {
      expect(classify('(cd sub && cat a.txt); cat b.txt').reads.map((read) => read.path)).toEqual(['/repo/sub/a.txt', '/repo/b.txt']);
    });

    it('should start in the given working directory', () => {
      expect(classifyShellCommand('cat a.txt', { workspaceRoot, cwd: 'pkg' }).reads).toEqual([{ path: '/repo/pkg/a.txt', partial: false }]);
    });

    it('should classify every segment and give shell for a mix of kinds', () => {
      expect(classify("sed -n '1,5p' a.py && sed -n '9,9p' b.py")).toMatchObject({ kind: 'read' });
      expect(classify('cat a.py; make')).toMatchObject({ kind: 'shell', reads: [{ path: '/repo/a.py', partial: false }] });
    });

    it('should ignore neutral commands such as mkdir, echo and cd when choosing the kind', () => {
      expect(classify('mkdir -p types && cat > types/a.ts <<EOF\nx\nEOF')).toMatchObject({ kind: 'write' });
    });

    it('should look inside bash -c and drop wrappers such as sudo, env and timeout', () => {
      expect(classify("bash -lc 'cat a.py'")).toMatchObject({ kind: 'read', reads: [{ path: '/repo/a.py', partial: false }] });
      expect(classify('FOO=1 sudo -u root timeout 5 cat /etc/hosts').reads).toEqual([{ path: '/etc/hosts', partial: false }]);
    });

    it('should turn a reader whose output goes to a file into a write (cat a > b)', () => {
      expect(classify('cat a.txt > b.txt')).toMatchObject({
        kind: 'write',
        reads: [{ path: '/repo/a.txt', partial: false }],
        writes: [{ path: '/repo/b.txt', partial: false }],
      });
    });

    it('should report each repeated identical access once', () => {
      expect(classify("sed -i 's/a/b/' f.py\nsed -i 's/c/d/' f.py").writes).toEqual([{ path: '/repo/f.py', partial: true }]);
    });
  });

  describe('lists and searches', () => {
    it('should list directories as dir/* (ls) and trees as dir/** (ls -R, tree, find)', () => {
      expect(classify('ls -la src')).toMatchObject({ kind: 'list', globs: ['/repo/src/*'] });
      expect(classify('tree src -L 2')).toMatchObject({ kind: 'list', globs: ['/repo/src/**'] });
      expect(classify("find . -name '*.py' -o -name '*.md' | head")).toMatchObject({ kind: 'list', globs: ['/repo/**/*.py', '/repo/**/*.md'] });
    });

    it('should read a searched file in part and search a directory tree as a glob', () => {
      expect(classify("grep -n 'def x' a.py")).toMatchObject({ kind: 'search', reads: [{ path: '/repo/a.py', partial: true }], globs: [] });
      expect(classify("grep -rn --include='*.py' foo src")).toMatchObject({ kind: 'search', reads: [], globs: ['/repo/src/**/*.py'] });
      expect(classify('rg foo')).toMatchObject({ kind: 'search', globs: ['/repo/**'] });
    });

    it('should make a read piped into grep a search', () => {
      expect(classify("nl -ba models.py | grep -C 5 'Length'")).toMatchObject({ kind: 'search', reads: [{ path: '/repo/models.py', partial: true }] });
    });

    it('should make a read piped into an unknown program a shell command', () => {
      expect(classify('cat a.py | python3 -')).toMatchObject({ kind: 'shell', reads: [{ path: '/repo/a.py', partial: false }] });
    });
  });

  describe('SWE-agent commands', () => {
    it('should read a window of a file with open and remember it as opened', () => {
      expect(classify('open "src/x.py" 120')).toEqual({
        kind: 'read',
        reads: [{ path: '/repo/src/x.py', partial: true }],
        writes: [],
        globs: [],
        command: 'open "src/x.py" 120',
        openedFile: '/repo/src/x.py',
      });
    });

    it('should edit lines a..b of the open file with edit a:b, ignoring the replacement text', () => {
      expect(classify("edit 10:20\n    foo('unbalanced\nend_of_edit", '/repo/x.py').writes).toEqual([
        { path: '/repo/x.py', lineRange: { start: 10, end: 20 }, partial: true },
      ]);
    });

    it('should name no file for edit when no file is open', () => {
      expect(classify('edit 1:1\nx\nend_of_edit')).toMatchObject({ kind: 'edit', writes: [] });
    });

    it('should write the file create makes and open it', () => {
      expect(classify('create reproduce.py')).toMatchObject({ kind: 'write', writes: [{ path: '/repo/reproduce.py', partial: false }], openedFile: '/repo/reproduce.py' });
    });

    it('should read the open file with goto and scroll_down', () => {
      expect(classify('goto 300', '/repo/x.py').reads).toEqual([{ path: '/repo/x.py', partial: true }]);
      expect(classify('scroll_down', '/repo/x.py').reads).toEqual([{ path: '/repo/x.py', partial: true }]);
    });

    it('should list with find_file and search with search_dir and search_file', () => {
      expect(classify('find_file "fields.py" src')).toMatchObject({ kind: 'list', globs: ['/repo/src/**/fields.py'] });
      expect(classify('search_dir "TimeDelta"')).toMatchObject({ kind: 'search', globs: ['/repo/**'] });
      expect(classify('search_file "x" a.py')).toMatchObject({ kind: 'search', reads: [{ path: '/repo/a.py', partial: true }] });
    });

    it('should treat a SWE-agent command name inside a longer command line as an ordinary program', () => {
      expect(classify('open x.html && echo done')).toMatchObject({ kind: 'shell', reads: [] });
    });
  });

  it('should read a program, wrapper or git subcommand named like a property every object has as any unknown name', () => {
    // Names looked up in tables of known ones: `toString -a x` threw, `git toString` came back without a kind.
    for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__']) {
      for (const [command, unknown] of [
        [`${name} -a x`, 'frobnicate -a x'],
        [`${name} cat a.py`, 'frobnicate cat a.py'],
        [`git ${name} -x a.py`, 'git frobnicate -x a.py'],
      ] as const) {
        expect(classify(command)).toEqual({ ...classify(unknown), command });
      }
    }
  });

  it('should never throw', () => {
    const fragment = fc.constantFrom('toString ', 'constructor ', '-a ', 'git ', 'cat ', 'sed -n ', "'1,2p' ", 'a.py ', '| ', '&& ', '> ', '<<EOF\n', 'EOF\n', '$X ', '(', ')', 'cd ', '"', "'", '\\', 'edit 1:2\n', 'cp ', 'git checkout ', '-- ', 'find . -name ', '*.py ');
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => {
        expect(() => classify(parts.join(''), '/repo/open.py')).not.toThrow();
      }),
    );
  });
});
