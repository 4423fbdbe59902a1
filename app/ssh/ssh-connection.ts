import { createConnection } from 'node:net';
import type { Duplex } from 'node:stream';
import { Client, type ClientChannel, type ConnectConfig } from 'ssh2';
import { connectAlgorithms } from './host-key-algorithms';
import { HostKeyError, verifyHostKey, type StrictHostKeyChecking } from './host-key-verification';
import { watchLinkSilence } from './link-silence';
import type { NodeChannels } from './node-channels';
import { ssh2Channels } from './ssh2-channels';
import type { AuthMethodName } from './auth-methods';
import type { HopAlgorithms } from './ssh-algorithms';
import { createAuthSession } from './ssh-auth';
import { resolveAgentPath } from './ssh-agent-path';
import { cancelled, classifyConnectError, loginTimedOut, noSshAnswer, SshError, type HopLabel } from './ssh-errors';
import type { SshPrompter } from './ssh-prompter';
import type { JumpConnectionPool } from './shared-jump-connections';

/**
 * Opens an SSH connection to a node, through any number of ProxyJump hops, each hop with its
 * own authentication, host key check, keepalives and the sshd Nagle fix.
 */

export interface SshHop extends HopLabel {
  /** HostKeyAlias: the name to look up in known_hosts instead of host and port. */
  hostKeyAlias?: string;
  /** RevokedHostKeys: a file of public keys refused whatever known_hosts says. */
  revokedHostKeys?: string;
  /** UserKnownHostsFile then GlobalKnownHostsFile entries; 'remember' writes to the first. */
  knownHostsFiles: string[];
  strictHostKeyChecking: StrictHostKeyChecking;
  /** HashKnownHosts: remember hosts hashed. */
  hashKnownHosts?: boolean;
  /** BatchMode: never ask for passphrases or passwords. */
  batchMode?: boolean;
  identityFiles: string[];
  /** IdentitiesOnly: offer only agent keys matching identityFiles. */
  identitiesOnly?: boolean;
  /** IdentityAgent from ssh_config; undefined: $SSH_AUTH_SOCK (or the Windows pipe). */
  identityAgent?: string;
  /** ConnectTimeout in seconds. */
  connectTimeout?: number;
  /** AddressFamily inet / inet6; BindAddress: the local address to connect from. */
  addressFamily?: 'inet' | 'inet6';
  bindAddress?: string;
  /** ssh_config settings this transport does not use, to be shown to the user (e.g. ControlMaster). */
  notices?: string[];
  /** PubkeyAcceptedAlgorithms: key types that may be offered; default all. */
  pubkeyAlgorithms?: string[];
  /** ssh_config login features only OpenSSH has (CertificateFile, GSSAPI), named if the login fails. */
  authUnsupported?: string[];
  /** Login methods to try, in order (ssh_config PreferredAuthentications etc.); default ssh's. */
  authMethods?: AuthMethodName[];
  /** From ssh_config (HostKeyAlgorithms, KexAlgorithms, Ciphers, MACs); default OpenSSH's defaults. */
  algorithms?: HopAlgorithms;
  /** ServerAliveInterval in seconds / ServerAliveCountMax. */
  serverAliveInterval?: number;
  serverAliveCountMax?: number;
}

export interface SshTarget extends SshHop {
  /** ProxyJump chain, outermost first. */
  proxyJump: SshHop[];
}

export interface OpenSshOptions {
  prompter: SshPrompter;
  /** Keepalive period; default ServerAliveInterval or 5 s. */
  keepaliveIntervalMs?: number;
  /** Unanswered keepalives before the link counts as dead; default ServerAliveCountMax or 3. */
  keepaliveCountMax?: number;
  /**
   * Time allowed to reach the host, and again to log in (to the end of authentication), default ConnectTimeout
   * or 20 s; time spent waiting for the user's answer to a question does not count.
   */
  connectTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Abandons the dial (e.g. the node was closed while a host key question waits): every hop is torn down. */
  signal?: AbortSignal;
  /**
   * Shares the connection to the jump hosts among every node behind them, as OpenSSH's ControlMaster
   * would: one login on the bastion for a hundred nodes. Without it each connection dials its own hops.
   */
  jumpPool?: JumpConnectionPool;
  /**
   * Told as the login moves on: a hop's bytes during its handshake, a jump host's channel to the next hop
   * opened. The open limit keeps a node's slot while it moves (a loaded bastion logs in slowly, not never).
   */
  onProgress?(): void;
}

