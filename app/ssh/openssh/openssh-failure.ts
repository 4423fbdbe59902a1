/**
 * Turns what a spawned `ssh` printed before it failed into the same typed errors the built-in transport
 * raises, so the app and the CLI show one kind of message (and exit code) whichever transport dialled.
 * The texts are OpenSSH's own (captured from real runs: testdata/*.stderr, see openssh-failure-capture.test.ts;
 * /work/shared/docs/openssh-transport.md section 4). Names are taken from the text where ssh gives them:
 * behind a ProxyJump the failing host is often the jump host, not the node.
 */
import { keepaliveLost, loginStalled, noSshAnswer, SshError } from '../ssh-errors';

export interface OpenSshFailureContext {
  /** The node as Nodescope named it to ssh. */
  host: string;
  port: number;
  /** What ssh was doing: logging in, or opening a stream to a UNIX socket, a TCP port, or a command. */
  stage: 'login' | 'streamlocal' | 'tcp' | 'exec';
  /** The remote socket path (streamlocal) or the `host:port` forwarded to (tcp). */
  path?: string;
  /** The ConnectTimeout the login was given, in ms (for messages). */
  timeoutMs?: number;
  /** Reached through a jump host's master (Nodescope's ProxyCommand for a ProxyJump), not a ProxyCommand of the user's. */
  throughJump?: boolean;
}

/** Lines that are ssh's chatter, not the failure (a login runs with -v: its debug lines too). */
const INFORMATIONAL = /^(Warning: Permanently added |ControlSocket .* already exists, disabling multiplexing$|Authenticated to |debug\d: )/;

/** The host key the server offered, as ssh -v names it: `ssh-ed25519 SHA256:…`. */
const offeredKey = (stderr: string) => /^debug1: Server host key: (\S+) (SHA256:[A-Za-z0-9+/=]+)/m.exec(stderr)?.slice(1).join(' ');

function lines(stderr: string): string[] {
  return stderr.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l && !INFORMATIONAL.test(l));
}

const sshMessages = (ls: string[]) => ls.slice(-6).join(' / ');

/** `[h]:p` or `h` as ssh prints a host, for messages. */
const where = (ctx: OpenSshFailureContext) => `${ctx.host}:${ctx.port}`;

/** What the user does to trust a host key ssh would not take without asking. */
const acceptKey = (ctx: OpenSshFailureContext, key: string | undefined) =>
  `Confirm the fingerprint${key ? ` ${key.split(' ')[1]}` : ''} with the node's administrator, then accept the key once: run ssh ${ctx.host} and answer yes (or connect in the Nodescope app, without BatchMode, and accept it when asked), and retry.`;

function hostKeyFailure(text: string, ctx: OpenSshFailureContext, key: string | undefined): SshError | null {
  const offending = /Offending (\S+) key in (\S+):(\d+)/.exec(text);
  const changedFor = /Host key for (\S+) has changed/.exec(text);
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED/.test(text)) {
    const name = changedFor?.[1] ?? ctx.host;
    const stored = offending ? ` (${offending[2]}:${offending[3]} has a ${offending[1]} key for it)` : '';
    return new SshError('HOST_KEY_REJECTED', `The host key for ${name} has CHANGED${stored}; ssh refused to connect. Someone may be intercepting the connection, or the node was reinstalled.`,
      offending
        ? `If you have confirmed the new key with the node's administrator, remove the old one with: ssh-keygen -R "${name}" -f ${offending[2]}`
        : `If you have confirmed the new key with the node's administrator, remove the old one with: ssh-keygen -R "${name}"`);
  }
  const revoked = /Host key (\S+ \S+) revoked by file (\S+)|REVOKED HOST KEY DETECTED/.exec(text);
  if (revoked) {
    return new SshError('HOST_KEY_REJECTED', `The host key of ${where(ctx)} is revoked${revoked[2] ? ` by ${revoked[2]} (RevokedHostKeys)` : ' (@revoked in known_hosts)'}; ssh refused to connect.`,
      "Ask the node's administrator for its current host key.");
  }
  const strict = /No (\S+) host key is known for (\S+) and you have requested strict checking/.exec(text);
  if (strict) {
    return new SshError('HOST_KEY_REJECTED', `The ${strict[1]} host key of ${strict[2]}${key ? ` (${key})` : ''} is not in known_hosts and StrictHostKeyChecking is yes.`,
      `Confirm the fingerprint${key ? ` ${key.split(' ')[1]}` : ''} with the node's administrator, then accept the key once: run ssh -o StrictHostKeyChecking=ask ${ctx.host} and answer yes, and retry.`);
  }
  if (/Host key verification failed\./.test(text)) {
    return new SshError('HOST_KEY_REJECTED', `ssh did not accept the host key of ${where(ctx)}${key ? ` (${key})` : ''}: it is not in known_hosts and was not confirmed (BatchMode is on, nobody could be asked, or the answer was no).`,
      acceptKey(ctx, key));
  }
  return null;
}

