// Where the tests look for ctx's recorded corpus, the same rule as `corpusDirectory` in @ctx/format-utils/testing
// and @ctx/test-corpus: `CTX_CORPUS` when set, else `shared/corpus` beside the repository checkout. Corpus tests
// skip themselves when its `manifest.json` is missing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The corpus directory the tests read. */
export const corpusDirectory =
  process.env.CTX_CORPUS !== undefined && process.env.CTX_CORPUS !== ''
    ? process.env.CTX_CORPUS
    : fileURLToPath(new URL('../../shared/corpus', import.meta.url));

/** True when the corpus is there; the corpus tests run only then. */
export const corpusExists = existsSync(join(corpusDirectory, 'manifest.json'));