export interface SshConnection {
  /** What rides the connection to the node itself (the last hop). */
  channels: NodeChannels;
  /** Who is logged in where, for messages. */
  target: HopLabel;
  /** Why the connection went away, once it has (null after close()). */
  closed: Promise<SshError | null>;
  /**
   * Calls `listener` each time the node stops answering (a keepalive unanswered: a hung sshd, a cut link), with
   * when it was last heard, and when it answers again (null); the keepalives give up on it after ServerAliveCountMax
   * of them. Returns the unsubscribe function.
   */
  onSilence(listener: (silentSince: number | null) => void): () => void;
  isOpen(): boolean;
  /** Closes every hop. */
  close(): void;
}

/**
 * Without ServerAliveInterval (OpenSSH sends none then, and a dead link waits for TCP: minutes), a keepalive
 * every 5 s: a link that stops answering is given up after 15-20 s, and shown as silent after about 7 s.
 */
const DEFAULT_KEEPALIVE_MS = 5_000;
const DEFAULT_KEEPALIVE_COUNT = 3;
const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;

/**
 * OpenSSH sshd up to 10.0 turns Nagle off only when a session channel runs something, so a
 * connection carrying only forwarded channels stalls ~40 ms per round trip. One no-op exec
 * flips it; nobody waits for it.
 */
function nudgeServerNoDelay(client: Client): void {
  try {
    client.exec('true', (err, ch) => {
      if (err) return;
      ch.on('error', () => {});
      ch.resume();
      ch.stderr.resume();
    });
  } catch {
    // The connection died already; its close handler reports why.
  }
}

/** ssh2 only says "verification failed"; the checker's own error says why. */
function hostKeyRejection(hop: SshHop, err: Error): SshError {
  if (err instanceof SshError) return err;
  return new SshError('HOST_KEY_REJECTED', `Host key of ${hop.host}:${hop.port} not accepted: ${err.message}`,
    err instanceof HostKeyError ? err.remedy : 'Confirm the fingerprint with the node owner, then fix known_hosts and connect again.', err);
}

export interface HopResult {
  client: Client;
  /** The stream the hop's SSH runs over (its TCP socket, or a channel through the previous hop). */
  transport: Duplex;
  /** Keepalive period of the hop, in ms. */
  keepaliveIntervalMs: number;
  /** First error after ready (keepalive timeout, reset...), the cause when it closes. */
  cause(): SshError | null;
}

/** Checks the offered key against known_hosts, asking the prompter about unknown hosts when policy allows. */
function checkHostKey(hop: SshHop, blob: Buffer, prompter: SshPrompter): Promise<void> {
  return verifyHostKey({
    host: hop.host,
    port: hop.port,
    ...(hop.hostKeyAlias ? { hostKeyAlias: hop.hostKeyAlias } : {}),
    ...(hop.revokedHostKeys ? { revokedHostKeys: hop.revokedHostKeys } : {}),
    blob,
    files: hop.knownHostsFiles,
    strict: hop.strictHostKeyChecking,
    hash: hop.hashKnownHosts ?? false,
    prompt: (question) => prompter.hostKey(question),
  });
}

/** The keepalives of `hop`: period in ms and how many may go unanswered (ServerAliveInterval / ServerAliveCountMax). */
export function keepaliveOf(hop: Pick<SshHop, 'serverAliveInterval' | 'serverAliveCountMax'>, options: Pick<OpenSshOptions, 'keepaliveIntervalMs' | 'keepaliveCountMax'>): { intervalMs: number; countMax: number } {
  return {
    intervalMs: options.keepaliveIntervalMs ?? (hop.serverAliveInterval ? hop.serverAliveInterval * 1000 : DEFAULT_KEEPALIVE_MS),
    countMax: options.keepaliveCountMax ?? hop.serverAliveCountMax ?? DEFAULT_KEEPALIVE_COUNT,
  };
}

/** The ConnectTimeout that applies to reaching `hop`, in ms. */
export const connectTimeoutMs = (hop: Pick<SshHop, 'connectTimeout'>, options: Pick<OpenSshOptions, 'connectTimeoutMs'>): number =>
  options.connectTimeoutMs ?? (hop.connectTimeout ? hop.connectTimeout * 1000 : DEFAULT_CONNECT_TIMEOUT_MS);

