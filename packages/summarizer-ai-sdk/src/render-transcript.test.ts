import type { HistoryEntry } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { renderTranscript } from './render-transcript.js';

describe('renderTranscript', () => {
  it('should render each entry as a paragraph headed by its speaker', () => {
    const entries: HistoryEntry[] = [
      { speaker: 'human', blocks: [{ type: 'text', text: 'Fix the failing test in parser.ts' }] },
      { speaker: 'ai', blocks: [{ type: 'text', text: 'Looking at it.' }] },
    ];

    expect(renderTranscript(entries)).toBe('human: Fix the failing test in parser.ts\n\nai: Looking at it.');
  });

  it('should render tool calls with their parameters and tool results with their content', () => {
    const entries: HistoryEntry[] = [
      {
        speaker: 'ai',
        blocks: [
          { type: 'text', text: 'Reading the file.' },
          { type: 'tool_call', id: 'call-1', name: 'read_file', parameters: { path: 'src/parser.ts' } },
        ],
      },
      {
        speaker: 'tool',
        blocks: [
          { type: 'tool_response', callId: 'call-1', toolName: 'read_file', result: 'export function parse() {}' },
          { type: 'tool_response', callId: 'call-2', toolName: 'run_tests', result: { passed: 3, failed: 1 } },
          { type: 'tool_response', callId: 'call-3', toolName: 'grep', result: 'no such file', isError: true },
        ],
      },
    ];

    expect(renderTranscript(entries)).toBe(
      [
        'ai: Reading the file.',
        '[called tool read_file with {"path":"src/parser.ts"}]',
        '',
        'tool: [tool read_file returned: export function parse() {}]',
        '[tool run_tests returned: {"passed":3,"failed":1}]',
        '[tool grep failed: no such file]',
      ].join('\n'),
    );
  });

  it('should leave out thinking blocks and entries that held nothing else', () => {
    const entries: HistoryEntry[] = [
      { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'secret plan', signature: 'sig' }] },
      { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'more reasoning' }, { type: 'text', text: 'Done.' }] },
    ];

    const transcript = renderTranscript(entries);

    expect(transcript).toBe('ai: Done.');
    expect(transcript).not.toContain('secret plan');
  });

  it('should render media as its kind and media type, never its data', () => {
    const entries: HistoryEntry[] = [
      {
        speaker: 'human',
        blocks: [
          { type: 'text', text: 'See the screenshot and the spec.' },
          { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg' },
          { type: 'media', mediaType: 'application/pdf', url: 'file:///spec.pdf', filename: 'spec.pdf' },
        ],
      },
    ];

    expect(renderTranscript(entries)).toBe(
      'human: See the screenshot and the spec.\n[image: image/png]\n[file: application/pdf spec.pdf]',
    );
  });

  it('should return an empty transcript for no entries', () => {
    expect(renderTranscript([])).toBe('');
  });
});
