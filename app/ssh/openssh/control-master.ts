import { existsSync } from 'node:fs';
import { loginTimedOut, type SshError } from '../ssh-errors';
import { controlDir, controlPathFor } from './control-dir';
import { loginSettings, type LoginOverrides, type LoginSettings } from './login-settings';
import { runSsh, sshArgv, type OpenSshClient, type OpenSshDestination } from './openssh-client';
import type { PromptWait } from './prompt-wait';

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
  /** What the login is held to (ssh_config, or the built-in transport's defaults). */
  settings: LoginSettings;
}

export interface MasterOptions {
  /** Added to ssh's environment (the askpass helper's variables). */
  env?: Record<string, string>;
  /** Hand the login's -v lines here. */
  verbose?: (line: string) => void;
  /** ConnectTimeout and keepalives other than ssh_config's (tests). */
  overrides?: LoginOverrides;
  /** Questions to the user: their wait does not count against the login's deadline. */
  prompts?: PromptWait;
  /** Abandons the login (ssh is ended). */
  signal?: AbortSignal;
  /** The login, given ConnectTimeout `timeoutMs`, failed: what ssh said, as an error (the classifier). */
  failure: (stderr: string, code: number | null, timeoutMs: number) => SshError;
}

const check = async (client: OpenSshClient, d: OpenSshDestination, flags: string[]) => (await runSsh(client, sshArgv(d, [...flags, '-O', 'check']))).code === 0;

/** Logins in progress in this process, by control path: nodes opened together log in once. */
const starting = new Map<string, Promise<void>>();

/**
 * ssh's ConnectTimeout covers reaching the host and its banner, not the login after it: an sshd (or its PAM)
 * that never answers authentication would hold ssh forever. From the host key on (-v says when), the login
 * gets ConnectTimeout again, as on the built-in transport; a question to the user stops the clock, and the
 * answer starts it afresh.
 */
function loginDeadline(ms: number, prompts: PromptWait | undefined, expire: () => void) {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    if (started && !prompts?.asking()) timer = setTimeout(expire, ms);
  };
  const unsubscribe = prompts?.onChange(arm);
  return {
    onLine: (line: string) => {
      if (started || !line.startsWith('debug1: Server host key: ')) return;
      started = true;
      arm();
    },
    stop: () => {
      started = false;
      clearTimeout(timer);
      unsubscribe?.();
    },
  };
}

/** Logs in as a master on `path`: always with -v, whose lines say when the host key came (and which, for errors). */
async function logIn(client: OpenSshClient, d: OpenSshDestination, path: string, settings: LoginSettings, options: MasterOptions): Promise<void> {
  const stop = new AbortController();
  const abandon = () => stop.abort();
  options.signal?.addEventListener('abort', abandon, { once: true });
  let timedOut = false;
  const deadline = loginDeadline(settings.connectTimeoutMs, options.prompts, () => {
    timedOut = true;
    stop.abort();
  });
  const flags = [
    '-M', '-N', '-f', '-v', '-S', path,
    '-o', `ControlPersist=${CONTROL_PERSIST_SECONDS}`,
    // Forwarded sockets (-O forward -L) are only ours, and a stale one from an earlier master is replaced.
    '-o', 'StreamLocalBindMask=0177', '-o', 'StreamLocalBindUnlink=yes',
    ...settings.flags,
  ];
  try {
    const r = await runSsh(client, sshArgv(d, flags), options.env, (line) => {
      deadline.onLine(line);
      options.verbose?.(line);
    }, stop.signal);
    if (timedOut) throw loginTimedOut(settings.label, settings.connectTimeoutMs);
    if (r.code !== 0) throw options.failure(r.stderr, r.code, settings.connectTimeoutMs);
  } finally {
    deadline.stop();
    options.signal?.removeEventListener('abort', abandon);
  }
}

export async function ensureMaster(client: OpenSshClient, d: OpenSshDestination, options: MasterOptions): Promise<ControlMaster> {
  const settings = await loginSettings(client, d, options.overrides);
  // The user's own ControlPath (ssh_config ControlMaster/ControlPath) with a live master on it. Without one
  // the check is not run: it can only fail, and at 100 nodes through a bastion its ssh runs cost seconds.
  if (settings.userControlPath && (await check(client, d, []))) return { muxFlags: ['-o', 'ControlMaster=no'], own: false, settings };
  const path = controlPathFor(controlDir(client.env), sshArgv(d, []));
  const master: ControlMaster = { muxFlags: ['-S', path, '-o', 'ControlMaster=no'], own: true, path, settings };
  let login = starting.get(path);
  if (!login) {
    login = (async () => {
      // No socket, no master of an earlier run to ask (an ssh run fewer per node when many open at once).
      if (existsSync(path) && (await check(client, d, ['-S', path]))) return;
      await logIn(client, d, path, settings, options);
    })().finally(() => starting.delete(path));
    starting.set(path, login);
  }
  await login;
  return master;
}
