import { existsSync } from 'node:fs';
import { cleanUpOnStopSignal } from '../../process/stop-signals';
import type { SshGOutput } from '../ssh-config-openssh';
import { handedOnPrompter, unlessAborted, type Asker } from '../handed-on-prompter';
import { cancelled, loginTimedOut, type SshError } from '../ssh-errors';
import type { SshPrompter } from '../ssh-prompter';
import { askpassFor } from './askpass-server';
import { controlDir, controlPathFor } from './control-dir';
import { loginSettings, type LoginOverrides, type LoginSettings } from './login-settings';
import { runSsh, sshArgv, type OpenSshClient, type OpenSshDestination } from './openssh-client';
import { watchPrompts, type PromptWait } from './prompt-wait';

/**
 * One logged-in ssh per destination that every stream and command rides (ssh's ControlMaster): the user's own
 * master when their ssh_config has one running for it, else Nodescope's own in a private directory. Ours stays
 * up for a while after the last use (ControlPersist), so the next CLI run reuses the login instead of logging
 * in again. Nodes that need the same master (the nodes behind one jump host) wait for one login, whose
 * questions go to one of them at a time through an askpass helper of the login's own: when that node is
 * removed before answering, the question is asked again for the next (handedOnPrompter), as on the
 * built-in transport.
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
  /** Its login made the caller's `forwards` (ours, logged in for this caller); else they are the caller's to ask for. */
  forwarded: boolean;
}

export interface MasterOptions {
  /** Answers the login's questions (through its askpass helper) while this caller waits for it. */
  prompter: SshPrompter;
  /** Hand the login's -v lines here. */
  verbose?: (line: string) => void;
  /** Told at each -v line of the login this caller waits for, its own or one it joined: the open limit's progress. */
  onProgress?: () => void;
  /** Told which master the streams ride (the CLI's -v): the user's, ours reused, or ours logging in. */
  announce?: (line: string) => void;
  /** ConnectTimeout and keepalives other than ssh_config's (tests). */
  overrides?: LoginOverrides;
  /** This caller gives up; the login is abandoned (ssh is ended) once every caller waiting for it has. */
  signal?: AbortSignal;
  /**
   * Local forwards (`LOCAL:REMOTE`) for the login to make when it is ours and starts here: an `ssh -O forward`
   * run fewer per node. A master already up (the user's, ours reused or being logged in for another) makes none.
   */
  forwards?: string[];
  /** The login, given ConnectTimeout `timeoutMs`, failed: what ssh said, as an error (the classifier). */
  failure: (stderr: string, code: number | null, timeoutMs: number) => SshError;
}

const check = async (client: OpenSshClient, d: OpenSshDestination, flags: string[]) => (await runSsh(client, sshArgv(d, [...flags, '-O', 'check']))).code === 0;

/** A login in progress, and who waits for it. */
interface Login {
  /** Whether it logged in (false: it found ours up, from an earlier run). */
  done: Promise<boolean>;
  /** Who may answer its questions, first comer first; each told as it moves on. */
  askers: (Asker & Pick<MasterOptions, 'onProgress'>)[];
  /** Ends ssh: aborted when the last asker gives up. */
  abandon: AbortController;
}

/** Logins in progress in this process, by control path: nodes opened together log in once. */
const starting = new Map<string, Login>();

/**
 * ssh's ConnectTimeout covers reaching the host and its banner, not the login after it: an sshd (or its PAM)
 * that never answers authentication would hold ssh forever. From the host key on (-v says when), the login
 * gets ConnectTimeout again, as on the built-in transport; a question to the user stops the clock, and the
 * answer starts it afresh.
 */
