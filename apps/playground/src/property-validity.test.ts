import { itKeepsProviderValidity } from '@ctx/conformance/vitest';
import { describe } from 'vitest';
import { strategyCatalog } from './strategy-catalog.js';

// CI explores the same histories on every run (a red build must be reproducible); set CTX_PROPERTY_SEED to explore
// others. A failure prints the shrunk counterexample and the seed to replay it.
const seed = process.env.CTX_PROPERTY_SEED === undefined ? 20_261_125 : Number(process.env.CTX_PROPERTY_SEED);

// Every installed strategy, on random histories: CTX_PROPERTY_RUNS per strategy (100 unless set; the big run in
// packages/conformance/README.md used 10,000).
describe('provider validity on random histories (property)', () => {
  for (const entry of strategyCatalog) itKeepsProviderValidity({ strategy: () => entry.create(), seed });
});
