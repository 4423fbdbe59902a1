// `npm start`: builds what is stale (renderer with Vite, main and preload with esbuild) and starts
// the desktop app; where Electron's binary is missing it says so in one line and serves the same
// UI in a browser instead. `--build-only` stops after building (for electron-builder).
import { spawn } from 'node:child_process';
import { run as runBrowserUi } from '../app/cli/ui-command';
import { ensureRendererBuilt } from '../app/ui-server/renderer-build';
import { bundleMain, projectRoot } from '../main/bundle';
import { locateElectronBinary } from '../main/electron-binary';

const args = process.argv.slice(2);
const buildOnly = args.includes('--build-only');
const uiArgs = args.filter((a) => a !== '--build-only');

async function start(): Promise<number> {
  await ensureRendererBuilt((line) => console.error(line));
  await bundleMain();
  if (buildOnly) return 0;

  const electron = locateElectronBinary();
  if (!electron.found) {
    console.log(`nodescope: no Electron binary at ${electron.expectedPath} (it could not be downloaded here); serving the UI in a browser instead.`);
    return runBrowserUi(uiArgs);
  }
  const child = spawn(electron.path, [projectRoot], { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (err) => {
      console.error(`nodescope: could not start Electron (${err.message}).`);
      resolve(1);
    });
  });
}

start().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`nodescope: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
