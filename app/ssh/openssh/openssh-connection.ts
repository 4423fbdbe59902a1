import { watchLinkSilence, type LinkSilence } from '../link-silence';
import { createPrivateSocketDir } from '../private-socket-dir';
import type { SshGOutput } from '../ssh-config-openssh';
import type { SshConnection } from '../ssh-connection';
import { cancelled, keepaliveLost, SshError, type HopLabel } from '../ssh-errors';
import type { SshPrompter } from '../ssh-prompter';
import { ensureMaster, type ControlMaster, type MasterOptions } from './control-master';
import { forwardedSocketPath, openSshChannels } from './openssh-channels';
import { findOpenSsh, runSsh, spawnSsh, sshArgv, streamsToUnixSockets, type OpenSshClient, type OpenSshDestination } from './openssh-client';
import { classifyOpenSshFailure } from './openssh-failure';
import { askpassFor, type AskpassSession } from './askpass-server';
import { dialConfig } from './dial-config';
import type { LoginOverrides } from './login-settings';
import { throughSharedJumps } from './shared-jumps';
import { holderCommand, readHolderProbes } from './holder-probe';

/**
 * A node's connection through the user's own OpenSSH client: everything in their ssh_config holds by
 * construction (ProxyCommand, certificates, FIDO keys, GSSAPI, KRLs, algorithms). The login is a
 * ControlMaster's; Nodescope keeps one `cat` running on it while connected (its session first looks at the
 * kubelet's sockets for the socket bridge: holder-probe.ts), which says when the master
 * is gone, keeps ControlPersist from ending it under us, and (being a session) makes sshd ≤ 10.0 turn
 * Nagle off on the connection, as the built-in transport's no-op exec does. It also echoes a byte sent
 * every keepalive interval: the link is silent when the echo stops (the master's own ServerAlive
 * keepalives are out of our sight), and given up when the master's keepalives give up on it.
 * Every ssh it runs asks its questions (passphrase, password, host key) through an askpass helper, which
 * puts them to `prompter`: the same prompts as the built-in transport, in the app and on the terminal. A
 * master's login has a helper of its own (control-master.ts), shared by the nodes waiting for that login.
 */

export interface OpenSshConnectionOptions extends LoginOverrides {
  env?: NodeJS.ProcessEnv;
  /** Answers ssh's questions (through the askpass helper), as it answers the built-in transport's. */
  prompter: SshPrompter;
  /** ssh's -v lines of the login (it always runs with -v) go here. */
  verbose?: (line: string) => void;
  /** Which master each login rides (the user's, ours reused, ours logging in), for the CLI's -v. */
  announce?: (line: string) => void;
  /** Told as a login this dial waits for moves on (each of its -v lines): the open limit keeps the node's slot. */
  onProgress?: () => void;
  signal?: AbortSignal;
  /** UNIX sockets on the node its streams will open (the kubelet's), for a new master of ours to forward as it logs in. */
  forwardSockets?: readonly string[];
  /** The node's `ssh -G`, when its session ran it just before this dial (its first) to name the node. */
  nodeConfig?: SshGOutput;
}

/** How often a master is checked once its `cat` could not tell (a node whose shell refuses commands). */
const CHECK_INTERVAL_MS = 5_000;

export async function openOpenSshConnection(d: OpenSshDestination, label: HopLabel, options: OpenSshConnectionOptions): Promise<SshConnection> {
  const client: OpenSshClient = await findOpenSsh(options.env).catch((err: Error) => {
    throw new SshError('NEEDS_OPENSSH', err.message, 'Install the OpenSSH client, or choose the built-in transport.');
  });
  if (options.signal?.aborted) throw cancelled(label);
  const askpass = await askpassFor(options.prompter, label);
  try {
    return await connectThrough(client, d, label, options, askpass);
  } catch (err) {
    await askpass?.close();
    throw err;
  }
}

