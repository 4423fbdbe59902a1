import type { SshError } from '../ssh-errors';
import { controlDir, controlPathFor } from './control-dir';
import { runSsh, sshArgv, type OpenSshClient, type OpenSshDestination } from './openssh-client';

/**
 * One logged-in ssh per destination that every stream and command rides (ssh's ControlMaster): the user's own
 * master when their ssh_config has one running for it, else Nodescope's own in a private directory. Ours stays
 * up for a while after the last use (ControlPersist), so the next CLI run reuses the login instead of logging
 * in again.
 */

/** How long our master outlives its last stream: a few CLI runs in a row share one login. */
export const CONTROL_PERSIST_SECONDS = 300;

export interface ControlMaster {
  /** Flags that make an ssh run use this master and never become one. */
  muxFlags: string[];
  /** Nodescope's own master (false: the user's, from their ControlPath). */
  own: boolean;
  /** Its socket, when ours. */
  path?: string;
}

export interface MasterOptions {
  /** Added to ssh's environment (the askpass helper's variables). */
  env?: Record<string, string>;
  /** Pass -v to the login and hand its lines here. */
  verbose?: (line: string) => void;
  /** Abandons the login (ssh is ended). */
  signal?: AbortSignal;
  /** The login failed: what ssh said, as an error (the classifier). */
  failure: (stderr: string, code: number | null) => SshError;
}

const check = async (client: OpenSshClient, d: OpenSshDestination, flags: string[]) => (await runSsh(client, sshArgv(d, [...flags, '-O', 'check']))).code === 0;

/** Logins in progress in this process, by control path: nodes opened together log in once. */
const starting = new Map<string, Promise<void>>();

export async function ensureMaster(client: OpenSshClient, d: OpenSshDestination, options: MasterOptions): Promise<ControlMaster> {
  // The user's own ControlPath (ssh_config ControlMaster/ControlPath) with a live master on it.
  if (await check(client, d, [])) return { muxFlags: ['-o', 'ControlMaster=no'], own: false };
  const path = controlPathFor(controlDir(client.env), sshArgv(d, []));
  const master: ControlMaster = { muxFlags: ['-S', path, '-o', 'ControlMaster=no'], own: true, path };
  let login = starting.get(path);
  if (!login) {
    login = (async () => {
      if (await check(client, d, ['-S', path])) return;
      const flags = [
        '-M', '-N', '-f', '-S', path,
        '-o', `ControlPersist=${CONTROL_PERSIST_SECONDS}`,
        // Forwarded sockets (-O forward -L) are only ours, and a stale one from an earlier master is replaced.
        '-o', 'StreamLocalBindMask=0177', '-o', 'StreamLocalBindUnlink=yes',
        ...(options.verbose ? ['-v'] : []),
      ];
      const r = await runSsh(client, sshArgv(d, flags), options.env, options.verbose, options.signal);
      if (r.code !== 0) throw options.failure(r.stderr, r.code);
    })().finally(() => starting.delete(path));
    starting.set(path, login);
  }
  await login;
  return master;
}
