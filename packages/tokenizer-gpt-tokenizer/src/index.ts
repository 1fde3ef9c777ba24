export { createGptTokenizer, type GptTokenizerEncoding, type GptTokenizerOptions } from './gpt-tokenizer.js';
