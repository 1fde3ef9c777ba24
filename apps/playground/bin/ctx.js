#!/usr/bin/env node
// Thin launcher so the `ctx` bin exists before the first build; the CLI itself is compiled to dist/.
import { runCli } from '../dist/cli.js';

process.exitCode = await runCli(process.argv.slice(2));
