export { runCli } from './cli.js';
export { CliError, processIo, type CliIo } from './cli-io.js';
export {
  compareStrategies,
  type CompareOptions,
  type Comparison,
  type StrategyComparison,
} from './compare-strategies.js';
export { demoTranscriptPath } from './demo-transcript.js';
export {
  readTranscriptFile,
  readTranscripts,
  TranscriptLoadError,
  type LoadedTranscript,
  type TranscriptFormat,
  type TranscriptView,
} from './read-transcripts.js';
export { strategyCatalog, type CatalogEntry } from './strategy-catalog.js';
