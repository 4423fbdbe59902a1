import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where browser mode keeps its state (the nodes you added, with their field masks), following each platform's convention;
 * the Electron app uses its userData folder instead.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Nodescope');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Nodescope');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'nodescope');
}
