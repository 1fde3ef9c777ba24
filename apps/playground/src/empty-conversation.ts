import { TranscriptLoadError, type LoadedTranscript } from './read-transcripts.js';

/**
 * What is wrong with a transcript that decoded to a conversation with no entries (a ctx conversation with an empty
 * history, a request with an empty message list, a Claude Code session of summaries only), or undefined when it has
 * entries. Providers reject an empty message list, so there is nothing to compress or compare.
 */
export function describeEmptyConversation(transcript: LoadedTranscript): string | undefined {
  if (transcript.conversation.history.length > 0) return undefined;
  const what = transcript.format === 'claude-code' || transcript.format === 'openhands' ? 'session' : 'conversation';
  return `expected a conversation with at least one message, found a ${transcript.format} ${what} with no entries`;
}

/**
 * Returns the transcript when it has entries.
 *
 * @throws {@link TranscriptLoadError} naming the transcript, when its conversation has no entries.
 */
export function requireEntries(transcript: LoadedTranscript): LoadedTranscript {
  const problem = describeEmptyConversation(transcript);
  if (problem !== undefined) throw new TranscriptLoadError(`${transcript.label}: ${problem}`);
  return transcript;
}
