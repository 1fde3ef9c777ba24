/**
 * The system prompt a summarizer from {@link createAiSdkSummarizer} uses when neither the request (`instructions`) nor
 * its options (`system`) give one. LLM strategies normally send their own instructions.
 */
export const defaultSummaryPrompt = [
  'You summarize an earlier part of a conversation between a user, an AI assistant and its tools, so that the',
  'assistant can continue the work without the full transcript.',
  'Keep: the user\'s goals and constraints, decisions and their reasons, files, commands and identifiers that were',
  'used, errors met and how they were resolved, and what remains to be done.',
  'Leave out: pleasantries, repeated tool output, and anything superseded later in the transcript.',
  'Answer with the summary only, as plain text.',
].join(' ');
