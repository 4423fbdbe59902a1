import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Nodescope's own ControlMaster sockets live: one directory per user that outlives a run (so the next
 * CLI run reuses the login), 0700 and ours, or refused: whoever can connect to a master socket runs commands
 * on the node as the user. A master binds ControlPath plus 17 characters first, and sun_path holds 104 bytes
 * on macOS (108 on Linux), so the path stays short: a 16-hex hash of what the master is logged in to.
 */

const MAX_CONTROL_PATH = 104 - 1 - 17;

export function controlDir(env: NodeJS.ProcessEnv = process.env): string {
  const uid = process.getuid?.() ?? 0;
  for (const base of [env.XDG_RUNTIME_DIR, tmpdir(), '/tmp'].filter((b): b is string => !!b)) {
    const dir = join(base, `nodescope-ssh-${uid}`);
    if (join(dir, 'x'.repeat(16)).length > MAX_CONTROL_PATH) continue;
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') continue;
    }
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.uid !== uid) {
      throw new Error(`${dir} is not a directory of yours: another user may have made it to reach your SSH connections; remove it, or set XDG_RUNTIME_DIR`);
    }
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return dir;
  }
  throw new Error('no short writable directory for the SSH control sockets: set XDG_RUNTIME_DIR or TMPDIR to one');
}

/** The ControlPath for a master logged in with `argv` (destination and every flag that places it). */
export const controlPathFor = (dir: string, argv: readonly string[]): string =>
  join(dir, createHash('sha256').update(JSON.stringify(argv)).digest('hex').slice(0, 16));
