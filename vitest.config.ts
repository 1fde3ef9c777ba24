import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    benchmark: {
      include: ['packages/*/bench/**/*.bench.ts', 'apps/*/bench/**/*.bench.ts'],
    },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
