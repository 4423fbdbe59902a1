import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyOpenSshFailure, type OpenSshFailureContext } from './openssh-failure';
import { FAILURE_CASES } from './testing/openssh-failure-cases';

const TESTDATA = join(import.meta.dirname, 'testdata');
const node: OpenSshFailureContext = { host: 'node-1', port: 22, stage: 'login' };

describe('classifyOpenSshFailure on what a real ssh printed (testdata/*.stderr)', () => {
  for (const c of FAILURE_CASES) {
    it(`${c.name} → ${c.code}, with a next step`, () => {
      const err = classifyOpenSshFailure(readFileSync(join(TESTDATA, `${c.name}.stderr`), 'utf8'), c.exitCode, c.ctx);
      expect(err.code).toBe(c.code);
      for (const words of c.says) expect(err.message).toContain(words);
      for (const words of c.next) expect(err.nextStep).toContain(words);
    });
  }
});

// Texts this sandbox cannot produce, in OpenSSH 9.2's words (sshconnect.c, clientloop.c, readconf.c, mux.c).
describe('classifyOpenSshFailure on texts known from the source', () => {
  it('a TCP connect timeout or an unreachable network is HOST_UNREACHABLE naming the host ssh tried', () => {
    const err = classifyOpenSshFailure('ssh: connect to host 10.0.0.9 port 22: Connection timed out\r\n', 255, node);
    expect(err.code).toBe('HOST_UNREACHABLE');
    expect(err.message).toBe('Cannot reach 10.0.0.9:22 (Connection timed out)');
    expect(classifyOpenSshFailure('ssh: connect to host 10.0.0.9 port 22: No route to host\r\n', 255, node).code).toBe('HOST_UNREACHABLE');
  });

  it('DNS not answering is retried (DNS), a name that does not exist is not (HOST_NOT_FOUND)', () => {
    expect(classifyOpenSshFailure('ssh: Could not resolve hostname node-1: Temporary failure in name resolution\r\n', 255, node).code).toBe('DNS');
  });

  it('a ProxyCommand that ended before ssh wrote its banner is HOST_UNREACHABLE with what the command said', () => {
    // Printed by ssh 9.2 in CI when the command exited before ssh's first write (the other text is testdata's).
    const err = classifyOpenSshFailure('proxy: cannot reach the gateway\r\nbanner exchange: Connection to UNKNOWN port 65535: Broken pipe\r\n', 255, node);
    expect(err.code).toBe('HOST_UNREACHABLE');
    expect(err.message).toBe('The ProxyCommand (or ProxyJump) for node-1 ended before the SSH login: proxy: cannot reach the gateway');
  });

  it('a ProxyCommand that never answered within ConnectTimeout is HOST_UNREACHABLE naming it (ssh 9.2, tested by hand)', () => {
    const err = classifyOpenSshFailure('Connection timed out during banner exchange\r\nConnection to UNKNOWN port 65535 timed out\r\n', 255, node);
    expect(err.code).toBe('HOST_UNREACHABLE');
    expect(err.message).toBe('The ProxyCommand (or ProxyJump) for node-1 gave no SSH answer within ConnectTimeout');
  });

  it('an unknown host key refused in batch mode names the key ssh -v saw, and ignores the other debug lines', () => {
    const stderr = 'debug1: Connecting to node-1 [10.0.0.9] port 22.\r\ndebug1: Server host key: ssh-ed25519 SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s\r\ndebug1: Permission denied (nothing)\r\nHost key verification failed.\r\n';
    const err = classifyOpenSshFailure(stderr, 255, node);
    expect(err.code).toBe('HOST_KEY_REJECTED');
    expect(err.message).toContain('(ssh-ed25519 SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s)');
    expect(err.nextStep).toContain('Confirm the fingerprint SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s');
    expect(err.nextStep).toContain('run ssh node-1 and answer yes');
  });

  it('a login ssh gave up on its keepalives after the banner is a stall, not a host that never answered (-v says where it stopped)', () => {
    const began = "debug1: Connection established.\r\ndebug1: Authenticating to 10.0.0.9:22 as 'core'\r\n";
    const kex = classifyOpenSshFailure(`${began}debug1: expecting SSH2_MSG_KEX_ECDH_REPLY\r\nConnection to 10.0.0.9 port 22 timed out\r\n`, 255, node);
    expect(kex).toMatchObject({ code: 'HANDSHAKE_TIMEOUT', message: '10.0.0.9:22 answered but stopped in the key exchange: ssh gave up after ServerAliveInterval × ServerAliveCountMax with no answer' });
    expect(kex.nextStep).toContain('MTU');
    const auth = classifyOpenSshFailure(`${began}debug1: Server host key: ssh-ed25519 SHA256:abc\r\nConnection to UNKNOWN port 65535 timed out\r\n`, 255, { ...node, throughJump: true });
    expect(auth).toMatchObject({ code: 'HANDSHAKE_TIMEOUT', message: "10.0.0.9:22 answered but did not finish the SSH login of core: ssh gave up after ServerAliveInterval × ServerAliveCountMax with no answer (authentication stalled)" });
    expect(auth.nextStep).toContain('LoginGraceTime');
  });

  it('says keepalives ran out when ssh says so', () => {
    const err = classifyOpenSshFailure('Timeout, server node-1 not responding.\r\n', 255, node);
    expect(err.code).toBe('KEEPALIVE_TIMEOUT');
  });

  it('a world-writable config file is refused as ssh refuses it, saying how to fix it', () => {
    const err = classifyOpenSshFailure('Bad owner or permissions on /home/op/.ssh/config\r\n', 255, node);
    expect(err.code).toBe('BAD_CONFIG');
    expect(err.nextStep).toContain('chmod 600 /home/op/.ssh/config');
  });

  it('too many keys offered is the MaxAuthTries message of the built-in transport', () => {
    const err = classifyOpenSshFailure('Received disconnect from 10.0.0.9 port 22:2: Too many authentication failures\r\nDisconnected from 10.0.0.9 port 22\r\n', 255, node);
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.nextStep).toContain('IdentitiesOnly yes');
  });

  it('a master that went away under a mux client is a lost connection, re-dialled', () => {
    expect(classifyOpenSshFailure('mux_client_hello_exchange: write packet: Broken pipe\r\n', 255, node).code).toBe('CONNECTION_LOST');
    expect(classifyOpenSshFailure('mux_client_forward: forwarding request failed: Port forwarding failed\r\n', 255, node).code).toBe('BRIDGE_FAILED');
  });

  it('a remote command\'s own failure (exec, exit other than 255) is the command\'s, not ssh\'s', () => {
    const err = classifyOpenSshFailure('2026/01/01 00:00:00 socat[9] E connect(5, AF=1 "/x.sock", 9): No such file or directory\n', 1, { ...node, stage: 'exec' });
    expect(err.code).toBe('BRIDGE_FAILED');
    expect(err.message).toContain('exit 1');
  });

  it('ssh killed by a signal is CLOSED; informational lines alone do not make a failure', () => {
    expect(classifyOpenSshFailure('', null, node).code).toBe('CLOSED');
    const err = classifyOpenSshFailure("Warning: Permanently added '[h]:22' (ED25519) to the list of known hosts.\r\n", 255, node);
    expect(err.message).toContain('without saying why');
  });
});
