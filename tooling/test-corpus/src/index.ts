export {
  corpusDirectory,
  corpusExists,
  loadCorpusConversations,
  loadLongClaudeCodeSessions,
  readClaudeCodeSession,
  type CorpusConversation,
} from './corpus-conversations.js';
export { loadCorpusFixtures, type CorpusFixture } from './corpus-fixtures.js';
