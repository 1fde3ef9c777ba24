import type { CompressionStrategy } from '@ctx/core';
import { createHighDensityStrategy } from '@ctx/strategy-high-density';
import { createLosslessStrategy } from '@ctx/strategy-lossless';
import { createMiddleOutStrategy } from '@ctx/strategy-middle-out';
import { createNativeStrategy } from '@ctx/strategy-native';
import { createOneShotStrategy } from '@ctx/strategy-one-shot';
import { createSlidingWindowStrategy } from '@ctx/strategy-sliding-window';
import { createSmartPassesStrategy } from '@ctx/strategy-smart-passes';
import { createTopDownTruncationStrategy } from '@ctx/strategy-top-down-truncation';
import { createTruncationStrategy } from '@ctx/strategy-truncation';
import { createWatermarkStrategy } from '@ctx/strategy-watermark';

/** An installed strategy package the playground can create strategies from. */
export interface CatalogEntry {
  readonly name: string;
  readonly packageName: string;
  readonly create: (settings?: unknown) => CompressionStrategy;
}

/**
 * Adapts a strategy factory to the catalog: the factory validates the settings itself (each strategy's zod schema), so
 * whatever the user wrote on the command line or in a config file is passed through unchanged.
 */
function fromFactory<Settings, Resolved>(
  factory: (settings?: Settings) => CompressionStrategy<Resolved>,
): (settings?: unknown) => CompressionStrategy {
  return (settings) => factory(settings as Settings);
}

/**
 * Smart passes with the lossless prelude (spec 004 FR-SM-003) when its settings enable it: no strategy imports
 * another, so the playground creates the lossless strategy with the prelude's operations and hands it over.
 */
function createSmartPasses(settings?: unknown): CompressionStrategy {
  const prelude = (settings as { losslessPrelude?: { enabled?: unknown; operations?: unknown } } | undefined)?.losslessPrelude;
  if (prelude?.enabled !== true) return createSmartPassesStrategy(settings as Parameters<typeof createSmartPassesStrategy>[0]);
  return createSmartPassesStrategy(settings as Parameters<typeof createSmartPassesStrategy>[0], {
    prelude: createLosslessStrategy((prelude.operations ?? {})),
  });
}

/**
 * The strategy packages the playground ships with, in the order `ctx compare` runs them: lossless first, then the
 * deterministic lossy ones from gentlest to bluntest, then the ones that summarize with a model. Third-party
 * strategies come in through plugins.
 */
export const strategyCatalog: readonly CatalogEntry[] = [
  { name: 'lossless', packageName: '@ctx/strategy-lossless', create: fromFactory(createLosslessStrategy) },
  { name: 'high-density', packageName: '@ctx/strategy-high-density', create: fromFactory(createHighDensityStrategy) },
  { name: 'watermark', packageName: '@ctx/strategy-watermark', create: fromFactory(createWatermarkStrategy) },
  { name: 'truncation', packageName: '@ctx/strategy-truncation', create: fromFactory(createTruncationStrategy) },
  {
    name: 'sliding-window',
    packageName: '@ctx/strategy-sliding-window',
    create: fromFactory(createSlidingWindowStrategy),
  },
  { name: 'smart-passes', packageName: '@ctx/strategy-smart-passes', create: createSmartPasses },
  {
    name: 'top-down-truncation',
    packageName: '@ctx/strategy-top-down-truncation',
    create: fromFactory(createTopDownTruncationStrategy),
  },
  // The LLM strategies: without a summarizer (--summarizer-url / --summarizer) they report missing-summarizer.
  { name: 'middle-out', packageName: '@ctx/strategy-middle-out', create: fromFactory(createMiddleOutStrategy) },
  { name: 'one-shot', packageName: '@ctx/strategy-one-shot', create: fromFactory(createOneShotStrategy) },
  { name: 'native', packageName: '@ctx/strategy-native', create: (settings) => createNativeStrategy(settings as Parameters<typeof createNativeStrategy>[0]) },
];
