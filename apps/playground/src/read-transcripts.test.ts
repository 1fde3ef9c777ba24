import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { findToolPairingProblems } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { findCorpusDirectory } from './corpus.js';
import { TranscriptLoadError, readTranscriptFile, readTranscripts, type TranscriptFormat } from './read-transcripts.js';

async function tempFile(name: string, content: string) {
  const path = join(await mkdtemp(join(tmpdir(), 'ctx-read-')), name);
  await writeFile(path, content);
  return path;
}

describe('readTranscriptFile', () => {
  it('should detect provider message arrays by their shape', async () => {
    const cases: [string, unknown, TranscriptFormat][] = [
      [
        'anthropic.json',
        {
          system: 'be brief',
          messages: [
            { role: 'user', content: 'read a.ts' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.ts' } }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] },
          ],
        },
        'anthropic-messages',
      ],
      [
        'openai.json',
        [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'read a.ts' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'x' },
        ],
        'openai-chat',
      ],
      [
        'ai-sdk.json',
        {
          messages: [
            { role: 'user', content: 'read a.ts' },
            { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } }] },
            { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'x' } }] },
          ],
        },
        'ai-sdk-model-messages',
      ],
      [
        'gemini.json',
        {
          contents: [
            { role: 'user', parts: [{ text: 'read a.ts' }] },
            { role: 'model', parts: [{ functionCall: { name: 'read', args: { path: 'a.ts' } } }] },
            { role: 'user', parts: [{ functionResponse: { name: 'read', response: { content: 'x' } } }] },
          ],
        },
        'gemini-content',
      ],
    ];
    for (const [name, value, format] of cases) {
      const [transcript] = await readTranscriptFile(await tempFile(name, JSON.stringify(value)));
      expect(transcript?.format, name).toBe(format);
      expect(transcript?.conversation.history.map((entry) => entry.speaker), name).toEqual(['human', 'ai', 'tool']);
    }
  });

  it('should read a Claude Code session with a malformed line, reporting its line number', async () => {
    const records = [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'hi' } },
      '{ this line is broken',
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hello' }] } },
    ];
    const text = records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record))).join('\n');
    const [transcript] = await readTranscriptFile(await tempFile('session.jsonl', text));
    expect(transcript?.format).toBe('claude-code');
    expect(transcript?.conversation.history).toHaveLength(2);
    expect(transcript?.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'malformed', line: 2 })]));
  });

  it('should explain a messages array no codec accepts', async () => {
    const file = await tempFile('bad.json', JSON.stringify({ messages: [{ role: 'robot', content: 'beep' }] }));
    await expect(readTranscriptFile(file)).rejects.toThrow(TranscriptLoadError);
    await expect(readTranscriptFile(file)).rejects.toThrow(/a messages array, but not a valid one in any format \(anthropic-messages: messages\[0\]\.role/);
  });

  it('should reject a directory with no transcripts', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ctx-empty-'));
    await expect(readTranscripts([directory])).rejects.toThrow(/no transcript files/);
  });
});

const corpus = findCorpusDirectory();
if (corpus === undefined) console.warn('Skipping corpus transcript tests: ../shared/corpus not found (set CTX_CORPUS).');

describe.skipIf(corpus === undefined)('readTranscripts on the recorded corpus', () => {
  const manifest = corpus === undefined ? [] : (JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as { file: string; format: string }[]);
  const expectedFormat = (manifestFormat: string): TranscriptFormat => {
    if (manifestFormat.startsWith('claude-code')) return 'claude-code';
    if (manifestFormat.startsWith('openai-chat')) return 'mini-swe-agent';
    if (manifestFormat.startsWith('swe-agent')) return 'swe-agent';
    if (manifestFormat.startsWith('openhands')) return 'openhands';
    return 'gemini-cli';
  };

  it('should read every manifest file in its format, pair-valid, in both views', async () => {
    expect(manifest.length).toBeGreaterThanOrEqual(25);
    for (const view of ['all', 'last'] as const) {
      for (const { file, format } of manifest) {
        const transcripts = await readTranscriptFile(join(corpus as string, file), { view });
        expect(transcripts.length, file).toBeGreaterThan(0);
        for (const transcript of transcripts) {
          expect(transcript.format, file).toBe(expectedFormat(format));
          expect(transcript.conversation.history.length, file).toBeGreaterThan(0);
          expect(findToolPairingProblems(transcript.conversation.history), `${view} ${relative(corpus as string, transcript.label)}`).toEqual([]);
        }
      }
    }
  }, 120_000);
});
