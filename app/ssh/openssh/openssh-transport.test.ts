import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecked } from '../../../e2e/harness/run-command';
import { startSshHarness, type SshHarness } from '../../../e2e/harness/ssh-harness';
import { createKubeletClient, type KubeletClient } from '../../kubelet/kubelet-client';
import { pinName, rememberPin } from '../../kubelet-rest/kubelet-certificate-pins';
import { openKubeletRest } from '../../kubelet-rest/kubelet-rest-connection';
import { startSimulatedKubelet, type SimulatedKubelet } from '../../sim/kubelet-server';
import { openKubeletTransport, type KubeletTransport } from '../kubelet-transport';
import { runRemote } from '../remote-exec';
import { harnessTarget, scriptedPrompter } from '../testing/ssh-test-kit';
import { nodescope } from '../../cli/testing/run-nodescope';
import { openKubeletNodeLink } from '../../host/kubelet-node-link';
import { pollUntil } from '../../testing/poll-until';
import { startSilentAuthSshd } from '../testing/silent-auth-sshd';
import { fingerprintSha256 } from '../host-key-fingerprint';
import { findSshBinary } from '../ssh-config-openssh';
import { createOpenSshSession } from './openssh-session';

/** The Pods API, the sudo bridge and commands through the user's own ssh, against a real sshd and simulated kubelet. */

