import type { SshConnection } from '../ssh-connection';
import { cancelled, SshError, type HopLabel } from '../ssh-errors';
import { ensureMaster, type ControlMaster, type MasterOptions } from './control-master';
import { openSshChannels } from './openssh-channels';
import { findOpenSsh, runSsh, spawnSsh, sshArgv, type OpenSshClient, type OpenSshDestination } from './openssh-client';
import { sshExitError } from './ssh-exit-error';
import { throughSharedJumps } from './shared-jumps';

/**
 * A node's connection through the user's own OpenSSH client: everything in their ssh_config holds by
 * construction (ProxyCommand, certificates, FIDO keys, GSSAPI, KRLs, algorithms). The login is a
 * ControlMaster's; Nodescope keeps one `cat` running on it while connected, which says when the master
 * is gone, keeps ControlPersist from ending it under us, and (being a session) makes sshd ≤ 10.0 turn
 * Nagle off on the connection, as the built-in transport's no-op exec does.
 */

export interface OpenSshConnectionOptions {
  env?: NodeJS.ProcessEnv;
  /** Added to every ssh's environment: the askpass helper's variables (no secret). */
  askpassEnv?: Record<string, string>;
  /** Runs ssh's login with -v, its lines here. */
  verbose?: (line: string) => void;
  signal?: AbortSignal;
}

/** How often a master is checked once its `cat` could not tell (a node whose shell refuses commands). */
const CHECK_INTERVAL_MS = 5_000;

export async function openOpenSshConnection(d: OpenSshDestination, label: HopLabel, options: OpenSshConnectionOptions = {}): Promise<SshConnection> {
  const client: OpenSshClient = await findOpenSsh(options.env).catch((err: Error) => {
    throw new SshError('NEEDS_OPENSSH', err.message, 'Install the OpenSSH client, or choose the built-in transport.');
  });
  const env = options.askpassEnv ?? {};
  const masterOptions = (host: string, port = label.port): MasterOptions => ({
    env,
    ...(options.verbose ? { verbose: options.verbose } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    failure: (stderr, code) => sshExitError(stderr, code, { host, port, stage: 'login' }),
  });
  if (options.signal?.aborted) throw cancelled(label);
  const placed = await throughSharedJumps(client, d, (host) => masterOptions(host, 22));
  const master: ControlMaster = await ensureMaster(client, placed, masterOptions(label.host)).catch((err: unknown) => {
    throw options.signal?.aborted ? cancelled(label) : err;
  });
  if (options.signal?.aborted) throw cancelled(label);
  const channels = openSshChannels({
    client,
    destination: placed,
    master,
    env,
    failure: (stderr, code, stage, path) => sshExitError(stderr, code, { host: label.host, port: label.port, stage, ...(path ? { path } : {}) }),
  });

  let open = true;
  let closedByUs = false;
  let resolveClosed: (e: SshError | null) => void = () => {};
  const closed = new Promise<SshError | null>((r) => (resolveClosed = r));
  const end = (cause: SshError | null) => {
    if (!open) return;
    open = false;
    clearInterval(poll);
    holder.kill('SIGTERM');
    void channels.close();
    resolveClosed(closedByUs ? null : cause);
  };
  const lost = (said: string) =>
    new SshError('CONNECTION_LOST', `SSH connection to ${label.host}:${label.port} closed${said ? `: ${said}` : ''}`, 'The connection ended; it will be re-dialled.');
  const check = async () => (await runSsh(client, sshArgv(placed, [...master.muxFlags, '-O', 'check']), env)).code === 0;

  let poll: NodeJS.Timeout | undefined;
  const holder = spawnSsh(client, sshArgv(placed, [...master.muxFlags, '-T'], 'cat >/dev/null'), 'pipe', env);
  let holderStderr = '';
  holder.stderr!.on('data', (b: Buffer) => (holderStderr = (holderStderr + b.toString()).slice(-4096)));
  holder.stdout!.resume();
  holder.stdin!.on('error', () => {});
  holder.once('error', () => {});
  holder.once('exit', () => {
    if (!open) return;
    // The master may live on (the node's shell refused the command): then it is checked now and then.
    void check().then((alive) => {
      if (!alive) return end(lost(holderStderr.trim()));
      poll = setInterval(() => void check().then((ok) => ok || end(lost(''))), CHECK_INTERVAL_MS);
      poll.unref();
    });
  });

  return {
    channels,
    target: label,
    closed,
    // ssh's own ServerAliveInterval gives up on a silent link; the master then exits, which closes this.
    onSilence: () => () => {},
    isOpen: () => open,
    close: () => {
      closedByUs = true;
      end(null);
    },
  };
}