function authFailure(text: string, ctx: OpenSshFailureContext): SshError | null {
  if (/Too many authentication failures/i.test(text)) {
    return new SshError('AUTH_FAILED', `${where(ctx)} closed the connection after too many key attempts (sshd MaxAuthTries)`,
      `Your agent offers many keys: set \`IdentitiesOnly yes\` and the right IdentityFile for ${ctx.host} in your SSH config.`);
  }
  const denied = /(?:(\S+)@(\S+): )?Permission denied \(([^)]*)\)/.exec(text);
  if (!denied) return null;
  const login = denied[1] ? `${denied[1]}@${denied[2]}` : where(ctx);
  const methods = denied[3]!.split(',').filter(Boolean);
  const onlyKeys = methods.every((m) => m === 'publickey');
  // Worded as the built-in transport words it, so a failed login reads alike whichever client tried.
  return new SshError('AUTH_FAILED', `Authentication failed for ${login} (ssh tried; the server still accepts: ${methods.join(', ') || 'nothing'})`,
    onlyKeys
      ? `Load the right key into ssh-agent or set IdentityFile (or CertificateFile) for ${ctx.host} in your SSH config, and check the user name.`
      : `Check the user name and the key or password; if the server requires two methods (AuthenticationMethods), both must succeed, and PasswordAuthentication/KbdInteractiveAuthentication no in your SSH config stop ssh from asking.`);
}

/** A host that sent its banner and then no reply to the key exchange until ssh's keepalives ran out. */
const keyExchangeStalled = (hop: { host: string; port: number }) =>
  new SshError('HANDSHAKE_TIMEOUT', `${hop.host}:${hop.port} answered but stopped in the key exchange: ssh gave up after ServerAliveInterval × ServerAliveCountMax with no answer`,
    "A network path that drops large packets does this (the key exchange's reply is the first large one: an MTU too small on a VPN or tunnel); check the path's MTU, or the server's load.");

