import type { Tokenizer } from '@ctx/core';
import { createGptTokenizer } from '@ctx/tokenizer-gpt-tokenizer';
import { createTiktokenTokenizer } from '@ctx/tokenizer-tiktoken';

/** A tokenizer to measure, and how to release it. */
export interface CalibrationTokenizer {
  readonly tokenizer: Tokenizer;
  /** Frees what the tokenizer holds (tiktoken's WASM memory); a no-op for gpt-tokenizer. */
  readonly dispose: () => void;
}

/**
 * The tokenizers the calibration report measures: gpt-tokenizer with o200k_base (ctx's default), tiktoken with
 * o200k_base (the same encoding through WASM: its figures must match), and tiktoken with cl100k_base (the older
 * OpenAI encoding, to show how much the encoding matters).
 *
 * @returns The tokenizers, in report order. Dispose each when done.
 */
export async function createCalibrationTokenizers(): Promise<CalibrationTokenizer[]> {
  const gptTokenizer = await createGptTokenizer();
  const tiktokenO200k = await createTiktokenTokenizer({ encoding: 'o200k_base' });
  const tiktokenCl100k = await createTiktokenTokenizer({ encoding: 'cl100k_base' });
  return [
    { tokenizer: gptTokenizer, dispose: () => undefined },
    { tokenizer: tiktokenO200k, dispose: () => tiktokenO200k.dispose() },
    { tokenizer: tiktokenCl100k, dispose: () => tiktokenCl100k.dispose() },
  ];
}
