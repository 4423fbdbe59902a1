import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type ElectronBinary = { found: true; path: string } | { found: false; expectedPath: string };

const require = createRequire(import.meta.url);

/**
 * Where the Electron executable is, or why there is none. The npm package only carries a launcher;
 * the binary is downloaded by its install script, which cannot run on machines without internet
 * access beyond the package registry — then `require('electron')` throws.
 */
export function locateElectronBinary(): ElectronBinary {
  const packageDir = dirname(require.resolve('electron/package.json'));
  const expectedPath = join(packageDir, 'dist', process.platform === 'win32' ? 'electron.exe' : 'electron');
  let path: string;
  try {
    path = require('electron') as string;
  } catch {
    return { found: false, expectedPath };
  }
  return existsSync(path) ? { found: true, path } : { found: false, expectedPath: path };
}
