import { stat } from 'node:fs/promises';
import { listTranscriptFiles } from './corpus.js';
import { TranscriptLoadError, readTranscriptFile, type LoadedTranscript, type TranscriptView } from './read-transcripts.js';

/** A file left out of a run, and why (one line, control characters escaped). */
export interface SkippedTranscript {
  readonly file: string;
  readonly reason: string;
}

/** The transcripts that could be used, and the files that could not. */
export interface CollectedTranscripts {
  readonly transcripts: LoadedTranscript[];
  readonly skipped: SkippedTranscript[];
  /** How many files were read in all, skipped ones included. */
  readonly fileCount: number;
}

/** Options of {@link collectTranscripts}. */
export interface CollectTranscriptsOptions {
  readonly view?: TranscriptView;
  /** What is wrong with a transcript this command cannot use (e.g. an empty conversation), or undefined. */
  readonly check?: (transcript: LoadedTranscript) => string | undefined;
}

/**
 * Reads every transcript under the given paths, like `readTranscripts`, but one bad file does not stop the run:
 * a file that cannot be read or decoded, or that fails `check`, is left out and listed in `skipped`. A single
 * named file is the exception — there is nothing else to go on with, so its problem is an error.
 *
 * @throws {@link TranscriptLoadError} for a path that does not exist, a directory without transcript files, or the
 * problem of a single named file.
 */
export async function collectTranscripts(paths: readonly string[], options: CollectTranscriptsOptions = {}): Promise<CollectedTranscripts> {
  const files: string[] = [];
  let onlyOneNamedFile = paths.length === 1;
  for (const path of paths) {
    const info = await stat(path).catch((error: unknown) => {
      throw new TranscriptLoadError(`${path}: no such file or directory`, { cause: error });
    });
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    onlyOneNamedFile = false;
    const found = listTranscriptFiles(path);
    if (found.length === 0) throw new TranscriptLoadError(`${path}: no transcript files (.json, .jsonl, .traj) in this directory`);
    files.push(...found);
  }

  const transcripts: LoadedTranscript[] = [];
  const skipped: SkippedTranscript[] = [];
  for (const file of files) {
    try {
      const loaded = await readTranscriptFile(file, options.view === undefined ? {} : { view: options.view });
      for (const transcript of loaded) {
        const problem = options.check?.(transcript);
        if (problem === undefined) transcripts.push(transcript);
        else if (onlyOneNamedFile) throw new TranscriptLoadError(`${transcript.label}: ${problem}`);
        else skipped.push({ file: transcript.label, reason: problem });
      }
    } catch (error) {
      if (onlyOneNamedFile || !(error instanceof TranscriptLoadError)) throw error;
      const prefix = `${file}: `;
      skipped.push({ file, reason: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message });
    }
  }
  return { transcripts, skipped, fileCount: files.length };
}
