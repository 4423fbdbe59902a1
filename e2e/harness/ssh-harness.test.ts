import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from './process-tree';
import { runCommand, type CommandResult } from './run-command';
import { HARNESS_HOST_ALIASES, startSshHarness, type SshHarness } from './ssh-harness';

/** A kubelet stand-in that echoes bytes back, so a byte round trip proves the path end to end. */
async function startEchoSocket(socketPath: string): Promise<{ stop(): Promise<void>; stopped: boolean }> {
  const server: Server = createServer((sock) => sock.pipe(sock));
  await new Promise<void>((r) => server.listen(socketPath, r));
  const handle = {
    stopped: false,
    stop: () => new Promise<void>((r) => server.close(() => ((handle.stopped = true), r()))),
  };
  return handle;
}

/** Plain OpenSSH client arguments that trust only the given known_hosts; BatchMode unless a passphrase is to be asked. */
function sshArgs(h: SshHarness, key: string, user: string, { batch = true, knownHosts = h.knownHosts } = {}): string[] {
  return ['-F', '/dev/null', '-o', `UserKnownHostsFile=${knownHosts}`, '-o', 'StrictHostKeyChecking=yes', '-o', `BatchMode=${batch ? 'yes' : 'no'}`, '-o', 'IdentitiesOnly=yes', '-i', key, '-p', String(h.port), `${user}@${h.host}`];
}

function explain(r: CommandResult, h: SshHarness): string {
  return `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}\n${h.logs()}`;
}

/**
 * Forwards a local UNIX socket to the harness kubelet socket with `ssh -N -L` (direct-streamlocal)
 * and returns what a 'ping' round trip brings back: the echo when allowed, '' when sshd refuses.
 */
