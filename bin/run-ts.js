#!/usr/bin/env node
// Runs a TypeScript entry point (benchmarks, scripts) with tsx, as the CLI runs its sources when unbuilt.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

register();
const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: run-ts.js FILE.ts [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(entry), ...rest];
await import(pathToFileURL(resolve(entry)).href);
