import { defineConfig } from 'vitest/config';

// A big run (`CTX_PROPERTY_SCALE=10`: every fixed-size property test ten times its runs) gives tests time to match.
const propertyScale = Math.max(1, Number(process.env['CTX_PROPERTY_SCALE'] ?? 1) || 1);

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tooling/*/src/**/*.test.ts'],
    benchmark: {
      include: ['packages/*/bench/**/*.bench.ts', 'apps/*/bench/**/*.bench.ts'],
    },
    // Test files share a worker's module cache instead of re-importing every package per file: the suite spends
    // most of its time importing otherwise. Tests that change process state (environment variables) restore it.
    isolate: false,
    testTimeout: 60_000 * propertyScale,
    hookTimeout: 60_000,
  },
});