let h: SshHarness;
let sim: SimulatedKubelet;
let dir: string;
const TOKEN = 'tok-openssh-0123456789';
const opened: { transport: KubeletTransport; client: KubeletClient }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-openssh-'));
  h = await startSshHarness({
    startKubelet: async (socketPath) =>
      (sim = await startSimulatedKubelet({ socketPath, documentedSocketPath: join(dirname(socketPath), 'documented.sock'), pods: 110, seed: 7, rest: { tokens: { [TOKEN]: 'alice' }, readOnlyPort: 0 } })),
  });
}, 60_000);
afterAll(async () => {
  for (const { client, transport } of opened.splice(0)) {
    client.close();
    await transport.close();
  }
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

const openSession = async (destination: string, configFile = h.sshConfig) => (await createOpenSshSession({ destination, configFile }, { prompter: scriptedPrompter() })).session;

const logins = (user: string) => h.logs().match(new RegExp(`Accepted publickey for ${user} `, 'g'))?.length ?? 0;

async function listThrough(alias: string, bridgeMode?: 'auto' | 'sudo') {
  const { session } = await createOpenSshSession({ destination: alias, configFile: h.sshConfig }, { prompter: scriptedPrompter() });
  const transport = await openKubeletTransport(harnessTarget(h, h.root), { socketPath: h.socketPath, prompter: scriptedPrompter(), session, ...(bridgeMode ? { bridgeMode } : {}) });
  const client = createKubeletClient({ target: transport.open, socketPath: h.socketPath, transportError: () => transport.lastError() });
  opened.push({ transport, client });
  return { transport, client, list: await client.listPods() };
}

describe('the OpenSSH transport', () => {
  it('lists pods over the Pods API socket through a ControlMaster', async () => {
    const { list, transport } = await listThrough('target');
    expect(list.pods).toHaveLength(110);
    expect(transport.bridge.activeMode()).toBe('streamlocal');
  });

  it('switches a user who may not open the socket to the sudo bridge, as the built-in transport does', async () => {
    const { list, transport } = await listThrough('target-operator');
    expect(list.pods).toHaveLength(110);
    expect(transport.bridge.activeMode()).toBe('sudo');
  });

  it('runs commands with their output and exit status', async () => {
    const session = await openSession('target');
    const conn = await session.connection();
    expect(await runRemote(conn.channels, "printf 'a b'; echo oops >&2; exit 3")).toEqual({ stdout: 'a b', stderr: 'oops\n', code: 3 });
    session.close();
  });

  it('logs in once for several sessions in a row (ControlPersist), as several CLI runs would', async () => {
    const session = () => openSession('target-nosudo');
    const before = logins('nsharness-nosudo');
    for (let i = 0; i < 3; i++) {
      const s = await session();
      const conn = await s.connection();
      expect((await runRemote(conn.channels, 'id -un')).stdout.trim()).toBe('nsharness-nosudo');
      s.close();
    }
    expect(logins('nsharness-nosudo') - before).toBe(1);
  });

  it("rides the user's own master where their ssh_config names a ControlPath, logging in no more", async () => {
    const config = join(dir, 'user-master.config');
    const controlPath = join(dir, 'cm-%C');
    await writeFile(config, ['Host target-nosudo', '  ControlMaster auto', `  ControlPath ${controlPath}`, 'Host *', `Include ${h.sshConfig}`, ''].join('\n'));
    const ssh = (args: string[]) => runChecked('ssh', ['-F', config, ...args, '--', 'target-nosudo']);
    await ssh(['-N', '-f']);
    try {
      const before = logins('nsharness-nosudo');
      const s = await openSession('target-nosudo', config);
      const conn = await s.connection();
      expect((await runRemote(conn.channels, 'id -un')).stdout.trim()).toBe('nsharness-nosudo');
      s.close();
      expect(logins('nsharness-nosudo') - before).toBe(0);
    } finally {
      await ssh(['-O', 'exit']);
    }
  });

  it('reads the kubelet REST API over a TCP stream through the master', async () => {
    const pins = join(dir, 'pins');
    await rememberPin(pins, pinName(h.host, sim.rest!.port), sim.rest!.fingerprint);
    const token = join(dir, 'token');
    await writeFile(token, TOKEN, { mode: 0o600 });
    const session = await openSession('target');
    const rest = await openKubeletRest(harnessTarget(h, h.root), { prompter: scriptedPrompter(), session, pinsFile: pins, port: sim.rest!.port, credentials: { token: { file: token } } });
    try {
      expect((await rest.client.listPods()).pods).toHaveLength(110);
    } finally {
      await rest.close();
      session.close();
    }
  });

  it('shares one login to the jump host among the nodes behind it, each told as the logins move on', async () => {
    const before = logins('nsharness-jump');
    const heard = [0, 0];
    const sessions = await Promise.all(
      ['via-jump', 'via-jump-operator'].map(async (destination, i) => (await createOpenSshSession({ destination, configFile: h.sshConfig }, { prompter: scriptedPrompter(), onProgress: () => heard[i]!++ })).session),
    );
    const users = await Promise.all(sessions.map(async (s) => (await runRemote((await s.connection()).channels, 'id -un')).stdout.trim()));
    expect(users).toEqual(['root', 'nsharness-op']);
    // The open limit keeps a node's slot while its logins move (ssh's -v lines): a slow login is not a silent one.
    expect(heard.every((n) => n > 0)).toBe(true);
    for (const s of sessions) s.close();
    expect(logins('nsharness-jump') - before).toBe(1);
  });

  /** An `ssh` first on PATH that logs each run's arguments (a line each), then runs the real one. */
  async function loggingSsh(name: string) {
    const bin = join(dir, `logging-ssh-${name}`);
    const log = join(bin, 'runs.log');
    await mkdir(bin, { recursive: true });
    await writeFile(log, '');
    await writeFile(join(bin, 'ssh'), `#!/bin/sh\nline=$(printf '%s ' "$@" | tr '\\n' ' ')\nprintf '%s\\n' "$line" >> '${log}'\nexec '${findSshBinary()!}' "$@"\n`, { mode: 0o755 });
    return { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, runs: async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean) };
  }

  it('asks ssh -G once per hop in a dial (the node and its jump host), and afresh in a re-dial', async () => {
    const { env, runs } = await loggingSsh('g');
    const asked = async (alias: string) => (await runs()).filter((l) => l.startsWith('-G ') && l.endsWith(` -- ${alias} `)).length;
    const { session } = await createOpenSshSession({ destination: 'via-jump', configFile: h.sshConfig }, { prompter: scriptedPrompter(), env });
    try {
      const first = await session.connection();
      expect((await runRemote(first.channels, 'id -un')).stdout.trim()).toBe('root');
      // The node's run named the session and served its first dial.
      expect([await asked('via-jump'), await asked('jump')]).toEqual([1, 1]);
      first.close();
      const second = await session.connection();
      expect(second).not.toBe(first);
      expect([await asked('via-jump'), await asked('jump')]).toEqual([2, 2]);
    } finally {
      session.close();
    }
  });

  it("forwards the Pods API socket in a new master's login, privately; a master already up forwards it with -O forward", async () => {
    // A config of its own: a master of its own, logged in by the first session here.
    const config = join(dir, 'login-forward.config');
    await writeFile(config, `Include ${h.sshConfig}\n`);
    const { env, runs } = await loggingSsh('forward');
    const list = async () => {
      const { session } = await createOpenSshSession({ destination: 'target', configFile: config }, { prompter: scriptedPrompter(), env, forwardSockets: [h.socketPath] });
      const transport = await openKubeletTransport(harnessTarget(h, h.root), { socketPath: h.socketPath, prompter: scriptedPrompter(), session });
      const client = createKubeletClient({ target: transport.open, socketPath: h.socketPath, transportError: () => transport.lastError() });
      opened.push({ transport, client });
      expect((await client.listPods()).pods).toHaveLength(110);
      expect(transport.bridge.activeMode()).toBe('streamlocal');
    };
    const forwardRuns = async () => (await runs()).filter((l) => / -O forward /.test(l)).length;
    await list();
    const login = (await runs()).find((l) => / -M /.test(l))!;
    const local = new RegExp(` -L (\\S+):${h.socketPath} `).exec(login)?.[1];
    expect(local).toBeDefined();
    expect((await stat(dirname(local!))).mode & 0o777).toBe(0o700);
    expect(await forwardRuns()).toBe(0);
    // The master is up now (ControlPersist): the next session rides it, and asks it for its forward.
    await list();
    expect((await runs()).filter((l) => / -M /.test(l))).toHaveLength(1);
    expect(await forwardRuns()).toBe(1);
  });

  it('looks at the Pods API socket in the session that holds the master: one session on the node, the same errors', async () => {
    // sshd (LogLevel VERBOSE) logs each session it starts: a fork and the user's shell on the node.
    const sessions = () => h.logs().match(/Starting session: command for /g)?.length ?? 0;
    const config = join(dir, 'holder-probe.config');
    await writeFile(config, `Include ${h.sshConfig}\n`);
    // As the app opens a node whose socket it is given: the socket forwarded, and looked at, by the connection.
    const open = async (alias: string, socketPath: string) => {
      const { session } = await createOpenSshSession({ destination: alias, configFile: config }, { prompter: scriptedPrompter(), forwardSockets: [socketPath] });
      const transport = await openKubeletTransport(harnessTarget(h, h.root), { socketPath, prompter: scriptedPrompter(), session });
      const client = createKubeletClient({ target: transport.open, socketPath, transportError: () => transport.lastError() });
      opened.push({ transport, client });
      return { transport, client };
    };
    const before = sessions();
    const ok = await open('target', h.socketPath);
    expect((await ok.client.listPods()).pods).toHaveLength(110);
    expect(ok.transport.bridge.activeMode()).toBe('streamlocal');
    expect(sessions() - before).toBe(1);

    const missing = `${h.socketPath}.missing`;
    const gone = await open('target', missing);
    await expect(gone.transport.open()).rejects.toMatchObject({
      code: 'SOCKET_MISSING',
      message: `No kubelet socket at ${missing} on ${h.host}`,
      nextStep: 'Check that the kubelet runs with the Pods API enabled, or give the right socket path.',
    });

    // A user who may not open the socket: sudo's word is asked by a probe of the bridge's own, then the bridge uses it.
    const operator = await open('target-operator', h.socketPath);
    expect((await operator.client.listPods()).pods).toHaveLength(110);
    expect(operator.transport.bridge.activeMode()).toBe('sudo');
  });

  it('reaches a node through a ProxyCommand that is a plain program (socat), which the built-in transport refuses', async () => {
    const config = join(dir, 'proxy-command.config');
    await writeFile(config, [`Host proxied`, `  HostName ${h.host}`, `  Port ${h.port}`, '  User root', `  IdentityFile ${h.root.key}`, '  ProxyCommand socat - TCP:%h:%p', `Include ${h.sshConfig}`, ''].join('\n'));
    const { transport, client } = await (async () => {
      const session = await openSession('proxied', config);
      const transport = await openKubeletTransport(harnessTarget(h, h.root), { socketPath: h.socketPath, prompter: scriptedPrompter(), session });
      const client = createKubeletClient({ target: transport.open, socketPath: h.socketPath, transportError: () => transport.lastError() });
      opened.push({ transport, client });
      return { transport, client };
    })();
    expect((await client.listPods()).pods).toHaveLength(110);
    expect(transport.bridge.activeMode()).toBe('streamlocal');
  });

  it.each([
    ['-v', false],
    ['-vv', true],
  ])("is the CLI's --ssh openssh: lists pods, says so and which master with %s, with ssh's own debug lines only from -vv", async (flag, sshDebug) => {
    // A config of its own: a master of its own, so this run logs in (and ssh -v has a login to tell of).
    const config = join(dir, `cli${flag}.config`);
    await writeFile(config, `Include ${h.sshConfig}\n`);
    const r = await nodescope(['pods', 'target-operator', '-F', config, '--ssh', 'openssh', flag, '--socket', h.socketPath]);
    expect(r.stderr).toContain('with your OpenSSH client (--ssh openssh)');
    if (sshDebug) expect(r.stderr).toMatch(/nodescope: ssh: debug1: SSH2_MSG_NEWKEYS received/);
    else expect(r.stderr).not.toMatch(/debug1:/);
    expect(r.stderr).toMatch(/nodescope: nsharness-op@127\.0\.0\.1:\d+: logging in, Nodescope's master \//);
    expect(r.stdout.trim().split('\n')).toHaveLength(111);
    // The switch to the sudo bridge is told once, naming its command once.
    expect(r.stderr.split('using `sudo -n socat').length - 1).toBe(1);
    // The next run rides the same login (ControlPersist), and says so.
    const again = await nodescope(['pods', 'target-operator', '-F', config, '--ssh', 'openssh', flag, '--socket', h.socketPath]);
    expect(again.stderr).toMatch(/nodescope: nsharness-op@127\.0\.0\.1:\d+: reusing the login of Nodescope's master \//);
    expect(again.stderr).not.toMatch(/logging in|SSH2_MSG_NEWKEYS/);
  });

  it('says a socket missing behind the sudo bridge as the built-in transport does, in every node command', async () => {
    const missing = `${h.socketPath}.missing`;
    const late = `sh -c 'socat STDIO UNIX-CONNECT:"$1"; s=$?; exec >&- 2>&-; sleep 1; exit $s' sh {socket}`;
    // socat's complaint names its pid and the time: the rest of the message is the transport's.
    const said = (stderr: string) => stderr.replace(/: \d{4}\/\d\d\/\d\d [\d:]+ socat\[\d+\]/g, ': socat');
    for (const args of [['pods'], ['get', sim.store.uids()[0]!], ['watch'], ['get', sim.store.uids()[0]!, '--sudo-command', late]]) {
      const run = (ssh: string) => nodescope([args[0]!, 'target', ...args.slice(1), '-F', h.sshConfig, '--ssh', ssh, '--socket', missing, ...(args.includes('--sudo-command') ? [] : ['--sudo'])]);
      const [builtin, openssh] = await Promise.all([run('builtin'), run('openssh')]);
      expect(openssh.stderr).toContain(`No socket at ${missing} on ${h.host}`);
      expect(said(openssh.stderr)).toBe(said(builtin.stderr));
      expect(openssh.code).toBe(builtin.code);
    }
  }, 60_000);

  it('names the host key ssh was offered when BatchMode refuses an unknown one, and how to accept it', async () => {
    const knownHosts = join(dir, 'empty_known_hosts');
    await writeFile(knownHosts, '');
    const [type, key] = h.hostKeyLine.split(' ');
    const fingerprint = fingerprintSha256(Buffer.from(key!, 'base64'));
    for (const strict of ['ask', 'yes']) {
      const config = join(dir, `batch-${strict}.config`);
      await writeFile(config, ['Host *', `  UserKnownHostsFile ${knownHosts}`, '  BatchMode yes', `  StrictHostKeyChecking ${strict}`, `Include ${h.sshConfig}`, ''].join('\n'));
      const [builtin, openssh] = await Promise.all(['builtin', 'openssh'].map((ssh) => nodescope(['pods', 'target', '-F', config, '--ssh', ssh, '--socket', h.socketPath])));
      for (const r of [builtin!, openssh!]) expect(r.stderr).toContain(fingerprint);
      expect(openssh!.stderr).toContain(`${type} ${fingerprint}`);
      expect(openssh!.stderr).toMatch(strict === 'ask' ? /next step: .*run ssh 127\.0\.0\.1 and answer yes \(or connect in the Nodescope app/ : /next step: .*ssh -o StrictHostKeyChecking=ask 127\.0\.0\.1/);
      expect(openssh!.code).toBe(builtin!.code);
    }
  }, 60_000);

  it("is the app's node setting ssh: 'openssh', said in the node's state", async () => {
    let pods = 0;
    const clients: string[] = [];
    const link = openKubeletNodeLink(
      {
        nodeId: 'n',
        spec: { kind: 'ssh', host: 'target', ssh: 'openssh', socketPath: h.socketPath },
        prompter: scriptedPrompter(),
        events: { state: () => {}, reset: (list) => (pods = list.length), change: () => {}, sshClient: (c) => clients.push(c) },
      },
      { sshConfigFile: h.sshConfig },
    );
    try {
      await pollUntil('the pods through OpenSSH', () => pods === 110);
      expect(clients).toEqual(['openssh']);
    } finally {
      await link.close();
    }
  });

  it('ends the login of a session closed while it waits (an sshd that never answers authentication)', async () => {
    const silent = await startSilentAuthSshd();
    try {
      const knownHosts = join(dir, 'silent_known_hosts');
      await writeFile(knownHosts, `[${silent.host}]:${silent.port} ${silent.hostKeyLine}\n`);
      const config = join(dir, 'silent.config');
      await writeFile(config, [`Host silent`, `  HostName ${silent.host}`, `  Port ${silent.port}`, '  User root', `  IdentityFile ${h.root.key}`, '  IdentitiesOnly yes', `  UserKnownHostsFile ${knownHosts}`, '  BatchMode yes', ''].join('\n'));
      const session = await openSession('silent', config);
      const dialled = session.connection();
      await pollUntil('ssh to ask for authentication', () => silent.authRequests() > 0);
      session.close();
      await expect(dialled).rejects.toMatchObject({ code: 'CLOSED' });
      // The ssh that was logging in is gone: the server sees its connection end.
      await pollUntil('the login to end', () => silent.connections() === 0);
    } finally {
      await silent.stop();
    }
  });
});
