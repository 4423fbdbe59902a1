/**
 * A ControlMaster directory of a bench's own. The OpenSSH transport leaves its masters running for the next
 * run (ControlPersist), in one directory per user (app/ssh/openssh/control-dir.ts, under XDG_RUNTIME_DIR)
 * that other runs on this machine share: a bench that must start cold, or must not leave masters behind,
 * points XDG_RUNTIME_DIR here and ends what it finds, never another run's masters.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateMasters {
  /** XDG_RUNTIME_DIR for the transport: in this process's env, or a child's. */
  runtimeDir: string;
  /** Ends every master in the directory (`ssh -O exit`). */
  endAll(): Promise<void>;
  /** Ends them and removes the directory. */
  remove(): Promise<void>;
}

export async function privateMasters(): Promise<PrivateMasters> {
  const runtimeDir = await mkdtemp(join(tmpdir(), 'ns-xdg-'));
  const endAll = async () => {
    const dir = join(runtimeDir, `nodescope-ssh-${process.getuid?.() ?? 0}`);
    // The destination is not read: -S names the master.
    for (const name of await readdir(dir).catch(() => [])) spawnSync('ssh', ['-S', join(dir, name), '-O', 'exit', '--', 'master'], { stdio: 'ignore' });
  };
  return {
    runtimeDir,
    endAll,
    remove: async () => {
      await endAll();
      await rm(runtimeDir, { recursive: true, force: true });
    },
  };
}
