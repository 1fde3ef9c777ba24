import { itKeepsProviderValidity } from '@ctx/conformance/vitest';
import { builtInPresets } from '@ctx/presets';
import { describe } from 'vitest';
import { resolveStrategies } from './resolve-strategies.js';
import { strategyCatalog } from './strategy-catalog.js';

// CI explores the same histories on every run (a red build must be reproducible); set CTX_PROPERTY_SEED to explore
// others. A failure prints the shrunk counterexample and the seed to replay it.
const seed = process.env.CTX_PROPERTY_SEED === undefined ? 20_261_125 : Number(process.env.CTX_PROPERTY_SEED);

// Every built-in preset as well, its steps run together as one strategy, the way `ctx compare --presets` runs them.
const presets = await resolveStrategies({ plugin: [], set: [], presets: Object.keys(builtInPresets).join(',') });

// Every installed strategy and preset, on random histories: CTX_PROPERTY_RUNS each (100 unless set; the big run in
// packages/conformance/README.md used 10,000).
describe('provider validity on random histories (property)', () => {
  for (const entry of strategyCatalog) itKeepsProviderValidity({ strategy: () => entry.create(), seed });
  for (const create of presets) itKeepsProviderValidity({ strategy: create, seed });
});