/** Logs in on `hop`, straight or over `sock` (a channel through the previous hop). */
export async function connectHop(hop: SshHop, sock: Duplex | undefined, options: OpenSshOptions): Promise<HopResult> {
  // What ssh would negotiate, never more (ssh2's defaults include SHA-1 ssh-rsa host keys).
  const algorithms = await connectAlgorithms(hop);
  const keepalive = keepaliveOf(hop, options);
  return new Promise((resolve, reject) => {
    const client = new Client();
    // Our own socket for the first hop (ssh2 keeps its own out of reach), so the link's silence can be heard.
    const transport =
      sock ??
      createConnection({
        host: hop.host,
        port: hop.port,
        // AddressFamily and BindAddress apply to the socket we open (ssh2's own options only to one it opens).
        ...(hop.addressFamily === 'inet' ? { family: 4 } : hop.addressFamily === 'inet6' ? { family: 6 } : {}),
        ...(hop.bindAddress ? { localAddress: hop.bindAddress } : {}),
      });
    let hostKeyError: Error | undefined;
    let settled = false;
    let afterReady: SshError | null = null;

    const timeoutMs = connectTimeoutMs(hop, options);
    // ssh2's readyTimeout would also run while the user reads a host key or passphrase prompt, so our own
    // timer bounds the server's part: reaching the host and the key exchange, then (once the host key is
    // offered) the whole login. A question to the user stops it; the answer starts it afresh.
    let loggingIn = false;
    let asking = 0;
    let timer: NodeJS.Timeout | undefined;
    const onTimeout = () =>
      fail(loggingIn
        ? loginTimedOut(hop, timeoutMs)
        : noSshAnswer(hop, timeoutMs));
    const arm = () => {
      clearTimeout(timer);
      if (!settled && asking === 0) timer = setTimeout(onTimeout, timeoutMs);
    };
    const whileAsking = <Q, A>(ask: (q: Q) => Promise<A>) => async (q: Q): Promise<A> => {
      asking++;
      clearTimeout(timer);
      try {
        return await ask(q);
      } finally {
        asking--;
        arm();
      }
    };
    const asked = hop.batchMode ? { ...options.prompter, passphrase: async () => null, keyboardInteractive: async () => null } : options.prompter;
    const prompter: SshPrompter = {
      hostKey: whileAsking((q) => asked.hostKey(q)),
      passphrase: whileAsking((q) => asked.passphrase(q)),
      keyboardInteractive: whileAsking((q) => asked.keyboardInteractive(q)),
    };
    const auth = createAuthSession({
      username: hop.user,
      host: hop.host,
      agentPath: resolveAgentPath(hop.identityAgent, options.env),
      identityFiles: hop.identityFiles,
      ...(hop.identitiesOnly ? { identitiesOnly: true } : {}),
      ...(hop.authMethods ? { methods: hop.authMethods } : {}),
      ...(hop.authUnsupported ? { unsupported: hop.authUnsupported } : {}),
      ...(hop.pubkeyAlgorithms ? { pubkeyAlgorithms: hop.pubkeyAlgorithms } : {}),
      prompter,
    });
    arm();

    const fail = (err: unknown) => {
      stopWaiting();
      if (settled) return;
      settled = true;
      client.destroy();
      // Ours until ssh2 takes it in connect(); a channel from the previous hop is its caller's to close.
      if (!sock) transport.destroy();
      if (options.signal?.aborted) return reject(cancelled(hop));
      if (hostKeyError) reject(hostKeyRejection(hop, hostKeyError));
      else if (auth.declined()) {
        reject(new SshError('AUTH_FAILED', `Login to ${hop.user}@${hop.host}:${hop.port} cancelled at the password prompt`,
          'Connect again and answer the prompt, or set up key authentication.'));
      } else reject(classifyConnectError(err, hop, auth));
    };
    const onAbort = () => fail(cancelled(hop));
    // The handshake's bytes (over TCP, or a jump host's channel) are the login moving on.
    const heard = () => options.onProgress?.();
    const stopWaiting = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      transport.off('data', heard);
    };
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    client.on('error', (err: Error & { level?: string }) => {
      // ssh2 reports an unusable agent or key and then moves on to the next method itself.
      if (!settled && (err.level === 'agent' || /^Error while signing/.test(err.message))) {
        auth.skipped.push(`${err.level === 'agent' ? 'agent' : 'key'}: ${err.message}`);
        return;
      }
      if (!settled) return fail(err);
      afterReady ??= classifyConnectError(err, hop);
    });
    client.once('close', () => {
      if (!settled) fail(new Error('connection closed during the handshake'));
    });
    client.once('ready', () => {
      stopWaiting();
      settled = true;
      nudgeServerNoDelay(client);
      resolve({ client, transport, keepaliveIntervalMs: keepalive.intervalMs, cause: () => afterReady });
    });

    const config: ConnectConfig = {
      host: hop.host,
      port: hop.port,
      username: hop.user,
      readyTimeout: 0,
      keepaliveInterval: keepalive.intervalMs,
      keepaliveCountMax: keepalive.countMax,
      authHandler: auth.handler,
      algorithms,
      hostVerifier: (blob: Buffer, verify: (ok: boolean) => void) => {
        loggingIn = true;
        clearTimeout(timer);
        checkHostKey(hop, blob, prompter).then(
          () => {
            arm();
            verify(true);
          },
          (err: Error) => {
            hostKeyError = err;
            verify(false);
          },
        );
      },
      sock: transport,
    };
    try {
      client.connect(config);
    } catch (err) {
      // ssh2 throws synchronously for some bad configs; it must become a rejection, not a crash.
      return fail(err);
    }
    if (options.onProgress) transport.on('data', heard);
    client.setNoDelay(true);
  });
}

