export {
  createTiktokenTokenizer,
  type TiktokenEncodingName,
  type TiktokenTokenizer,
  type TiktokenTokenizerOptions,
} from './tiktoken-tokenizer.js';
