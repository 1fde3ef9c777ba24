import { createRequire } from 'node:module';

/** The `ctx` command line's version, from its package.json (what `ctx --version` prints). */
export const playgroundVersion: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
