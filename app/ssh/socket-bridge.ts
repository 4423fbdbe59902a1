import type { Duplex } from 'node:stream';
import { OPEN_CONNECT_FAILED, type ChannelOpenError, type NodeChannels } from './node-channels';
import { shellQuote } from './remote-exec';
import { probeRemoteSocket, type SocketProbe } from './remote-socket-probe';
import { socatAddressPath } from './socat-address';
import type { SshConnection } from './ssh-connection';
import { SshError } from './ssh-errors';
import { streamFailureLog } from './stream-failure-log';

/**
 * One byte stream to the kubelet's UNIX socket on the node per open(): a direct-streamlocal
 * channel when the SSH user may connect to the socket, else an exec channel running socat
 * under `sudo -n` (root-only socket, non-root login). In `auto` mode a failed streamlocal open
 * is diagnosed on the node and, for a permission problem, the bridge switches to sudo and says so.
 */

export type BridgeMode = 'auto' | 'streamlocal' | 'sudo';

/**
 * `{socket}` is replaced by the shell-quoted socket path (escaped for socat's address syntax when the command is
 * socat); sudoers must allow the resulting argv verbatim.
 */
export const DEFAULT_SUDO_TEMPLATE = 'sudo -n socat STDIO UNIX-CONNECT:{socket}';

export type BridgeEvent =
  | { type: 'switched-to-sudo'; reason: string; command: string }
  | { type: 'stream-failed'; error: SshError };

export interface SocketBridgeOptions {
  socketPath: string;
  mode?: BridgeMode;
  sudoTemplate?: string;
  onEvent?: (event: BridgeEvent) => void;
}

export interface SocketBridge {
  open(): Promise<Duplex>;
  /** What open() currently uses. */
  activeMode(): 'streamlocal' | 'sudo';
  /** The failure since the last successful open: open errors, bridge stderr, ssh2 errors. The client above only sees a closed connection. */
  lastError(): SshError | null;
}

const STDERR_LIMIT = 4096;

/**
 * sudo matches command arguments as fnmatch patterns (`\` `*` `?` `[` `]` special) after reading them from
 * sudoers, which takes `,` `:` `=` `\` and blanks as syntax and `#` as the start of a comment (whatever follows
 * it would go unchecked) unless escaped: escaped for both, in that order.
 */
