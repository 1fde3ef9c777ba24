export type {
  FakeServerAnswer,
  FakeServerDelayedAnswer,
  FakeServerHangingAnswer,
  FakeServerMalformedAnswer,
  FakeServerScript,
  FakeServerStatusAnswer,
  FakeServerSummaryAnswer,
  FakeServerUsage,
  RecordedRequest,
} from './fake-server-script.js';
export { startFakeOpenAICompatibleServer, type FakeOpenAICompatibleServer } from './start-fake-openai-compatible-server.js';
