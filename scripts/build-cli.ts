/**
 * Builds the `nodescope` CLI into dist/cli (run by `npm install` as the `prepare` script, and by the test
 * setup), so bin/nodescope.js starts plain JavaScript instead of compiling TypeScript at every start.
 * Subcommands stay separate chunks, loaded only when used. Dependencies are bundled in as well, minified:
 * a start is mostly module loading, and one file loads faster than the hundred of grpc-js. ssh2 stays outside
 * (it loads its native crypto by path), as do vite and electron (never needed by the CLI's start).
 *
 * Beside the code goes build.json: when the build started and the project files it was built from.
 * bin/nodescope.js runs the TypeScript sources instead whenever one of those is newer (or gone), so a
 * developer editing app/ never runs a stale build.
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What bin/nodescope.js reads to decide whether the build is current. */
export interface CliBuildManifest {
  /** Date.now() when the build started: a source saved after that may not be in it. */
  builtAt: number;
  /** Project files (relative to the project root) the build was made from. */
  inputs: string[];
}

/** Builds into `root`/dist/cli, swapped in whole so a CLI starting meanwhile never sees half a build. */
export async function buildCli(root = projectRoot): Promise<string> {
  const { build } = await import('esbuild');
  const outDir = join(root, 'dist', 'cli');
  const staging = `${outDir}.${process.pid}-${Date.now()}`;
  const builtAt = Date.now();
  try {
    const result = await build({
      absWorkingDir: root,
      // The workers are entries of their own, started by their path beside the chunks: ParallelPodPrinter's
      // printing worker and the YAML pod file reader (read-pod-yaml-off-thread.ts).
      entryPoints: [
        { in: join(root, 'app', 'cli', 'main.ts'), out: 'main' },
        { in: join(root, 'app', 'cli', 'pod-print-worker.ts'), out: 'pod-print-worker' },
        { in: join(root, 'app', 'snapshot', 'yaml-pod-worker.ts'), out: 'yaml-pod-worker' },
      ],
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['ssh2', 'vite', 'electron'],
      // Bundled CommonJS dependencies call require(), which an ES module does not have.
      banner: { js: "import { createRequire as __nodescopeRequire } from 'node:module'; const require = __nodescopeRequire(import.meta.url);" },
      sourcemap: 'linked',
      minify: true,
      keepNames: true,
      metafile: true,
      logLevel: 'warning',
    });
    const inputs = Object.keys(result.metafile.inputs)
      .map((p) => relative(root, resolve(root, p)))
      .filter((p) => !p.startsWith('..') && !p.includes('node_modules'));
    const manifest: CliBuildManifest = { builtAt, inputs };
    await writeFile(join(staging, 'build.json'), `${JSON.stringify(manifest, null, 1)}\n`);
    await rm(outDir, { recursive: true, force: true });
    await rename(staging, outDir).catch((err: NodeJS.ErrnoException) => {
      // A build running at the same time (parallel test runs) swapped its copy in first: same sources.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return outDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(process.argv[2] ?? projectRoot);
  if (!(await import('esbuild').then(() => true, () => false))) {
    // An install without dev dependencies: bin/nodescope.js runs the sources (slower start) instead.
    console.error('nodescope: esbuild is not installed, so the CLI is not built; it will run from its TypeScript sources');
  } else {
    console.error(`nodescope: built the CLI into ${relative(process.cwd(), await buildCli(root)) || '.'}`);
  }
}