function reachFailure(text: string, stderr: string, ctx: OpenSshFailureContext): SshError | null {
  const resolve = /Could not resolve hostname (\S+?): (.*)/.exec(text);
  if (resolve) {
    const temporary = /Temporary failure/i.test(resolve[2]!);
    return temporary
      ? new SshError('DNS', `Cannot resolve host name ${resolve[1]} now (${resolve[2]})`, 'DNS did not answer; check your DNS/VPN settings. Nodescope retries.')
      : new SshError('HOST_NOT_FOUND', `Host name ${resolve[1]} does not exist in DNS (${resolve[2]})`,
        'Check the host name (HostName in your SSH config), or connect the VPN that serves it, then connect again.');
  }
  const connect = /connect to host (\S+) port (\d+): (.*)/.exec(text);
  if (connect) {
    const at = `${connect[1]}:${connect[2]}`;
    if (/Connection refused/.test(connect[3]!)) {
      return new SshError('HOST_UNREACHABLE', `Connection refused by ${at}`, `Check that sshd runs on ${at} and that the port is right.`);
    }
    return new SshError('HOST_UNREACHABLE', `Cannot reach ${at} (${connect[3]})`, 'Check the network path (VPN, firewall, ProxyJump) to the node.');
  }
  const timedOut = /Connection to (\S+) port (\d+) timed out/.exec(text);
  // -v says the login began (banner exchanged): the host answered, and the timeout is ssh's keepalives' (through a
  // ProxyCommand too, where ssh names the host UNKNOWN port 65535). Its host key says the key exchange was done.
  const began = /^debug1: Authenticating to (\S+):(\d+) as '([^']*)'/m.exec(stderr);
  if (timedOut && began) {
    const hop = { host: began[1]!, port: Number(began[2]), user: began[3]! };
    return offeredKey(stderr) ? loginStalled(hop) : keyExchangeStalled(hop);
  }
  if (timedOut?.[1] === 'UNKNOWN' && timedOut[2] === '65535') {
    // Through a jump host the jump host connected (it would have said otherwise): the node itself is silent.
    if (ctx.throughJump) return noSshAnswer(ctx, ctx.timeoutMs);
    return new SshError('HOST_UNREACHABLE', `The ProxyCommand (or ProxyJump) for ${ctx.host} gave no SSH answer within ConnectTimeout`,
      `Run the ProxyCommand of ${ctx.host} by hand (ssh -G ${ctx.host} | grep -i proxy) to see where it hangs, or raise ConnectTimeout.`);
  }
  if (timedOut || /Connection timed out during banner exchange/.test(text)) {
    return noSshAnswer(timedOut ? { host: timedOut[1]!, port: Number(timedOut[2]) } : ctx, ctx.timeoutMs);
  }
  const keepalive = /Timeout, server (\S+) not responding/.exec(text);
  if (keepalive) {
    return keepaliveLost(keepalive[1]!);
  }
  // UNKNOWN port 65535 is how ssh names a ProxyCommand's pipe. Whether ssh's banner reached the pipe before the
  // command ended decides which of the two texts it prints.
  if (/(Connection closed by|banner exchange: Connection to) UNKNOWN port 65535/.test(text)) {
    const before = lines(text).filter((l) => !/^kex_exchange_identification:|^Connection closed by UNKNOWN|^banner exchange: Connection to UNKNOWN/.test(l));
    return new SshError('HOST_UNREACHABLE', `The ProxyCommand (or ProxyJump) for ${ctx.host} ended before the SSH login${before.length ? `: ${sshMessages(before)}` : ''}`,
      `Run the ProxyCommand of ${ctx.host} by hand (ssh -G ${ctx.host} | grep -i proxy) to see why it fails.`);
  }
  if (/kex_exchange_identification: (Connection closed by remote host|read: Connection reset)/.test(text)) {
    return new SshError('CONNECTION_LOST', `${where(ctx)} closed the connection before the SSH login`,
      'sshd dropped it (MaxStartups, a firewall, or not an SSH server on that port); retry, and check the port.');
  }
  return null;
}

function configFailure(text: string, ctx: OpenSshFailureContext): SshError | null {
  const bad = /^(.+?): line (\d+): (Bad configuration option: \S+|.*)$/m.exec(text);
  if (bad && bad[1] === 'command-line') {
    return new SshError('BAD_CONFIG', `Your ssh does not accept an option Nodescope passes: ${bad[3]}`,
      'Update OpenSSH (Nodescope needs 8.4 or newer), or use the built-in transport (--ssh builtin).');
  }
  if (bad) {
    return new SshError('BAD_CONFIG', `ssh refuses its configuration: ${bad[1]} line ${bad[2]}: ${bad[3]}`,
      `Fix line ${bad[2]} of ${bad[1]}; ssh ${ctx.host} shows the same error.`);
  }
  const perms = /Bad owner or permissions on (\S+)/.exec(text);
  if (perms) {
    return new SshError('BAD_CONFIG', `ssh refuses ${perms[1]}: others may write it (bad owner or permissions)`, `chmod 600 ${perms[1]} (and make sure you own it).`);
  }
  return null;
}

