import type { CompressionStrategy } from '@ctx/core';
import { createTopDownTruncationStrategy } from '@ctx/strategy-top-down-truncation';

/** An installed strategy package the playground can create strategies from. */
export interface CatalogEntry {
  readonly name: string;
  readonly packageName: string;
  readonly create: (settings?: unknown) => CompressionStrategy;
}

/**
 * The strategy packages the playground ships with. Each strategy issue adds its package here; third-party strategies
 * come in through plugins.
 */
export const strategyCatalog: readonly CatalogEntry[] = [
  {
    name: 'top-down-truncation',
    packageName: '@ctx/strategy-top-down-truncation',
    create: (settings) => createTopDownTruncationStrategy(settings as Parameters<typeof createTopDownTruncationStrategy>[0]),
  },
];
