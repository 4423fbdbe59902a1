/**
 * One byte stream to a TCP port on the node's own loopback (the kubelet's 127.0.0.1:10250 or :10255)
 * per open(), through the SSH connection: a direct-tcpip channel, or, where sshd forbids TCP forwarding
 * (`AllowTcpForwarding no`), a bridge command run on the node (socat by default). Nothing listens on the
 * workstation. In `auto` mode a forward sshd refuses switches to the bridge command and says so.
 */
import type { Duplex } from 'node:stream';
import { OPEN_ADMINISTRATIVELY_PROHIBITED, OPEN_CONNECT_FAILED, type ChannelOpenError } from '../ssh/node-channels';
import type { SshConnection } from '../ssh/ssh-connection';
import { SshError } from '../ssh/ssh-errors';
import { streamFailureLog } from '../ssh/stream-failure-log';

export type TcpBridgeMode = 'auto' | 'direct' | 'command';

/** `{port}` is replaced by the port. Runs as the SSH user: the port needs no root. */
export const DEFAULT_TCP_BRIDGE_TEMPLATE = 'socat STDIO TCP:127.0.0.1:{port}';

export type TcpChannelEvent = { type: 'switched-to-command'; reason: string; command: string } | { type: 'stream-failed'; error: SshError };

export interface NodeTcpChannelOptions {
  port: number;
  /** The port is the kubelet's read-only one (for what a refused connection means). */
  readOnly?: boolean;
  mode?: TcpBridgeMode;
  commandTemplate?: string;
  onEvent?: (event: TcpChannelEvent) => void;
}

export interface NodeTcpChannel {
  open(): Promise<Duplex>;
  activeMode(): 'direct' | 'command';
  lastError(): SshError | null;
}

const STDERR_LIMIT = 4096;

/** Connection refused on the node: names the port, and what the read-only port's absence usually means. */
export function notListening(host: string, port: number, readOnly: boolean, detail: string): SshError {
  return new SshError('SOCKET_NOT_LISTENING', `Nothing listens on 127.0.0.1:${port} on ${host} (${detail})`,
    readOnly
      ? 'The read-only port (10255) is off on most clusters (readOnlyPort: 0 in the kubelet config, `cat /var/lib/kubelet/config.yaml` on the node); use the authenticated port 10250 with a token or client certificate.'
      : `Check that the kubelet runs and serves on port ${port} (port: in its config, /var/lib/kubelet/config.yaml). If only its read-only port is enabled (readOnlyPort: 10255), use --read-only.`);
}

export function createNodeTcpChannel(getConnection: () => Promise<SshConnection>, options: NodeTcpChannelOptions): NodeTcpChannel {
  const { port } = options;
  const requested = options.mode ?? 'auto';
  const command = (options.commandTemplate ?? DEFAULT_TCP_BRIDGE_TEMPLATE).replaceAll('{port}', String(port));
  let mode: 'direct' | 'command' = requested === 'command' ? 'command' : 'direct';
  const log = streamFailureLog((error) => options.onEvent?.({ type: 'stream-failed', error }));
  const record = log.record;

  const openCommand = async (conn: SshConnection): Promise<Duplex> => {
    const { host } = conn.target;
    const ch = await conn.channels.exec(command).catch((err: Error) => {
      throw new SshError('BRIDGE_FAILED', `Could not start \`${command}\` on ${host}: ${err.message}`, 'The SSH connection may have dropped; it will be re-dialled.', err);
    });
    let stderr = '';
    ch.stderr.on('data', (d: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += d.toString();
    });
    void ch.exit.then((code) => {
      if (code === null || code === 0) return;
      const text = stderr.trim() || `exit code ${code}`;
      if (/Connection refused/i.test(stderr)) return record(notListening(host, port, options.readOnly === true, text));
      if (/not found|No such file/i.test(stderr) && /socat/.test(stderr)) {
        return record(new SshError('SOCAT_MISSING', `socat is not installed on ${host}: ${text}`, 'Install socat on the node, or give another bridge command (--tcp-bridge-command).'));
      }
      record(new SshError('BRIDGE_FAILED', `Bridge command \`${command}\` failed on ${host}: ${text}`, 'Run the same command over ssh by hand to see what the node says.'));
    });
    return ch;
  };

  const open = async (): Promise<Duplex> => {
    const conn = await getConnection();
    if (mode === 'command') return openCommand(conn);
    try {
      return await conn.channels.openTcp('127.0.0.1', port);
    } catch (err) {
      const e = err as ChannelOpenError;
      if (e.reason === OPEN_CONNECT_FAILED) throw notListening(conn.target.host, port, options.readOnly === true, e.message);
      if (e.reason !== OPEN_ADMINISTRATIVELY_PROHIBITED) {
        throw new SshError('CONNECTION_LOST', `Could not open a channel to 127.0.0.1:${port} on ${conn.target.host}: ${e.message}`, 'The SSH connection dropped; it will be re-dialled.', e);
      }
      if (requested === 'direct') {
        throw new SshError('FORWARDING_DISABLED', `sshd on ${conn.target.host} refuses TCP forwarding for ${conn.target.user}`,
          'Set `AllowTcpForwarding yes` (or local) in sshd_config, or let Nodescope run a bridge command on the node (--tcp-bridge auto or command).', e);
      }
      mode = 'command';
      options.onEvent?.({ type: 'switched-to-command', reason: `sshd on ${conn.target.host} refuses TCP forwarding`, command });
      return openCommand(conn);
    }
  };

  return {
    open: () => log.open(open, `127.0.0.1:${port}`),
    activeMode: () => mode,
    lastError: log.lastError,
  };
}