function streamFailure(text: string, ctx: OpenSshFailureContext): SshError | null {
  const target = ctx.path ?? (ctx.stage === 'tcp' ? 'the forwarded port' : 'the kubelet socket');
  if (/open failed: administratively prohibited/.test(text)) {
    return ctx.stage === 'login'
      ? new SshError('FORWARDING_DISABLED', `A jump host on the way to ${ctx.host} refuses TCP forwarding, which ProxyJump needs`,
        'Set `AllowTcpForwarding yes` on the jump host\'s sshd (and no `restrict`/`no-port-forwarding` on the key).')
      : new SshError('FORWARDING_DISABLED', `sshd on ${ctx.host} refuses to forward to ${target}`,
        `Set \`AllowTcpForwarding yes\` (for TCP) or \`AllowStreamLocalForwarding yes\` (for UNIX sockets) in sshd_config on ${ctx.host}, or use bridge mode sudo.`);
  }
  if (/open failed: connect failed: open failed/.test(text)) {
    // sshd sends the same reason for all three, only its own log tells them apart.
    return new SshError('STREAMLOCAL_REFUSED', `sshd on ${ctx.host} refused a channel to ${target}: the socket is missing, or ${ctx.host}'s login user may not open it, or sshd forbids forwarding to UNIX sockets (ssh cannot tell which)`,
      `Check on the node: \`ls -l ${ctx.path ?? 'SOCKET'}\` (is it there, who may open it), use a login that may open it or bridge mode sudo, and check AllowStreamLocalForwarding in sshd_config (sshd's log says which).`);
  }
  const connectFailed = /open failed: connect failed: (.*)/.exec(text);
  if (connectFailed) {
    return /Name or service not known|not known|resolve/i.test(connectFailed[1]!)
      ? new SshError('HOST_NOT_FOUND', `A jump host could not resolve the name of ${ctx.host}: ${connectFailed[1]}`, 'Check HostName for the node in your SSH config: the jump host resolves it.')
      : new SshError(ctx.stage === 'login' ? 'HOST_UNREACHABLE' : 'SOCKET_NOT_LISTENING', `${ctx.stage === 'login' ? `A jump host could not reach ${where(ctx)}` : `Nothing listens on ${target} on ${ctx.host}`}: ${connectFailed[1]}`,
        ctx.stage === 'login' ? `Check that sshd runs on ${where(ctx)} as the jump host sees it.` : `Check that the kubelet runs and serves on ${target}.`);
  }
  return null;
}

function muxFailure(text: string, ctx: OpenSshFailureContext): SshError | null {
  if (/Control socket connect\(.*\): |mux_client_hello_exchange: .*(Broken pipe|Connection reset)/.test(text)) {
    return new SshError('CONNECTION_LOST', `The shared ssh connection (ControlMaster) to ${ctx.host} is gone`, 'It will be re-dialled (which may ask to log in again).');
  }
  if (/session request failed: Session open refused by peer|Session open refused by peer/.test(text)) {
    return new SshError('CONNECTION_LOST', `sshd on ${ctx.host} refused another channel on the shared connection (its MaxSessions, or forwarding is off)`,
      'Nodescope retries on a new connection; if it persists, raise MaxSessions in sshd_config on the node or check AllowTcpForwarding/AllowStreamLocalForwarding.');
  }
  if (/mux_client_forward: forwarding request failed/.test(text)) {
    return new SshError('BRIDGE_FAILED', `The shared ssh connection to ${ctx.host} could not add a forward: ${sshMessages(lines(text))}`,
      'Nodescope retries with a fresh local socket; if it persists, disconnect the node and connect again.');
  }
  return null;
}

export function classifyOpenSshFailure(stderr: string, exitCode: number | null, ctx: OpenSshFailureContext): SshError {
  if (exitCode === null) {
    return new SshError('CLOSED', `ssh to ${where(ctx)} was stopped`, 'Connect again.');
  }
  const text = lines(stderr).join('\n');
  if (ctx.stage === 'exec' && exitCode !== 255) {
    return new SshError('BRIDGE_FAILED', `The command on ${ctx.host} failed (exit ${exitCode})${text ? `: ${sshMessages(lines(text))}` : ''}`,
      `Run the same command over ssh ${ctx.host} by hand to see what the node says.`);
  }
  const found = configFailure(text, ctx) ?? hostKeyFailure(text, ctx, offeredKey(stderr)) ?? authFailure(text, ctx) ?? streamFailure(text, ctx) ?? muxFailure(text, ctx) ?? reachFailure(text, stderr, ctx);
  if (found) return found;
  if (!text) {
    // A mux client whose master died exits 0 (for -W) or 255 without a word.
    return new SshError('CONNECTION_LOST', `ssh to ${where(ctx)} ended without saying why (exit ${exitCode})`, 'The connection dropped; it will be re-dialled.');
  }
  return new SshError('CONNECTION_LOST', `ssh to ${where(ctx)} failed (exit ${exitCode}): ${sshMessages(lines(text))}`,
    `Retry; if it persists, run \`ssh -v ${ctx.host}\` for details.`);
}