/**
 * A channel through `jump` to the next hop. A jump host whose own connect to the next hop hangs (SYN
 * dropped, a dead address) would hold us until its TCP gives up, so the next hop's ConnectTimeout
 * covers this step too; an abort gives up at once (the caller then releases `jump`).
 */
export function forwardThrough(jump: Client, jumpHop: HopLabel, next: SshHop, options: OpenSshOptions): Promise<ClientChannel> {
  const { signal } = options;
  const timeoutMs = connectTimeoutMs(next, options);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err: Error | null, ch?: ClientChannel) => {
      if (settled) {
        // Opened after we gave up: nobody will use it.
        ch?.close();
        return;
      }
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (err) return reject(err);
      // The jump host reached the next hop.
      options.onProgress?.();
      resolve(ch!);
    };
    const onAbort = () => settle(cancelled(next));
    const timer = setTimeout(() => settle(new SshError('HOST_UNREACHABLE',
      `Jump host ${jumpHop.host} got no answer from ${next.host}:${next.port} within ${timeoutMs / 1000} s`,
      `The node is down or its network path from ${jumpHop.host} drops packets; check that ${next.host}:${next.port} is up.`)), timeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const failed = (err: Error) =>
      settle(new SshError('HOST_UNREACHABLE', `Jump host ${jumpHop.host} could not reach ${next.host}:${next.port}: ${err.message}`,
        `Check that ${next.host}:${next.port} is reachable from ${jumpHop.host} and that it allows TCP forwarding.`, err));
    try {
      jump.forwardOut('127.0.0.1', 0, next.host, next.port, (err, ch) => (err ? failed(err) : settle(null, ch)));
    } catch (err) {
      failed(err as Error);
    }
  });
}

export async function openSshConnection(target: SshTarget, options: OpenSshOptions): Promise<SshConnection> {
  // With a pool, the jump hosts come shared (already logged in) and only the node itself is dialled here.
  const lease = options.jumpPool && target.proxyJump.length ? await options.jumpPool.acquire(target.proxyJump, options) : undefined;
  const hops: SshHop[] = lease ? [target] : [...target.proxyJump, target];
  const opened: HopResult[] = [];
  let released = false;
  const closeAll = () => {
    for (const h of [...opened].reverse()) h.client.end();
    if (!released) lease?.release();
    released = true;
  };
  try {
    for (const [i, hop] of hops.entries()) {
      if (options.signal?.aborted) throw cancelled(hop);
      const prev = i === 0 ? lease : opened[i - 1];
      const prevHop = i === 0 ? lease?.hop : hops[i - 1];
      const sock = prev ? await forwardThrough(prev.client, prevHop!, hop, options) : undefined;
      opened.push(await connectHop(hop, sock, options));
    }
  } catch (err) {
    closeAll();
    throw err;
  }

  // The node's own keepalives cross every hop, so the node hop's stream falls silent whichever link dies.
  const node = opened[opened.length - 1]!;
  const silenceListeners = new Set<(silentSince: number | null) => void>();
  const silence = watchLinkSilence(node.transport, node.keepaliveIntervalMs, (since) => {
    for (const l of silenceListeners) l(since);
  });
  let open = true;
  let closedByUs = false;
  const closed = new Promise<SshError | null>((resolve) => {
    // Whichever hop goes first takes the rest down; the innermost cause is the most specific.
    const onClose = () => {
      if (!open) return;
      open = false;
      silence.stop();
      closeAll();
      const cause = [...opened].reverse().map((o) => o.cause()).find((c) => c) ?? lease?.cause() ?? null;
      resolve(closedByUs ? null : cause ?? new SshError('CONNECTION_LOST', `SSH connection to ${target.host}:${target.port} closed`,
        'The server closed the connection; it will be re-dialled.'));
    };
    for (const h of opened) h.client.once('close', onClose);
    void lease?.closed.then(onClose);
  });
  return {
    channels: ssh2Channels(node.client),
    target,
    closed,
    onSilence: (listener) => {
      silenceListeners.add(listener);
      return () => silenceListeners.delete(listener);
    },
    isOpen: () => open,
    close: () => {
      closedByUs = true;
      closeAll();
    },
  };
}
