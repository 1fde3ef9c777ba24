import { defineConfig } from 'vitest/config';
// The source, not the build: the config is read before anything is built.
import { propertyScale } from './tooling/test-properties/src/property-runs.js';

// A big run (`CTX_PROPERTY_SCALE=10`: every fixed-size property test ten times its runs) gives tests time to match;
// a bad value stops the run here, with its error.
const timeoutScale = Math.max(1, propertyScale());

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tooling/*/src/**/*.test.ts'],
    benchmark: {
      include: ['packages/*/bench/**/*.bench.ts', 'apps/*/bench/**/*.bench.ts'],
    },
    // Test files share a worker's module cache instead of re-importing every package per file: the suite spends
    // most of its time importing otherwise. Tests that change process state (environment variables) restore it.
    isolate: false,
    testTimeout: 60_000 * timeoutScale,
    hookTimeout: 60_000,
  },
});
