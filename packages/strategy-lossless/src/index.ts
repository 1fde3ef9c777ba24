export { createLosslessStrategy } from './lossless-strategy.js';
export type { LosslessSettings, LosslessSettingsInput } from './lossless-settings.js';
export { expandHistory } from './expand-history.js';
export { createReferenceStore, type ReferenceStore } from './reference-store.js';
export { listContentReferences, type LocatedContentReference } from './list-content-references.js';
export { LosslessReferenceError, type LosslessReferenceProblem } from './lossless-reference-error.js';
export { hashContent } from './content-hash.js';
export type {
  ContentReference,
  LineNumbering,
  LineReference,
  LosslessRecord,
  ReferenceSource,
  ReferenceType,
  SupersededState,
} from './lossless-record.js';
export type { LosslessCounts } from './plan-references.js';
export type { LeafPath } from './text-leaves.js';
