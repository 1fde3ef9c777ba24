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
export { builtInStrategySources, loadPlugins, selectStrategySources, type StrategySource } from './strategy-sources.js';
export { measureCompression, type CompressionMeasurement } from './measure-compression.js';
export { runPipeline, type PipelineOptions, type PipelineResult } from './run-pipeline.js';
export { encodeConversation, outputFormats, type OutputFormat } from './output-formats.js';