function loginDeadline(ms: number, prompts: PromptWait, expire: () => void) {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    if (started && !prompts.asking()) timer = setTimeout(expire, ms);
  };
  const unsubscribe = prompts.onChange(arm);
  return {
    onLine: (line: string) => {
      if (started || !line.startsWith('debug1: Server host key: ')) return;
      started = true;
      arm();
    },
    stop: () => {
      started = false;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}

/** How each login in progress ends its ssh (Logins' abandon), for when the process ends. */
const inProgress = new Set<() => void>();
let forgetProcessListeners: (() => void) | undefined;
const endEveryLogin = () => {
  for (const end of [...inProgress]) end();
};

/**
 * Runs `end` when the process ends mid-login (`kill PID`, a supervisor's SIGTERM, which unlike a terminal's
 * Ctrl-C reaches this process alone, or an exit): ssh would otherwise wait for the server with parent 1, as
 * long as sshd's LoginGraceTime. One set of listeners for every login, not one each: a fleet logs in to
 * a hundred nodes at once. Returns the function that forgets `end`.
 */
function endsWithProcess(end: () => void): () => void {
  inProgress.add(end);
  if (!forgetProcessListeners) {
    const forgetSignals = cleanUpOnStopSignal(endEveryLogin);
    process.on('exit', endEveryLogin);
    forgetProcessListeners = () => {
      forgetSignals();
      process.off('exit', endEveryLogin);
    };
  }
  return () => {
    inProgress.delete(end);
    if (inProgress.size > 0) return;
    forgetProcessListeners?.();
    forgetProcessListeners = undefined;
  };
}

/**
 * Logs in as a master on `path`, asking `prompter`: always with -v, whose lines say when the host key came
 * (and which, for errors).
 */
async function logIn(client: OpenSshClient, d: OpenSshDestination, path: string, settings: LoginSettings, prompter: SshPrompter, options: MasterOptions, signal: AbortSignal, heard: () => void): Promise<void> {
  const prompts = watchPrompts(prompter);
  const askpass = await askpassFor(prompts.prompter, settings.label);
  const stop = new AbortController();
  const abandon = () => stop.abort();
  signal.addEventListener('abort', abandon, { once: true });
  const forgetProcessEnd = endsWithProcess(abandon);
  let timedOut = false;
  const deadline = loginDeadline(settings.connectTimeoutMs, prompts, () => {
    timedOut = true;
    stop.abort();
  });
  const flags = [
    '-M', '-N', '-f', '-v', '-S', path,
    '-o', `ControlPersist=${CONTROL_PERSIST_SECONDS}`,
    // Forwarded sockets (-L, -O forward -L) are only ours, and a stale one from an earlier master is replaced.
    '-o', 'StreamLocalBindMask=0177', '-o', 'StreamLocalBindUnlink=yes',
    ...settings.flags,
    ...(options.forwards ?? []).flatMap((f) => ['-L', f]),
  ];
  try {
    const r = await runSsh(client, sshArgv(d, flags), askpass?.env, (line) => {
      deadline.onLine(line);
      heard();
      options.verbose?.(line);
    }, stop.signal);
    if (timedOut) throw loginTimedOut(settings.label, settings.connectTimeoutMs);
    if (r.code !== 0) throw options.failure(r.stderr, r.code, settings.connectTimeoutMs);
  } finally {
    deadline.stop();
    signal.removeEventListener('abort', abandon);
    forgetProcessEnd();
    await askpass?.close();
  }
}

/** `config`: what `ssh -G` said of `d` in this dial (dial-config.ts). */
export async function ensureMaster(client: OpenSshClient, d: OpenSshDestination, config: SshGOutput, options: MasterOptions): Promise<ControlMaster> {
  const settings = loginSettings(config, d, options.overrides);
  const who = `${settings.label.user}@${settings.label.host}:${settings.label.port}`;
  // The user's own ControlPath (ssh_config ControlMaster/ControlPath) with a live master on it. Without one
  // the check is not run: it can only fail, and at 100 nodes through a bastion its ssh runs cost seconds.
  if (settings.userControlPath && (await check(client, d, []))) {
    options.announce?.(`${who}: using your own ControlMaster (ssh_config ControlPath)`);
    return { muxFlags: ['-o', 'ControlMaster=no'], own: false, settings, forwarded: false };
  }
  const path = controlPathFor(controlDir(client.env), sshArgv(d, []));
  const joined = starting.get(path);
  if (joined) options.announce?.(`${who}: joining the login in progress, Nodescope's master ${path}`);
  const login = joined ?? startLogin(client, d, path, settings, options, who);
  const asker: Login['askers'][number] = { prompter: options.prompter, signal: options.signal, onProgress: options.onProgress };
  login.askers.push(asker);
  let loggedIn: boolean;
  try {
    loggedIn = await unlessAborted(login.done, options.signal, () => cancelled(settings.label));
  } finally {
    login.askers.splice(login.askers.indexOf(asker), 1);
    // Everyone gave up: the login is abandoned, and whoever comes next starts a new one.
    if (login.askers.length === 0) {
      if (starting.get(path) === login) starting.delete(path);
      login.abandon.abort();
    }
  }
  // A login joined was started with another caller's forwards, not this one's.
  return { muxFlags: ['-S', path, '-o', 'ControlMaster=no'], own: true, path, settings, forwarded: !joined && loggedIn && !!options.forwards?.length };
}

/** The login on `path` that callers join; its questions go to them one at a time. */
function startLogin(client: OpenSshClient, d: OpenSshDestination, path: string, settings: LoginSettings, options: MasterOptions, who: string): Login {
  const askers: Login['askers'] = [];
  const abandon = new AbortController();
  const prompter = handedOnPrompter(() => askers, () => cancelled(settings.label));
  const login: Login = {
    askers,
    abandon,
    done: (async () => {
      // No socket, no master of an earlier run to ask (an ssh run fewer per node when many open at once).
      if (existsSync(path) && (await check(client, d, ['-S', path]))) {
        options.announce?.(`${who}: reusing the login of Nodescope's master ${path}`);
        return false;
      }
      options.announce?.(`${who}: logging in, Nodescope's master ${path}`);
      await logIn(client, d, path, settings, prompter, options, abandon.signal, () => {
        for (const a of askers) a.onProgress?.();
      });
      return true;
    })().finally(() => {
      if (starting.get(path) === login) starting.delete(path);
    }),
  };
  starting.set(path, login);
  return login;
}
