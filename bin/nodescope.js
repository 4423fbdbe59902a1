#!/usr/bin/env node
// Runs the CLI as built at install (dist/cli, by scripts/build-cli.ts): compiling the TypeScript at every
// start cost 1-2 s. When that build is missing, or a source it was built from changed since, the sources
// run instead (through tsx) with a note, so an edit to app/ is never hidden behind an old build.
import { readFileSync, statSync, writeSync } from 'node:fs';

/**
 * A note on stderr, written before the CLI's own handling of a stderr that cannot be written is in place: a
 * stderr whose reader is gone loses the note, and the run goes on (a stream's write would crash it).
 */
function note(text) {
  try {
    writeSync(2, text);
  } catch {
    // Nobody reads stderr.
  }
}

// Pod digests use crypto.hash, new in 20.12: on an older Node the built CLI would fail on an import.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 12)) {
  note(`nodescope: needs Node.js 20.12 or later, and this is ${process.version}; install a newer Node.js and run it again\n`);
  process.exit(1);
}

const root = new URL('../', import.meta.url);

/** Why the build cannot be used, or null when it is current. */
function staleBuild() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('dist/cli/build.json', root), 'utf8'));
  } catch {
    return 'dist/cli is not built';
  }
  for (const input of manifest.inputs) {
    let mtime;
    try {
      mtime = statSync(new URL(input, root)).mtimeMs;
    } catch {
      return `${input} is gone since dist/cli was built`;
    }
    if (mtime > manifest.builtAt) return `${input} changed since dist/cli was built`;
  }
  return null;
}

const stale = staleBuild();
if (stale === null) {
  await import('../dist/cli/main.js');
} else {
  note(`nodescope: running from the TypeScript sources (slower start): ${stale}; npm run build:cli rebuilds it\n`);
  const { register } = await import('tsx/esm/api');
  register();
  await import('../app/cli/main.ts');
}