async function streamlocalRoundTrip(h: SshHarness, sshTarget: string[]): Promise<string> {
  const local = join(await mkdtemp(join(tmpdir(), 'nodescope-fwd-')), 'fwd.sock');
  const ssh = spawn('ssh', ['-N', '-o', 'ExitOnForwardFailure=yes', '-L', `${local}:${h.socketPath}`, ...sshTarget], { stdio: 'ignore' });
  try {
    const deadline = Date.now() + 10_000;
    while (!existsSync(local)) {
      if (Date.now() > deadline || ssh.exitCode !== null) throw new Error(`ssh -L did not create ${local}\n${h.logs()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return await new Promise<string>((res) => {
      let got = '';
      const sock = connect(local, () => sock.end('ping'));
      sock.setEncoding('utf8').on('data', (d: string) => (got += d));
      // ssh resets the local connection when sshd refuses the channel; 'close' follows either way.
      sock.on('error', () => undefined);
      sock.once('close', () => res(got));
    });
  } finally {
    ssh.kill();
    await rm(resolve(local, '..'), { recursive: true, force: true });
  }
}

function portAccepts(host: string, port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = connect(port, host);
    s.once('connect', () => (s.destroy(), res(true)));
    s.once('error', () => res(false));
  });
}

describe('ssh harness', () => {
  let h: SshHarness;

  beforeAll(async () => {
    h = await startSshHarness({ startKubelet: startEchoSocket });
  });
  afterAll(async () => h?.stop());

  it('lets root, the operator and the no-sudo user log in by key, verifying the pinned host key', async () => {
    for (const [user, expected] of [[h.root, 'root'], [h.operator, h.operator.name], [h.noSudo, h.noSudo.name]] as const) {
      const r = await runCommand('ssh', [...sshArgs(h, user.key, user.name), 'id -un']);
      expect(r.code, explain(r, h)).toBe(0);
      expect(r.stdout.trim()).toBe(expected);
    }
  });

  it('runs sessions with an empty HOME, so the machine\'s dotfiles cannot slow or break them', async () => {
    const r = await runCommand('ssh', [...sshArgs(h, h.root.key, 'root'), 'echo "$HOME"; ls -A "$HOME" | wc -l']);
    expect(r.code, explain(r, h)).toBe(0);
    expect(r.stdout).toBe(`${join(h.dir, 'home')}\n0\n`);
  });

  it('rejects a host key that is not the one in knownHosts', async () => {
    const otherKnownHosts = join(h.dir, 'other_known_hosts');
    await writeFile(otherKnownHosts, `[${h.host}]:${h.port} ${h.jumpHostKeyLine}\n`);
    const r = await runCommand('ssh', [...sshArgs(h, h.root.key, 'root', { knownHosts: otherKnownHosts }), 'true']);
    expect(r.code).toBe(255);
    expect(r.stderr).toMatch(/REMOTE HOST IDENTIFICATION HAS CHANGED/);
  });

  it('accepts the operator\'s passphrase-protected key with its passphrase', async () => {
    const askpassDir = await mkdtemp(join(tmpdir(), 'nodescope-askpass-'));
    try {
      const askpass = join(askpassDir, 'askpass.sh');
      await writeFile(askpass, `#!/bin/sh\nprintf '%s\\n' '${h.operator.passphrase}'\n`, { mode: 0o700 });
      const r = await runCommand('ssh', [...sshArgs(h, h.operator.encryptedKey, h.operator.name, { batch: false }), 'id -un'], {
        env: { ...process.env, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force' },
      });
      expect(r.code, explain(r, h)).toBe(0);
      expect(r.stdout.trim()).toBe(h.operator.name);
      const wrong = await runCommand('ssh-keygen', ['-y', '-P', 'not-the-passphrase', '-f', h.operator.encryptedKey]);
      expect(wrong.code).not.toBe(0);
    } finally {
      await rm(askpassDir, { recursive: true, force: true });
    }
  });

  it('keeps the kubelet socket root-only inside a root-only dir', () => {
    expect(statSync(h.socketPath).isSocket()).toBe(true);
    expect(statSync(h.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(resolve(h.socketPath, '..')).mode & 0o777).toBe(0o700);
  });

  it('lets the operator reach the socket only through `sudo -n socat`, and refuses the no-sudo user', async () => {
    const bridge = `sudo -n socat STDIO UNIX-CONNECT:${h.socketPath}`;
    const ok = await runCommand('ssh', [...sshArgs(h, h.operator.key, h.operator.name), bridge], { input: 'ping through sudo\n' });
    expect(ok.code, explain(ok, h)).toBe(0);
    expect(ok.stdout).toBe('ping through sudo\n');

    const direct = await runCommand('ssh', [...sshArgs(h, h.operator.key, h.operator.name), `socat STDIO UNIX-CONNECT:${h.socketPath}`], { input: 'x' });
    expect(direct.code).not.toBe(0);
    expect(direct.stderr).toMatch(/Permission denied/);

    const refused = await runCommand('ssh', [...sshArgs(h, h.noSudo.key, h.noSudo.name), bridge], { input: 'x' });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/sudo: a password is required/);
  });

  it('does not let the operator run anything else as root', async () => {
    const r = await runCommand('ssh', [...sshArgs(h, h.operator.key, h.operator.name), 'sudo -n id -u']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/sudo: a password is required/);
  });

  it('routes through the jump host via the ssh_config aliases and via -J', async () => {
    for (const [alias, user] of [[HARNESS_HOST_ALIASES.viaJump, 'root'], [HARNESS_HOST_ALIASES.viaJumpOperator, h.operator.name]]) {
      const r = await runCommand('ssh', ['-F', h.sshConfig, '-o', 'BatchMode=yes', alias!, 'id -un']);
      expect(r.code, explain(r, h)).toBe(0);
      expect(r.stdout.trim()).toBe(user);
    }
    const viaJ = await runCommand('ssh', ['-F', h.sshConfig, '-o', 'BatchMode=yes', '-J', HARNESS_HOST_ALIASES.jump, HARNESS_HOST_ALIASES.target, 'id -un']);
    expect(viaJ.code, explain(viaJ, h)).toBe(0);
    expect(h.logs()).toMatch(/Accepted publickey for nsharness-jump/);
  });

  it('gives the jump user no shell and no UNIX-socket forwarding', async () => {
    const shell = await runCommand('ssh', ['-F', h.sshConfig, '-o', 'BatchMode=yes', HARNESS_HOST_ALIASES.jump, 'id -un']);
    expect(shell.stdout).toBe('');
    expect(shell.code).toBe(1); // ForceCommand /bin/false

    expect(await streamlocalRoundTrip(h, ['-F', h.sshConfig, HARNESS_HOST_ALIASES.jump])).toBe('');
    expect(h.logs()).toMatch(/refused streamlocal port forward/);
  });

  it('lets root forward a UNIX socket to the kubelet (direct-streamlocal)', async () => {
    expect(await streamlocalRoundTrip(h, sshArgs(h, h.root.key, 'root'))).toBe('ping');
  });

  it('drops live connections on killConnections() and keeps accepting new ones', async () => {
    const child = spawn('ssh', [...sshArgs(h, h.root.key, 'root'), 'echo up; sleep 60'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((r) => child.stdout.once('data', () => r()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await h.killConnections();
    expect(await exited).toBe(255);
    const again = await runCommand('ssh', [...sshArgs(h, h.root.key, 'root'), 'true']);
    expect(again.code, explain(again, h)).toBe(0);
  });
});

describe('ssh harness options and lifecycle', () => {
  it('applies sshdOptions to the target sshd', async () => {
    const h = await startSshHarness({ sshdOptions: { AllowStreamLocalForwarding: 'no' }, startKubelet: startEchoSocket });
    try {
      expect(await streamlocalRoundTrip(h, sshArgs(h, h.root.key, 'root'))).toBe('');
      expect(h.logs()).toMatch(/refused streamlocal port forward/);
      expect(await readFile(join(h.dir, 'target', 'sshd_config'), 'utf8')).toMatch(/^AllowStreamLocalForwarding no$/m);
    } finally {
      await h.stop();
    }
  });

  it('starts parallel harnesses, also on another loopback address', async () => {
    const started = await Promise.all([startSshHarness(), startSshHarness(), startSshHarness({ address: '127.0.0.2' })]);
    try {
      const [a, b, c] = started as [SshHarness, SshHarness, SshHarness];
      expect(new Set([a.port, a.jumpPort, b.port, b.jumpPort]).size).toBe(4);
      expect(c.host).toBe('127.0.0.2');
      expect(await readFile(c.knownHosts, 'utf8')).toContain(`[127.0.0.2]:${c.port} ${c.hostKeyLine}`);
      for (const h of started) {
        const r = await runCommand('ssh', [...sshArgs(h, h.operator.key, h.operator.name), `sudo -n socat STDIO UNIX-CONNECT:${h.socketPath}`]);
        // No kubelet was started, so socat itself fails; sudo allowing it is what is checked.
        expect(r.stderr, explain(r, h)).toMatch(/socat.*No such file or directory/);
      }
    } finally {
      await Promise.all(started.map((h) => h.stop()));
    }
  });

  it('offers a temporary password user for password and keyboard-interactive logins, removed on stop()', async () => {
    const h = await startSshHarness({ passwordUser: true });
    const askpassDir = await mkdtemp(join(tmpdir(), 'nodescope-askpass-'));
    try {
      const user = h.passwordUser!;
      const login = async (method: string, password: string) => {
        const askpass = join(askpassDir, `askpass-${method}-${password.length}.sh`);
        await writeFile(askpass, `#!/bin/sh\nprintf '%s\\n' '${password}'\n`, { mode: 0o700 });
        return runCommand(
          'ssh',
          ['-F', '/dev/null', '-o', `UserKnownHostsFile=${h.knownHosts}`, '-o', 'StrictHostKeyChecking=yes', '-o', `PreferredAuthentications=${method}`,
            '-o', 'PubkeyAuthentication=no', '-o', 'NumberOfPasswordPrompts=1', '-p', String(h.port), `${user.name}@${h.host}`, 'id -un'],
          { env: { ...process.env, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force' } },
        );
      };
      for (const method of ['password', 'keyboard-interactive']) {
        const ok = await login(method, user.password);
        expect(ok.code, explain(ok, h)).toBe(0);
        expect(ok.stdout.trim()).toBe(user.name);
        expect((await login(method, 'wrong-password')).code).toBe(255);
      }
      expect(h.logs()).toMatch(new RegExp(`Accepted keyboard-interactive/pam for ${user.name}`));
    } finally {
      await h.stop();
      await rm(askpassDir, { recursive: true, force: true });
    }
    expect((await runCommand('id', [h.passwordUser!.name])).code).not.toBe(0);
  });

  it('refuses password logins by default', async () => {
    const h = await startSshHarness();
    try {
      expect(h.passwordUser).toBeUndefined();
      const r = await runCommand('ssh', ['-F', '/dev/null', '-o', `UserKnownHostsFile=${h.knownHosts}`, '-o', 'BatchMode=yes', '-o', 'PubkeyAuthentication=no', '-p', String(h.port), `${h.operator.name}@${h.host}`, 'true']);
      expect(r.code).toBe(255);
      expect(r.stderr).toMatch(/Permission denied \(publickey\)/);
    } finally {
      await h.stop();
    }
  });

  it('fails with sshd\'s own message on a bad sshd option, cleaning up what it had set up', async () => {
    const err = await startSshHarness({ sshdOptions: { NoSuchOption: 'yes' } }).then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/sshd did not start on 127\.0\.0\.1:[\s\S]*Bad configuration option: NoSuchOption/);
    const dir = /(\/tmp\/nodescope-sshd-[^/\s]+)/.exec(err!.message)?.[1];
    expect(dir && existsSync(dir)).toBe(false);
    expect((await runCommand('grep', ['-rl', `${dir}/`, '/etc/sudoers.d'])).stdout).toBe('');
  });

  it('refuses a non-loopback address', async () => {
    await expect(startSshHarness({ address: '192.0.2.1' })).rejects.toThrow(/not a 127\.x\.y\.z loopback address/);
  });

  it('leaves nothing behind after stop(), and stop() is idempotent', async () => {
    let kubelet: Awaited<ReturnType<typeof startEchoSocket>> | undefined;
    const h = await startSshHarness({ startKubelet: async (p) => (kubelet = await startEchoSocket(p)) });
    const pids = (await Promise.all(['target', 'jump'].map((d) => readFile(join(h.dir, d, 'sshd.pid'), 'utf8')))).map(Number);
    const sudoers = (await runCommand('grep', ['-rl', h.socketPath, '/etc/sudoers.d'])).stdout.trim();
    expect(sudoers).toMatch(/^\/etc\/sudoers\.d\/nodescope-harness-/);
    const session = spawn('ssh', [...sshArgs(h, h.root.key, 'root'), 'echo up; sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((r) => session.stdout.once('data', () => r()));

    await h.stop();
    await h.stop();

    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(h.dir)).toBe(false);
    expect(existsSync(sudoers)).toBe(false);
    expect(kubelet?.stopped).toBe(true);
    expect(await portAccepts(h.host, h.port)).toBe(false);
    expect(await portAccepts(h.host, h.jumpPort)).toBe(false);
    // The live session was cut too, not left running without its listener.
    expect(await new Promise((r) => (session.exitCode !== null ? r(session.exitCode) : session.once('exit', r)))).toBe(255);
  });

  it('cleans up through its watchdog when the owning process is killed', async () => {
    const script = join(import.meta.dirname, 'testing', 'start-harness-and-wait.ts');
    const runTs = join(import.meta.dirname, '..', '..', 'bin', 'run-ts.js');
    const child = spawn(process.execPath, [runTs, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((r) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d).includes('\n') && r(out));
    });
    const { dir, port, user } = JSON.parse(line) as { dir: string; port: number; user: string };
    expect((await runCommand('id', [user])).code).toBe(0);
    const pids = (await Promise.all(['target', 'jump'].map((d) => readFile(join(dir, d, 'sshd.pid'), 'utf8')))).map(Number);
    child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    const userExists = async () => (await runCommand('id', [user])).code === 0;
    while ((existsSync(dir) || pids.some(isAlive) || (await userExists())) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await userExists()).toBe(false);
    expect(existsSync(dir)).toBe(false);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(await portAccepts('127.0.0.1', port)).toBe(false);
    expect((await runCommand('grep', ['-rl', join(dir, 'kubelet'), '/etc/sudoers.d'])).stdout).toBe('');
  });
});
