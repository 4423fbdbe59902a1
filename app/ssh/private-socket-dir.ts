import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanUpOnStopSignal } from '../process/stop-signals';

/**
 * A fresh directory only this user can enter (0700), to hold a local socket that carries
 * the user's SSH identity: any process that could connect to it would reach the kubelet as
 * that identity. The owning PID is in the name so a later run can remove directories left
 * by processes that died without cleaning up; live processes remove theirs on exit.
 */

const PREFIX = 'nodescope-';
/** sun_path is 104 bytes on macOS (108 on Linux); stay under the smaller one. */
const MAX_SOCKET_PATH = 103;

export interface PrivateSocketDir {
  /** The private directory; '' on Windows, where the endpoint is a named pipe. */
  dir: string;
  socketPath: string;
  remove(): void;
}

const live = new Set<string>();
let exitHookInstalled = false;

function removeLive(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', removeLive);
  cleanUpOnStopSignal(removeLive);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes `nodescope-<pid>-*` directories in `base` whose process is gone and that belong to us. */
export function removeStaleSocketDirs(base: string): string[] {
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(base);
  } catch {
    return removed;
  }
  const uid = process.getuid?.();
  for (const name of entries) {
    const m = /^nodescope-(\d+)-/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const dir = join(base, name);
    try {
      const st = lstatSync(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Raced with another cleaner: nothing left to do.
    }
  }
  return removed;
}

/** Candidate parents: the per-user runtime dir when there is one, else the temp dir. */
function bases(env: NodeJS.ProcessEnv): string[] {
  return [env.XDG_RUNTIME_DIR, tmpdir(), '/tmp'].filter((b): b is string => !!b);
}

/**
 * Windows has no socket files: Node serves local sockets as named pipes. The name is
 * unguessable, and libuv's default pipe DACL gives other users at most read access, which
 * cannot send a request. Untested here (no Windows in CI).
 */
function createPrivatePipe(): PrivateSocketDir {
  const name = `\\\\.\\pipe\\${PREFIX}${process.pid}-${randomBytes(12).toString('hex')}`;
  return { dir: '', socketPath: name, remove: () => {} };
}

export function createPrivateSocketDir(
  socketName = 'kubelet.sock',
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): PrivateSocketDir {
  if (platform === 'win32') return createPrivatePipe();
  for (const base of bases(env)) {
    // mkdtemp adds 6 characters.
    if (join(base, `${PREFIX}${process.pid}-XXXXXX`, socketName).length > MAX_SOCKET_PATH) continue;
    removeStaleSocketDirs(base);
    let dir: string;
    try {
      dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
    } catch {
      continue;
    }
    chmodSync(dir, 0o700);
    live.add(dir);
    installExitHook();
    return {
      dir,
      socketPath: join(dir, socketName),
      remove: () => {
        live.delete(dir);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  throw new Error(
    `cannot create a private socket directory: every candidate (${bases(env).join(', ')}) is too long for a ` +
      `UNIX socket path or not writable; set XDG_RUNTIME_DIR or TMPDIR to a short writable directory`,
  );
}
