import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    benchmark: {
      include: ['packages/*/bench/**/*.bench.ts', 'apps/*/bench/**/*.bench.ts'],
    },
    // Test files share a worker's module cache instead of re-importing every package per file: the suite spends
    // most of its time importing otherwise. Tests that change process state (environment variables) restore it.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
