import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page of `ctx serve`: built into the playground's dist/web, served by the local server (no CDN, works offline).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  // Vite 8 transforms with Oxc: Preact's automatic JSX runtime, no plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
  logLevel: 'warn',
});
