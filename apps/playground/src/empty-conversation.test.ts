import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ctx } from './test-support/run-ctx.js';

const createdDirectories: string[] = [];
async function fileWith(name: string, content: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'ctx-empty-'));
  createdDirectories.push(directory);
  const path = join(directory, name);
  await writeFile(path, content);
  return path;
}
afterEach(async () => {
  await Promise.all(createdDirectories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

/** Degenerate inputs with no format to describe: every command refuses them. */
const unusable: [string, string, string][] = [
  ['a 0-byte file', 'session.jsonl', ''],
  ['a 0-byte JSON file', 'session.json', ''],
  ['a whitespace-only file', 'session.json', '  \n\t\n'],
  ['an empty array', 'messages.json', '[]\n'],
  ['an empty object', 'request.json', '{}'],
];
const foundFor: Record<string, RegExp> = {
  'a 0-byte file': /found an empty file \(0 bytes\)$/,
  'a 0-byte JSON file': /found an empty file \(0 bytes\)$/,
  'a whitespace-only file': /found only whitespace \(5 bytes\)$/,
  'an empty array': /found an empty array `\[\]`$/,
  'an empty object': /found an empty object `\{\}`$/,
};

/** Decodes to a conversation with no entries: compress and compare refuse it, inspect describes it with a warning. */
const noEntries: [string, string, string][] = [
  ['a ctx conversation with no history', 'empty.ctx.json', '{"format":"ctx.conversation.v1","history":[]}'],
  ['a request whose message list is empty', 'request.json', '{"system":"be brief","messages":[]}'],
  ['a Claude Code session with no messages', 'session.jsonl', '{"type":"summary","summary":"nothing","leafUuid":"x"}\n'],
];

describe('ctx on empty input (issue 14)', () => {
  for (const [what, name, content] of unusable) {
    for (const command of ['compress', 'compare', 'inspect'] as const) {
      it(`should refuse ${what} in ${command} with one line naming the file, what was expected and what was found`, async () => {
        const file = await fileWith(name, content);
        const argv = command === 'compress' ? [file, '--strategy', 'top-down-truncation'] : command === 'compare' ? [file, '--runs', '1'] : [file];
        const { code, stdout, stderr } = await ctx(command, ...argv);
        expect(code).toBe(1);
        expect(stdout).toBe('');
        expect(stderr.split('\n')).toHaveLength(1);
        expect(stderr).toContain(`ctx: ${file}: expected `);
        expect(stderr).toMatch(foundFor[what] as RegExp);
      });
    }
  }

  for (const [what, name, content] of noEntries) {
    it(`should refuse ${what} in compress and compare: exit 1, one line, not "Valid request"`, async () => {
      const file = await fileWith(name, content);
      for (const argv of [['compress', file, '--strategy', 'top-down-truncation'], ['compare', file, '--runs', '1']]) {
        const { code, stdout, stderr } = await ctx(...argv);
        expect(code, argv[0]).toBe(1);
        expect(stdout, argv[0]).toBe('');
        expect(stderr, argv[0]).toMatch(new RegExp(`^ctx: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: expected a conversation with at least one message, found .*no entries`));
        expect(stderr.split('\n'), argv[0]).toHaveLength(1);
      }
    });

    it(`should describe ${what} in inspect but flag it with a warning line and exit 1`, async () => {
      const file = await fileWith(name, content);
      const text = await ctx('inspect', file);
      expect(text.code).toBe(1);
      expect(text.stdout).toContain('entries 0');
      expect(text.stdout).toMatch(/\n {2}warning: no entries — nothing to compress or send/);
      const json = await ctx('inspect', file, '--json');
      expect(json.code).toBe(1);
      const [inspection] = (JSON.parse(json.stdout) as { files: Record<string, unknown>[] }).files;
      expect(inspection).toMatchObject({ entries: 0, problem: expect.stringMatching(/no entries/) as unknown });
    });
  }
});
