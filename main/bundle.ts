import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const mainOutDir = join(projectRoot, 'dist', 'main');

/**
 * Bundles Electron's main process (ESM; node_modules stay external and ship with the app) and the
 * preload (one CommonJS file: a sandboxed preload can require nothing but electron).
 */
export async function bundleMain(outDir = mainOutDir): Promise<{ main: string; preload: string }> {
  const main = join(outDir, 'main.mjs');
  const preload = join(outDir, 'preload.cjs');
  const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning' } as const;
  await Promise.all([
    build({
      ...common,
      entryPoints: [join(projectRoot, 'main', 'main.ts')],
      outfile: main,
      format: 'esm',
      packages: 'external',
    }),
    // The YAML pod file reader's worker, started by its path beside main.mjs, with its extension (read-pod-yaml-off-thread.ts).
    build({
      ...common,
      entryPoints: [join(projectRoot, 'app', 'snapshot', 'yaml-pod-worker.ts')],
      outfile: join(outDir, 'yaml-pod-worker.mjs'),
      format: 'esm',
      packages: 'external',
    }),
    build({
      ...common,
      entryPoints: [join(projectRoot, 'main', 'preload.ts')],
      outfile: preload,
      format: 'cjs',
      external: ['electron'],
    }),
  ]);
  return { main, preload };
}
