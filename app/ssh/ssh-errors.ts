/**
 * Typed transport errors. The gRPC layer above only ever sees `ECONNRESET`, so every failure
 * here carries the real cause, where it happened, and what the user can do next.
 */
import { NodescopeError } from '../util/nodescope-error';

export type SshErrorCode =
  | 'AUTH_FAILED'
  | 'KEY_UNUSABLE'
  | 'HOST_UNREACHABLE'
  | 'DNS'
  /** The name does not exist in DNS (a typo, or a VPN that is off), as opposed to DNS not answering now. */
  | 'HOST_NOT_FOUND'
  | 'HANDSHAKE_TIMEOUT'
  | 'KEEPALIVE_TIMEOUT'
  | 'CONNECTION_LOST'
  | 'HOST_KEY_REJECTED'
  | 'SOCKET_MISSING'
  | 'SOCKET_PERMISSION'
  | 'SOCKET_NOT_LISTENING'
  | 'FORWARDING_DISABLED'
  | 'STREAMLOCAL_REFUSED'
  | 'SUDO_REFUSED'
  | 'SOCAT_MISSING'
  | 'BRIDGE_FAILED'
  /** A file on this machine that the connection needs (known_hosts) cannot be read. */
  | 'LOCAL_FILE'
  /** An ssh_config setting the built-in transport cannot honour: ignoring it could accept what ssh refuses. */
  | 'NEEDS_OPENSSH'
  /** ssh refuses its own configuration (a bad keyword in a file, an option this ssh does not know, file permissions). */
  | 'BAD_CONFIG'
  /** Client and server share no algorithm ssh would use (e.g. a server with only SHA-1 ssh-rsa host keys). */
  | 'NO_COMMON_ALGORITHM'
  | 'CLOSED';

/**
 * Codes worth retrying on their own; the others need the user to change something first. docs/retries.md
 * lists the decision.
 */
const RETRYABLE: ReadonlySet<SshErrorCode> = new Set([
  'HOST_UNREACHABLE',
  'DNS',
  'HOST_NOT_FOUND',
  'HANDSHAKE_TIMEOUT',
  'KEEPALIVE_TIMEOUT',
  'CONNECTION_LOST',
  'SOCKET_MISSING',
  'SOCKET_NOT_LISTENING',
  'BRIDGE_FAILED',
]);

/**
 * Retryable codes that mean the node as given is wrong while it has never answered (a typo in the host
 * name or socket path, a kubelet without the Pods API), and a restart in progress once it has (a node
 * being replaced drops out of DNS, a restarting kubelet removes its socket for a moment).
 */
const PERMANENT_UNTIL_LIVE: ReadonlySet<SshErrorCode> = new Set(['HOST_NOT_FOUND', 'SOCKET_MISSING']);

export class SshError extends NodescopeError<SshErrorCode> {
  override readonly name = 'SshError';
  declare readonly nextStep: string;
  readonly exitClass = 'connection';
  /** When it happened (ms since epoch), so the most recent of several recorded errors can be shown. */
  readonly at = Date.now();

