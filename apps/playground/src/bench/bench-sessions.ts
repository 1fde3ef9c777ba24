import { statSync } from 'node:fs';
import { relative } from 'node:path';
import type { HistoryEntry, TextBlock, ToolDefinition } from '@ctx/core';
import { findCorpusDirectory, listTranscriptFiles } from '../corpus.js';
import { demoTranscriptPath } from '../demo-transcript.js';
import { readTranscriptFile, readTranscripts, type LoadedTranscript } from '../read-transcripts.js';

/** One conversation `ctx bench` replays. */
export interface BenchSession {
  /** How reports name it: the path inside the corpus, or the path as given. */
  readonly label: string;
  readonly file: string;
  /** Size of the file on disk. */
  readonly bytes: number;
  /** The conversation's entries, validated and frozen as read. */
  readonly history: readonly HistoryEntry[];
  readonly system: readonly TextBlock[];
  readonly tools: readonly ToolDefinition[];
}

/** Where the sessions came from: the user's paths, the corpus (the default), or the built-in demo transcript. */
export type BenchSource = 'paths' | 'corpus' | 'demo';

/** The sessions of one `ctx bench` run, largest first. */
export interface BenchSessions {
  readonly source: BenchSource;
  readonly sessions: readonly BenchSession[];
}

/** The corpus's top-level folder names its format: `claude-code`, `openai-chat`, `swe-agent`, … */
function formatFolder(corpus: string, file: string): string {
  return relative(corpus, file).split(/[\\/]/)[0] ?? '';
}

/**
 * The `count` largest corpus transcripts, taking the largest of another format second (the issue measures the largest
 * Claude Code sessions and the largest mini-swe-agent run side by side). Subagent files are parts of a session, not
 * sessions: left out.
 */
export function pickCorpusFiles(corpus: string, count: number): string[] {
  const bySize = listTranscriptFiles(corpus)
    .filter((file) => !/[\\/]subagents[\\/]/.test(file))
    .map((file) => ({ file, bytes: statSync(file).size }))
    .sort((a, b) => b.bytes - a.bytes || a.file.localeCompare(b.file))
    .map(({ file }) => file);
  const [largest] = bySize;
  if (largest === undefined || count < 1) return [];
  const otherFormat = bySize.find((file) => formatFolder(corpus, file) !== formatFolder(corpus, largest));
  const ordered = [largest, ...(otherFormat === undefined ? [] : [otherFormat]), ...bySize.filter((file) => file !== largest && file !== otherFormat)];
  return ordered.slice(0, count);
}

/** The conversation of a loaded file with the most entries (a file may hold several, e.g. OpenHands). */
function largestConversation(transcripts: readonly LoadedTranscript[]): LoadedTranscript | undefined {
  return transcripts.reduce<LoadedTranscript | undefined>(
    (best, transcript) => (best === undefined || transcript.conversation.history.length > best.conversation.history.length ? transcript : best),
    undefined,
  );
}

function toSession(transcript: LoadedTranscript, label: string): BenchSession {
  const { history, system, tools } = transcript.conversation;
  return { label, file: transcript.file, bytes: statSync(transcript.file).size, history, system: system ?? [], tools: tools ?? [] };
}

/**
 * Finds what `ctx bench` replays: the user's transcripts when paths are given (every conversation in them, largest
 * first, at most `count`); else the `count` largest sessions of the corpus; else, on a machine without the corpus,
 * the built-in demo transcript. Conversations without entries are left out.
 *
 * @param paths - Files or directories from the command line; empty for the default.
 * @param count - How many sessions at most.
 * @throws `TranscriptLoadError` for a path that cannot be read, or when none of the given paths holds a conversation
 *   with entries.
 */
export async function findBenchSessions(paths: readonly string[], count: number): Promise<BenchSessions> {
  if (paths.length > 0) {
    const loaded = (await readTranscripts(paths)).filter((transcript) => transcript.conversation.history.length > 0);
    const sessions = loaded
      .map((transcript) => toSession(transcript, transcript.label))
      .sort((a, b) => b.bytes - a.bytes || b.history.length - a.history.length)
      .slice(0, count);
    return { source: 'paths', sessions };
  }
  const corpus = findCorpusDirectory();
  if (corpus !== undefined) {
    const sessions: BenchSession[] = [];
    for (const file of pickCorpusFiles(corpus, count)) {
      const transcript = largestConversation(await readTranscriptFile(file));
      if (transcript !== undefined && transcript.conversation.history.length > 0) sessions.push(toSession(transcript, relative(corpus, file)));
    }
    if (sessions.length > 0) return { source: 'corpus', sessions };
  }
  const demo = largestConversation(await readTranscriptFile(demoTranscriptPath));
  return { source: 'demo', sessions: demo === undefined ? [] : [toSession(demo, 'the built-in demo transcript')] };
}
