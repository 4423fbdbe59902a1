import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type CommandResult } from '../../../e2e/harness/run-command';
import { writeKrl } from '../../../e2e/harness/ssh-ca';
import { startSshHarness, type SshHarness } from '../../../e2e/harness/ssh-harness';
import { generateKey, publicKeyLine } from '../../../e2e/harness/ssh-keys';
import { pollUntil } from '../../testing/poll-until';
import { closedPort, startEchoSocket } from '../testing/ssh-test-kit';
import { classifyOpenSshFailure } from './openssh-failure';
import { FAILURE_CASES } from './testing/openssh-failure-cases';

/**
 * Reproduces every failure of FAILURE_CASES with the machine's ssh against real sshds, and compares what ssh
 * printed with testdata/<name>.stderr (UPDATE_OPENSSH_TESTDATA=1 rewrites them). The classification tests
 * (openssh-failure.test.ts) read those files and need no ssh.
 */
const TESTDATA = join(import.meta.dirname, 'testdata');
const UPDATE = process.env.UPDATE_OPENSSH_TESTDATA === '1';

describe('ssh failures captured from real runs (OpenSSH client against real sshd)', () => {
  let plain: SshHarness;
  /** Password logins on; no TCP or UNIX socket forwarding. */
  let locked: SshHarness;
  /** Two factors: a key, then the password. */
  let twoFactor: SshHarness;
  let closed: number;
  let silent: Server;
  let silentPort: number;

  beforeAll(async () => {
    plain = await startSshHarness({ startKubelet: startEchoSocket });
    locked = await startSshHarness({ passwordUser: true, sshdOptions: { AllowTcpForwarding: 'no', AllowStreamLocalForwarding: 'no' } });
    twoFactor = await startSshHarness({ passwordUser: true, sshdOptions: { AuthenticationMethods: 'publickey,password' } });
    // The password user logs in with root's harness key as its first factor.
    await writeFile(join(twoFactor.dir, 'authorized_keys', twoFactor.passwordUser!.name), `${await publicKeyLine(twoFactor.root.key)}\n`, { mode: 0o644 });
    closed = await closedPort();
    // Takes TCP connections and never says a word: no SSH banner.
    silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    silent?.close();
    await Promise.all([plain?.stop(), locked?.stop(), twoFactor?.stop()]);
  });

  /** The stable text: each harness's folder, ports, fingerprints and user names replaced as FAILURE_CASES says. */
  function normalize(text: string): string {
    let out = text;
    for (const h of [plain, locked, twoFactor]) {
      out = out.replaceAll(h.dir, '/HARNESS').replace(new RegExp(`\\b${h.port}\\b`, 'g'), '2201').replace(new RegExp(`\\b${h.jumpPort}\\b`, 'g'), '2202');
      if (h.passwordUser) out = out.replaceAll(h.passwordUser.name, 'nsh-pw-user');
    }
    return out.replace(new RegExp(`\\b(${closed}|${silentPort})\\b`, 'g'), '2203').replace(/SHA256:[A-Za-z0-9+/]{43}/g, 'SHA256:FP');
  }

  /** ssh as the transport runs it: the case's options first (ssh keeps the first value), no agent, no prompts. */
  function ssh(h: SshHarness, user: string, options: string[], extra: string[] = [], port = h.port): Promise<CommandResult> {
    return runCommand('ssh', ['-F', '/dev/null', '-p', String(port), '-l', user, ...options.flatMap((o) => ['-o', o]),
      '-o', `UserKnownHostsFile=${h.knownHosts}`, '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none',
      '-o', 'BatchMode=yes', ...extra, h.host, 'true'], { env: { ...process.env, SSH_ASKPASS_REQUIRE: 'never' } });
  }
  const asRoot = (h: SshHarness, options: string[] = [], extra: string[] = [], port?: number) => ssh(h, 'root', [`IdentityFile=${h.root.key}`, ...options], extra, port);

  async function knownHostsWith(h: SshHarness, name: string, type: 'ed25519' | 'rsa'): Promise<string> {
    const key = join(h.dir, `${name}_key`);
    await generateKey(key, name, '', type);
    const file = join(h.dir, name);
    await writeFile(file, `[${h.host}]:${h.port} ${await publicKeyLine(key)}\n`, { mode: 0o600 });
    return file;
  }

  /** A `-L local:remote` forward (the streamlocal form a 9.2 client has): one connection through it, then ssh's complaint. */
  async function streamlocalFailure(h: SshHarness, user: { name: string; key: string }, remote: string): Promise<CommandResult> {
    const local = join(h.dir, `fwd-${randomBytes(4).toString('hex')}.sock`);
    const child = spawn('ssh', ['-F', '/dev/null', '-p', String(h.port), '-l', user.name, '-o', `IdentityFile=${user.key}`, '-o', `UserKnownHostsFile=${h.knownHosts}`,
      '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-N', '-L', `${local}:${remote}`, h.host], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      // The socket file exists from ssh's bind, a moment before its listen: a connection refused then opened
      // no channel, so it is made again (one that was taken leaves exactly one failed channel on stderr).
      await pollUntil('ssh to take a connection on the forward socket', () =>
        stat(local).then(
          () => new Promise<boolean>((resolve) => connect(local).on('connect', () => resolve(true)).on('error', () => resolve(false))),
          () => false,
        ),
      );
      await pollUntil('ssh to report the failed channel', () => stderr.includes('open failed'));
      return { stdout: '', stderr, code: 255 };
    } finally {
      child.kill();
    }
  }

  const produce: Record<string, () => Promise<CommandResult>> = {
    'host-key-changed': async () => asRoot(plain, [`UserKnownHostsFile=${await knownHostsWith(plain, 'known_hosts_changed', 'ed25519')}`]),
    'host-key-other-type': async () => asRoot(plain, [`UserKnownHostsFile=${await knownHostsWith(plain, 'known_hosts_rsa', 'rsa')}`]),
    'unknown-host-batch': () => asRoot(plain, ['UserKnownHostsFile=/dev/null']),
    'unknown-host-strict': () => asRoot(plain, ['UserKnownHostsFile=/dev/null', 'StrictHostKeyChecking=yes', 'BatchMode=no']),
    'host-key-revoked-krl': async () => asRoot(plain, [`RevokedHostKeys=${await writeKrl(join(plain.dir, 'revoked.krl'), [plain.hostKeyLine])}`]),
    'permission-denied-publickey': () => ssh(plain, 'root', [`IdentityFile=${plain.noSudo.key}`]),
    'permission-denied-password-off': () => ssh(locked, locked.passwordUser!.name, ['PasswordAuthentication=no', 'KbdInteractiveAuthentication=no', 'BatchMode=no', `IdentityFile=${locked.root.key}`]),
    'permission-denied-second-factor': () => ssh(twoFactor, twoFactor.passwordUser!.name, [`IdentityFile=${twoFactor.root.key}`]),
    'connection-refused': () => asRoot(plain, [], [], closed),
    'name-not-found': () => runCommand('ssh', ['-F', '/dev/null', '-o', 'BatchMode=yes', 'nodescope-no-such-host.invalid', 'true']),
    'banner-timeout': () => asRoot(plain, ['ConnectTimeout=1'], [], silentPort),
    'keepalive-lost': async () => {
      const child = spawn('ssh', ['-F', '/dev/null', '-p', String(plain.port), '-l', 'root', '-o', `IdentityFile=${plain.root.key}`, '-o', `UserKnownHostsFile=${plain.knownHosts}`,
        '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-o', 'ServerAliveInterval=1', '-o', 'ServerAliveCountMax=1', plain.host, 'echo ready; exec sleep 600'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // 'close', not 'exit': stderr is complete only then.
      const exited = new Promise<number>((r) => child.on('close', (code) => r(code ?? -1)));
      await pollUntil('the session to start', () => stdout.includes('ready'));
      plain.pauseConnections();
      try {
        return { stdout, stderr, code: await exited };
      } finally {
        plain.resumeConnections();
      }
    },
    // The command reads ssh's first bytes before it fails, so ssh always sees the pipe close rather than, at
    // times, a write into a pipe already gone (classified alike: openssh-failure.test.ts).
    'proxycommand-failed': () => asRoot(plain, [`ProxyCommand=sh -c 'head -c 4 >/dev/null; echo "proxy: cannot reach the gateway" >&2; exit 1'`]),
    'proxyjump-target-refused': () => runCommand('ssh', ['-F', plain.sshConfig, '-o', 'BatchMode=yes', '-J', 'jump', '-p', String(closed), '-l', 'root', plain.host, 'true']),
    'tcp-forwarding-prohibited': () => asRoot(locked, [], ['-W', '127.0.0.1:10250']),
    'streamlocal-forwarding-off': () => streamlocalFailure(locked, locked.root, '/HARNESS-does-not-matter.sock'),
    'streamlocal-socket-missing': () => streamlocalFailure(plain, plain.root, join(plain.dir, 'kubelet', 'missing.sock')),
    'streamlocal-permission-denied': () => streamlocalFailure(plain, plain.noSudo, plain.socketPath),
    'bad-option-in-file': async () => {
      const file = join(plain.dir, 'bad_config');
      await writeFile(file, 'Host *\n  HostNmae 127.0.0.1\n', { mode: 0o600 });
      return runCommand('ssh', ['-F', file, '-o', 'BatchMode=yes', plain.host, 'true']);
    },
    'bad-option-command-line': () => asRoot(plain, ['NoSuchOption=yes']),
    'mux-master-gone': () => asRoot(plain, [], ['-S', join(plain.dir, 'no-master.ctl'), '-O', 'check']),
    'mux-stdio-refused': async () => {
      const ctl = join(locked.dir, 'master.ctl');
      const master = await asRoot(locked, [], ['-M', '-N', '-f', '-S', ctl]);
      expect(master.code, master.stderr).toBe(0);
      try {
        return await asRoot(locked, [], ['-S', ctl, '-W', '127.0.0.1:10250']);
      } finally {
        await asRoot(locked, [], ['-S', ctl, '-O', 'exit']);
      }
    },
  };

  for (const c of FAILURE_CASES) {
    it(`${c.name}: ssh prints what testdata/${c.name}.stderr holds, and it is classified ${c.code}`, async () => {
      const r = await produce[c.name]!();
      expect(r.code, r.stderr).toBe(c.exitCode);
      const file = join(TESTDATA, `${c.name}.stderr`);
      const text = normalize(r.stderr);
      if (UPDATE) await writeFile(file, text);
      expect(text).toBe(await readFile(file, 'utf8'));
      expect(classifyOpenSshFailure(r.stderr, r.code, c.ctx).code).toBe(c.code);
    });
  }

  it('the three streamlocal failures print the very same text: only sshd\'s log tells them apart', async () => {
    const texts = await Promise.all(['streamlocal-forwarding-off', 'streamlocal-socket-missing', 'streamlocal-permission-denied'].map((n) => readFile(join(TESTDATA, `${n}.stderr`), 'utf8')));
    expect(new Set(texts).size).toBe(1);
  });
});