async function connectThrough(client: OpenSshClient, d: OpenSshDestination, label: HopLabel, options: OpenSshConnectionOptions, askpass: AskpassSession | null): Promise<SshConnection> {
  const env = askpass?.env ?? {};
  const { connectTimeoutMs, keepaliveIntervalMs, keepaliveCountMax } = options;
  let throughJump = false;
  const masterOptions = (host: string, port = label.port): MasterOptions => ({
    prompter: options.prompter,
    overrides: { connectTimeoutMs, keepaliveIntervalMs, keepaliveCountMax },
    ...(options.verbose ? { verbose: options.verbose } : {}),
    ...(options.announce ? { announce: options.announce } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    failure: (stderr, code, timeoutMs) => classifyOpenSshFailure(stderr, code, { host, port, stage: 'login', timeoutMs, throughJump }),
  });
  // One `ssh -G` per hop in this dial, the node's own perhaps run by its session already.
  const config = dialConfig(client, options.nodeConfig && { d, config: options.nodeConfig });
  const nodeConfig = await config(d);
  const placed = await throughSharedJumps(client, d, config, (host) => masterOptions(host, 22));
  throughJump = placed !== d;
  // The kubelet's socket forwarded by a new master's own login (an ssh run fewer), into a directory only the
  // user can enter; ssh that streams to a UNIX socket itself (-W) needs no forward.
  const sockets = streamsToUnixSockets(client) ? [] : options.forwardSockets ?? [];
  const dir = sockets.length ? createPrivateSocketDir('s') : undefined;
  const planned = new Map(dir ? sockets.map((path, i) => [path, forwardedSocketPath(dir, i)]) : []);
  // The node's settings as ssh_config names it: the ProxyCommand through its jump host's master changes none a master reads.
  const master: ControlMaster = await ensureMaster(client, placed, nodeConfig, { ...masterOptions(label.host), forwards: [...planned].map(([path, local]) => `${local}:${path}`) }).catch((err: unknown) => {
    dir?.remove();
    throw options.signal?.aborted ? cancelled(label) : err;
  });
  if (options.signal?.aborted) {
    dir?.remove();
    throw cancelled(label);
  }
  // The session holding the master looks at the kubelet's sockets first: the bridge needs no session of its own for that.
  const looked = options.forwardSockets ?? [];
  const holder = spawnSsh(client, sshArgv(placed, [...master.muxFlags, '-T'], holderCommand(looked)), 'pipe', env);
  const lookedAt = readHolderProbes(holder.stdout!, looked);
  const channels = openSshChannels({
    client,
    destination: placed,
    master,
    env,
    lookedAt,
    ...(dir ? { forwarded: { dir, sockets: master.forwarded ? planned : new Map() } } : {}),
    failure: (stderr, code, stage, path) => classifyOpenSshFailure(stderr, code, { host: label.host, port: label.port, stage, ...(path ? { path } : {}) }),
  });
  const where = `${label.host}:${label.port}`;

  let open = true;
  let closedByUs = false;
  let resolveClosed: (e: SshError | null) => void = () => {};
  const closed = new Promise<SshError | null>((r) => (resolveClosed = r));
  const end = (cause: SshError | null) => {
    if (!open) return;
    open = false;
    clearInterval(poll);
    clearInterval(ping);
    clearTimeout(giveUp);
    silence?.stop();
    holder.kill('SIGTERM');
    // The askpass helper goes once nothing of ours can ask any more.
    void channels.close().finally(() => askpass?.close());
    resolveClosed(closedByUs ? null : cause);
  };
  const lost = (said: string) =>
    new SshError('CONNECTION_LOST', `SSH connection to ${where} closed${said ? `: ${said}` : ''}`, 'The connection ended; it will be re-dialled.');
  const check = async () => (await runSsh(client, sshArgv(placed, [...master.muxFlags, '-O', 'check']), env)).code === 0;

  let poll: NodeJS.Timeout | undefined;
  let holderStderr = '';
  holder.stderr!.on('data', (b: Buffer) => (holderStderr = (holderStderr + b.toString()).slice(-4096)));
  holder.stdin!.on('error', () => {});
  holder.once('error', () => {});
  const { intervalMs, countMax } = master.settings.keepalive;
  const silenceListeners = new Set<(silentSince: number | null) => void>();
  let giveUp: NodeJS.Timeout | undefined;
  let silence: LinkSilence | undefined;
  let ping: NodeJS.Timeout | undefined;
  // cat echoes the pings only once the holder's look at the sockets is over, which may take seconds (a kubelet
  // slow to accept): the link is not silent before.
  const watchSilence = () => {
    silence = watchLinkSilence(holder.stdout!, intervalMs, (since) => {
      for (const l of silenceListeners) l(since);
      clearTimeout(giveUp);
      // The master's keepalives give up on the link after the same count, a little later; giving up first makes
      // the cause known before its streams end without a word. Ours goes with it; the re-dial logs in afresh.
      if (since !== null) {
        giveUp = setTimeout(() => {
          end(keepaliveLost(where));
          if (master.own) void runSsh(client, sshArgv(placed, [...master.muxFlags, '-O', 'exit']), env);
        }, Math.max(0, since + intervalMs * countMax - Date.now()));
        giveUp.unref();
      }
    });
    ping = setInterval(() => holder.stdin!.writable && holder.stdin!.write('.'), intervalMs);
    ping.unref();
  };
  void Promise.all(looked.map((path) => lookedAt(path))).then(() => open && holder.exitCode === null && watchSilence());
  holder.once('exit', () => {
    if (!open) return;
    clearInterval(ping);
    // Silent until the master went: its keepalives gave up on the link.
    const silent = (silence?.since() ?? null) !== null;
    silence?.stop();
    // The master may live on (the node's shell refused the command): then it is checked now and then.
    void check().then((alive) => {
      if (!alive) return end(silent ? keepaliveLost(where) : lost(holderStderr.trim()));
      poll = setInterval(() => void check().then((ok) => ok || end(lost(''))), CHECK_INTERVAL_MS);
      poll.unref();
    });
  });

  return {
    channels,
    target: label,
    closed,
    onSilence: (listener) => {
      silenceListeners.add(listener);
      return () => silenceListeners.delete(listener);
    },
    isOpen: () => open,
    close: () => {
      closedByUs = true;
      end(null);
    },
  };
}
