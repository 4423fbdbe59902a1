import { existsSync, readdirSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const rendererOutDir = join(projectRoot, 'dist', 'renderer');

/** The renderer's sources: its own folder and app/, whose contract and pod types it imports. */
const SOURCE_DIRS = [join(projectRoot, 'renderer'), join(projectRoot, 'app')];
const CONFIG_CANDIDATES = [join(projectRoot, 'renderer', 'vite.config.ts'), join(projectRoot, 'vite.config.ts')];

function newestMtime(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function viteConfig(): string {
  const found = CONFIG_CANDIDATES.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      `No Vite config for the renderer (looked for ${CONFIG_CANDIDATES.join(', ')}). ` +
        'Restore it from git, or build the renderer into dist/renderer another way.',
    );
  }
  return found;
}

/** True when dist/renderer is missing or older than any renderer source or the Vite config. */
export function rendererIsStale(): boolean {
  const index = join(rendererOutDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const sources = [...SOURCE_DIRS, ...CONFIG_CANDIDATES].filter((p) => existsSync(p));
  return sources.some((p) => newestMtime(p) > built);
}

/** The build under way in this process: a second caller waits for it (the build sets NODE_ENV meanwhile). */
let building: Promise<string> | null = null;

/** Builds the renderer with Vite when it is missing or stale; returns the directory to serve. */
export async function ensureRendererBuilt(log: (line: string) => void = () => {}): Promise<string> {
  if (!rendererIsStale()) return rendererOutDir;
  building ??= buildRenderer(log).finally(() => (building = null));
  return building;
}

async function buildRenderer(log: (line: string) => void): Promise<string> {
  const configFile = viteConfig();
  log('nodescope: building the UI (vite)…');
  const { build } = await import('vite').catch(() => {
    throw new Error(`The UI in ${rendererOutDir} is missing or out of date and Vite is not installed to build it; run npm install (with dev dependencies) and try again.`);
  });
  // Built beside the old copy and swapped in, so a server (or a second build running at the same
  // time, e.g. parallel tests) never serves a half-written directory.
  const staging = `${rendererOutDir}.${process.pid}-${Date.now()}`;
  // Vite builds React for development when NODE_ENV says anything but production (npm test sets
  // "test"), and that build, several times slower, would stay in dist/renderer for npm start.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile, logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
    if (!existsSync(join(staging, 'index.html'))) throw new Error(`The Vite build finished but wrote no index.html; check ${configFile}.`);
    // Another build from the same sources was swapped in meanwhile: it stays, as replacing it would
    // leave a moment with no UI for whoever is serving it now.
    if (!rendererIsStale()) return rendererOutDir;
    await rm(rendererOutDir, { recursive: true, force: true });
    await rename(staging, rendererOutDir).catch((err: NodeJS.ErrnoException) => {
      // Another build swapped its copy in first; it is built from the same sources.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    await rm(staging, { recursive: true, force: true });
  }
  return rendererOutDir;
}
