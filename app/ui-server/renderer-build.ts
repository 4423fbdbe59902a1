import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const rendererOutDir = join(projectRoot, 'dist', 'renderer');

/** The renderer's sources: its own folder and the contract it imports. */
const SOURCE_DIRS = [join(projectRoot, 'renderer'), join(projectRoot, 'app', 'contract')];
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

/** Builds the renderer with Vite when it is missing or stale; returns the directory to serve. */
export async function ensureRendererBuilt(log: (line: string) => void = () => {}): Promise<string> {
  if (!rendererIsStale()) return rendererOutDir;
  const configFile = viteConfig();
  log('nodescope: building the UI (vite)…');
  const { build } = await import('vite');
  await build({ configFile, logLevel: 'warn' });
  if (!existsSync(join(rendererOutDir, 'index.html'))) {
    throw new Error(`The Vite build finished but ${rendererOutDir}/index.html is missing; check ${configFile}'s build.outDir.`);
  }
  return rendererOutDir;
}