  constructor(code: SshErrorCode, message: string, nextStep: string, cause?: unknown) {
    super(code, message, nextStep, { cause });
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  /** Retried only once the node has been live: before that, waiting will not fix it. */
  get permanentUntilLive(): boolean {
    return PERMANENT_UNTIL_LIVE.has(this.code);
  }
}

export const cancelled = (hop: HopLabel) => new SshError('CLOSED', `Connecting to ${hop.host}:${hop.port} was cancelled`, 'Open the node again.');

export function isSshError(err: unknown): err is SshError {
  return err instanceof SshError;
}

/** Where a hop lives, for messages: `user@host:port`. */
export interface HopLabel {
  user: string;
  host: string;
  port: number;
}

const hopText = (hop: HopLabel) => `${hop.user}@${hop.host}:${hop.port}`;

type Ssh2Error = Error & { level?: string; code?: string; reason?: number };

/** What authentication attempted and skipped, for AUTH_FAILED messages. */
export interface AuthReport {
  tried: string[];
  skipped: string[];
}

/** Turns what ssh2 or the socket layer emitted while dialling `hop` into an SshError. */
export function classifyConnectError(err: unknown, hop: HopLabel, auth: AuthReport = { tried: [], skipped: [] }): SshError {
  if (err instanceof SshError) return err;
  const e = (err instanceof Error ? err : new Error(String(err))) as Ssh2Error;
  const where = `${hop.host}:${hop.port}`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return new SshError('HOST_UNREACHABLE', `Connection refused by ${where}`,
        `Check that sshd runs on ${where} and that the port is right.`, e);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
      return new SshError('HOST_UNREACHABLE', `Cannot reach ${where} (${e.code})`,
        'Check the network path (VPN, firewall, ProxyJump) to the node.', e);
    case 'ENOTFOUND':
      return new SshError('HOST_NOT_FOUND', `Host name ${hop.host} does not exist in DNS (${e.code})`,
        'Check the host name (HostName in your SSH config), or connect the VPN that serves it, then connect again.', e);
    case 'EAI_AGAIN':
      return new SshError('DNS', `Cannot resolve host name ${hop.host} now (${e.code})`,
        'DNS did not answer; check your DNS/VPN settings. Nodescope retries.', e);
    case 'ECONNRESET':
    case 'EPIPE':
      return new SshError('CONNECTION_LOST', `Connection to ${where} was reset (${e.code})`,
        'The server or a middlebox dropped the connection; it will be re-dialled.', e);
  }
  if (/too many authentication failures/i.test(e.message)) {
    return new SshError('AUTH_FAILED', `${hopText(hop)} closed the connection after too many key attempts (sshd MaxAuthTries)`,
      `Your agent offers many keys: set \`IdentitiesOnly yes\` and the right IdentityFile for ${hop.host} in your SSH config.`, e);
  }
  if (e.level === 'client-authentication') {
    const tried = auth.tried.length ? auth.tried.join(', ') : 'none available';
    const skipped = auth.skipped.length ? `; skipped: ${auth.skipped.join('; ')}` : '';
    const onlyOpenSsh = auth.skipped.filter((s) => s.includes('needs the OpenSSH transport'));
    if (onlyOpenSsh.length) {
      return new SshError('NEEDS_OPENSSH', `Authentication failed for ${hopText(hop)}: ${onlyOpenSsh.join('; ')} (tried: ${tried}${skipped})`,
        `Log in to ${hop.host} with OpenSSH's ssh, or give it a plain key the server accepts (IdentityFile).`, e);
    }
    return new SshError('AUTH_FAILED', `Authentication failed for ${hopText(hop)} (tried: ${tried}${skipped})`,
      `Load the right key into ssh-agent or set IdentityFile for ${hop.host}, and check the user name.`, e);
  }
  if (e.level === 'client-timeout' && /keepalive/i.test(e.message)) {
    return keepaliveLost(where, e);
  }
  if (e.level === 'client-timeout') {
    return new SshError('HANDSHAKE_TIMEOUT', `SSH handshake with ${where} timed out`,
      'The port answers but no SSH server replied in time; check the port and ConnectTimeout.', e);
  }
  if (e.level === 'handshake' && /no matching/i.test(e.message)) {
    return new SshError('NO_COMMON_ALGORITHM', `${where} offers no algorithm that ssh would accept either (${e.message})`,
      `The server offers only what OpenSSH refuses by default (e.g. SHA-1 ssh-rsa host keys): update its sshd, or, accepting the risk, ` +
        `allow the algorithm for ${hop.host} in your ssh config as you would for ssh (e.g. HostKeyAlgorithms +ssh-rsa).`, e);
  }
  if (e.level === 'handshake' && /verification failed/i.test(e.message)) {
    return new SshError('HOST_KEY_REJECTED', `Host key of ${where} was not accepted`,
      'Confirm the fingerprint with the node owner, then connect again.', e);
  }
  return new SshError('CONNECTION_LOST', `SSH connection to ${where} failed: ${e.message}`,
    'Retry; if it persists, run `ssh -v` to the same host for details.', e);
}

/** A link given up after ServerAliveCountMax unanswered keepalives (either transport). */
export const keepaliveLost = (where: string, cause?: unknown): SshError =>
  new SshError('KEEPALIVE_TIMEOUT', `${where} stopped answering keepalives`, 'The network path to the node went dead; it will be re-dialled when it is back.', cause);

/** A host that gave no SSH banner within ConnectTimeout (either transport); ssh's own message has no seconds. */
export const noSshAnswer = (hop: Pick<HopLabel, 'host' | 'port'>, timeoutMs?: number): SshError =>
  new SshError('HOST_UNREACHABLE', `No SSH answer from ${hop.host}:${hop.port} within ${timeoutMs === undefined ? 'ConnectTimeout' : `${timeoutMs / 1000} s`}`,
    'Check the address, port and network path (VPN, firewall, ProxyJump).');

/** What to look at when a host answered SSH and then never finished the login. */
const stuckLogin = (host: string) =>
  `The host's sshd (or the PAM or directory service behind its login) is stuck: check its auth log and PAM, and its sshd_config LoginGraceTime (how long sshd holds such a login), or raise ConnectTimeout for ${host} in your SSH config.`;

/** A login that reached the host but did not finish within ConnectTimeout (either transport). */
export const loginTimedOut = (hop: HopLabel, timeoutMs: number): SshError =>
  new SshError('HANDSHAKE_TIMEOUT', `${hop.host}:${hop.port} did not finish the SSH login of ${hop.user} within ${timeoutMs / 1000} s (no answer to authentication)`, stuckLogin(hop.host));

/**
 * A login that reached the host and then got no answer until ssh's keepalives (ServerAliveInterval ×
 * ServerAliveCountMax, which ssh also holds the login to) ran out: often before ConnectTimeout.
 */
export const loginStalled = (hop: HopLabel): SshError =>
  new SshError('HANDSHAKE_TIMEOUT', `${hop.host}:${hop.port} answered but did not finish the SSH login of ${hop.user}: ssh gave up after ServerAliveInterval × ServerAliveCountMax with no answer (authentication stalled)`,
    stuckLogin(hop.host));