const sudoersArg = (arg: string) => arg.replace(/[\\*?[\]]/g, '\\$&').replace(/[\\,:=#\s]/g, '\\$&');

/** The bridge command's words after sudo's own (`sudo`, then its options): its program, then its arguments. */
function bridgeWords(template: string): string[] {
  const words = template.trim().split(/\s+/);
  if (words[0] === 'sudo') {
    words.shift();
    while (words[0]?.startsWith('-')) words.shift();
  }
  return words;
}

/** What `{socket}` stands for in `template`: socat reads the path through its address syntax, another program as is. */
function socketWord(template: string, socketPath: string): string {
  return bridgeWords(template)[0]?.split('/').pop() === 'socat' ? socatAddressPath(socketPath) : socketPath;
}

/** The command line the sudo bridge runs on the node to reach `socketPath`. */
export function sudoBridgeCommand(socketPath: string, template = DEFAULT_SUDO_TEMPLATE): string {
  return template.replaceAll('{socket}', shellQuote(socketWord(template, socketPath)));
}

/**
 * The sudoers line that allows exactly the bridge command `template` (with `{socket}`) runs: sudo's own
 * words dropped, arguments escaped as sudoers needs. `program` is the command's absolute path on the node
 * (sudoers matches full paths); without it the template's program name is used as written.
 */
export function sudoersLine(user: string, socketPath: string, template = DEFAULT_SUDO_TEMPLATE, program?: string): string {
  const [name, ...args] = bridgeWords(template);
  const argv = args.map((a) => sudoersArg(a.replaceAll('{socket}', socketWord(template, socketPath))));
  return [`${user} ALL=(root) NOPASSWD: ${program ?? name}`, ...argv].join(' ');
}

/** Maps what the bridge command printed before it failed to a typed error. */
export function classifyBridgeFailure(stderr: string, code: number | null, ctx: { user: string; host: string; socketPath: string; command: string; template?: string }): SshError {
  const text = stderr.trim() || `exit code ${code}`;
  const where = `${ctx.socketPath} on ${ctx.host}`;
  if (/a password is required|not allowed to execute|may not run sudo|not in the sudoers/i.test(stderr)) {
    return new SshError('SUDO_REFUSED', `sudo refused the bridge command for ${ctx.user}@${ctx.host}: ${text}`,
      `Allow it on the node with this sudoers line (visudo -f /etc/sudoers.d/nodescope), with the command's full path as \`command -v\` prints it there: ${sudoersLine(ctx.user, ctx.socketPath, ctx.template, ctx.template ? undefined : '/usr/bin/socat')}`);
  }
  if (/socat: (command )?not found|socat: No such file|unable to execute .*socat/i.test(stderr)) {
    return new SshError('SOCAT_MISSING', `socat is not installed on ${ctx.host}: ${text}`,
      'Install socat on the node (apt-get install socat / dnf install socat).');
  }
  if (/No such file or directory/i.test(stderr)) {
    return new SshError('SOCKET_MISSING', `No socket at ${where}: ${text}`,
      'Check that the kubelet runs with the Pods API enabled and pick the right socket path.');
  }
  if (/Connection refused/i.test(stderr)) {
    return new SshError('SOCKET_NOT_LISTENING', `Nothing listens on ${where}: ${text}`,
      'The socket file exists but the kubelet is not serving on it; check that the kubelet is running.');
  }
  if (/Permission denied/i.test(stderr)) {
    return new SshError('SOCKET_PERMISSION', `Permission denied on ${where}: ${text}`,
      'Use an account allowed to open the socket, or the sudo bridge.');
  }
  return new SshError('BRIDGE_FAILED', `Bridge command \`${ctx.command}\` failed on ${ctx.host}: ${text}`,
    'Run the same command over ssh by hand to see what the node says.');
}

export function createSocketBridge(getConnection: () => Promise<SshConnection>, options: SocketBridgeOptions): SocketBridge {
  const { socketPath } = options;
  if (!socketPath.startsWith('/')) {
    throw new Error(`kubelet socket path must be absolute on the node, got "${socketPath}"; e.g. /var/lib/kubelet/pods-api/pods-api.sock`);
  }
  const requested = options.mode ?? 'auto';
  const sudoCommand = sudoBridgeCommand(socketPath, options.sudoTemplate);
  let mode: 'streamlocal' | 'sudo' = requested === 'sudo' ? 'sudo' : 'streamlocal';
  const log = streamFailureLog((error) => options.onEvent?.({ type: 'stream-failed', error }));
  const record = log.record;

  const openSudo = async (conn: SshConnection): Promise<Duplex> => {
    const ch = await conn.channels.exec(sudoCommand).catch((err: Error) => {
      throw new SshError('BRIDGE_FAILED', `Could not start the bridge command on ${conn.target.host}: ${err.message}`,
        'The SSH connection may have dropped; it will be re-dialled.', err);
    });
    let stderr = '';
    ch.stderr.on('data', (d: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += d.toString();
    });
    let recorded = false;
    const failed = (code: number | null) => {
      if (recorded) return;
      recorded = true;
      record(classifyBridgeFailure(stderr, code, { user: conn.target.user, host: conn.target.host, socketPath, command: sudoCommand, ...(options.sudoTemplate ? { template: options.sudoTemplate } : {}) }));
    };
    // sshd sends all of stderr before EOF, but the exit status may come after it: a command that complained
    // is recorded as it ends, before the HTTP/2 connection on the stream (listening after us) sees the end,
    // which would otherwise report the bare close with no cause to show.
    ch.once('end', () => {
      if (stderr.trim()) failed(null);
    });
    void ch.exit.then((code) => {
      // A signal (code null) means the session was torn down, which the SSH layer reports itself.
      if (code === null || code === 0) return;
      failed(code);
    });
    return ch;
  };

  /** Connections on which sshd has forwarded to the socket: their sshd allows it, whatever a later refusal says. */
  const forwardedOn = new WeakSet<NodeChannels>();

  /**
   * Explains a refused streamlocal open; returns only when trying again can help: `reopen` when the socket is
   * there now (missing a moment ago: a kubelet restart), else the reason to let sudo take over. `reopened`: this
   * refusal came from that second open. `looked`: what the connection found at the socket as it was made, used
   * unless the answer needs sudo's word, which only a probe of its own asks.
   */
  const diagnose = async (conn: SshConnection, cause: Error, reopened: boolean, looked?: SocketProbe): Promise<{ reopen: true } | { sudo: string }> => {
    const { user, host } = conn.target;
    const where = `${socketPath} on ${host}`;
    const sudoToCheck = /^sudo\b/.test(sudoCommand) ? sudoCommand : undefined;
    const probe: SocketProbe = looked && !(looked.access === 'noperm' && sudoToCheck) ? looked : await probeRemoteSocket(conn.channels, socketPath, sudoToCheck).catch(
      (err: Error) => {
        throw new SshError('STREAMLOCAL_REFUSED', `sshd refused a channel to ${where} and the check of why could not run: ${err.message}`,
          'Check the socket path, that this user may open it, and AllowStreamLocalForwarding in sshd_config; or use bridge mode sudo.', err);
      },
    );
    switch (probe.access) {
      case 'missing':
        throw new SshError('SOCKET_MISSING', `No kubelet socket at ${where}`,
          'Check that the kubelet runs with the Pods API enabled, or give the right socket path.', cause);
      case 'not-socket':
        throw new SshError('SOCKET_MISSING', `${where} exists but is not a UNIX socket`, 'Give the path of the Pods API socket.', cause);
      case 'writable':
        if (probe.listening === false) {
          throw new SshError('SOCKET_NOT_LISTENING', `Nothing listens on ${where}`,
            'The socket file exists but the kubelet is not serving on it; check that the kubelet is running.', cause);
        }
        // Present and served now, though refused: most likely it was missing when sshd tried (a restarting
        // kubelet removes its socket for a moment), so open it again before blaming sshd's settings.
        if (!reopened) return { reopen: true };
        if (forwardedOn.has(conn.channels)) {
          throw new SshError('SOCKET_NOT_LISTENING', `${where} refused a channel again though this connection used it before: the kubelet is restarting`,
            'Nodescope retries; check that the kubelet is running if this persists.', cause);
        }
        throw new SshError('FORWARDING_DISABLED', `sshd on ${host} refuses to forward to UNIX sockets for ${user}`,
          'Set `AllowStreamLocalForwarding yes` in sshd_config (and no `restrict`/`no-port-forwarding` on the key), or use bridge mode sudo.', cause);
      case 'noperm':
        if (requested === 'streamlocal') {
          throw new SshError('SOCKET_PERMISSION', `${user} may not open ${where}`,
            'Log in as a user that can open the socket, or use bridge mode auto/sudo.', cause);
        }
        if (!probe.socat) {
          throw new SshError('SOCAT_MISSING', `${user} may not open ${where} directly, and socat (needed for the sudo bridge) is not installed`,
            'Install socat on the node, or log in as a user that can open the socket.', cause);
        }
        if (probe.sudoAllowed === false) {
          throw new SshError('SUDO_REFUSED', `${user} may not open ${where}, and sudo does not allow \`${sudoCommand}\``,
            `Allow it on the node with this sudoers line (visudo -f /etc/sudoers.d/nodescope): ${sudoersLine(user, socketPath, options.sudoTemplate, options.sudoTemplate ? undefined : probe.socat)}`, cause);
        }
        // The command is the event's own: whoever tells of the switch names it once.
        return { sudo: `${user} may not open ${socketPath} directly` };
    }
  };

  /** Connections whose streams cannot tell a refusal (OpenSSH's), on which the socket was looked at before the first. */
  const checkedOn = new WeakSet<NodeChannels>();

  const open = async (): Promise<Duplex> => {
    const conn = await getConnection();
    if (mode === 'streamlocal' && requested === 'auto' && !conn.channels.refusalAtOpen && !checkedOn.has(conn.channels)) {
      checkedOn.add(conn.channels);
      const verdict = await diagnose(conn, new Error('looked at before the first stream (this transport cannot tell a refused one)'), false, await conn.channels.lookedAt?.(socketPath));
      if ('sudo' in verdict) {
        mode = 'sudo';
        options.onEvent?.({ type: 'switched-to-sudo', reason: verdict.sudo, command: sudoCommand });
      }
    }
    if (mode === 'sudo') return openSudo(conn);
    for (let reopened = false; ; reopened = true) {
      try {
        const ch = await conn.channels.openUnixSocket(socketPath);
        forwardedOn.add(conn.channels);
        return ch;
      } catch (err) {
        const e = err as ChannelOpenError;
        if (e.reason !== OPEN_CONNECT_FAILED) {
          throw new SshError('CONNECTION_LOST', `Could not open a channel to ${socketPath} on ${conn.target.host}: ${e.message}`,
            'The SSH connection dropped; it will be re-dialled.', e);
        }
        const verdict = await diagnose(conn, e, reopened);
        if ('sudo' in verdict) {
          mode = 'sudo';
          options.onEvent?.({ type: 'switched-to-sudo', reason: verdict.sudo, command: sudoCommand });
          return openSudo(conn);
        }
      }
    }
  };

  return {
    open: () => log.open(open, socketPath),
    activeMode: () => mode,
    lastError: log.lastError,
  };
}
