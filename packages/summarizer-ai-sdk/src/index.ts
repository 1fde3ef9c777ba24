export type { AiSdkSummarizerOptions } from './ai-sdk-summarizer-options.js';
export { classifySummarizerError, type ClassifySummarizerErrorOptions } from './classify-summarizer-error.js';
export { createAiSdkSummarizer } from './create-ai-sdk-summarizer.js';
export { defaultSummaryPrompt } from './default-summary-prompt.js';
export { InvalidSummarizerOptionsError } from './invalid-summarizer-options-error.js';
export { renderTranscript } from './render-transcript.js';
