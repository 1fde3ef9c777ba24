// Test-only entry point (`@ctx/format-utils/testing`): fixtures and corpus access for codec tests. Node only (it
// reads files); never import it from code that ships. The main entry stays browser-safe.
export { claudeCodeLikeConversation, parallelSameFunctionConversation } from './testing/cross-format-conversations.js';
export {
  corpusDirectory,
  corpusExists,
  corpusPath,
  listCorpusFiles,
  readClaudeCodeMessages,
  readCorpusJson,
  readCorpusText,
} from './testing/corpus.js';
export { deepFreeze } from './testing/deep-freeze.js';
export { withLoneSurrogates } from './testing/with-lone-surrogates.js';
export { clientRequests, decodeOutcome, type ClientRequest, type ClientStep } from './testing/client-requests.js';
