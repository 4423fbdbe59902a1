// Node context through the real SSH path: OpenSSH sshd on loopback, a process named kubelet started
// with --config and --feature-gates, and small crictl, systemctl and journalctl stand-ins written here.
// As root, as a non-root user with a sudo rule, and as one without sudo (whose root-only parts fail and
// say why while the others still show). The CLI is tested here too: one process named kubelet at a time.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { nodeAllocatable } from './node-allocatable';
import { allocatable } from '../sim/pod-resources-server';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type HarnessUser, type SshHarness } from '../../e2e/harness/ssh-harness';
import { installSudoersRule, newSudoersPath } from '../../e2e/harness/sudoers-rule';
import { EXIT } from '../cli/exit-codes';
import { nodescope } from '../cli/testing/run-nodescope';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { pinName, rememberPin } from '../kubelet-rest/kubelet-certificate-pins';
import { harnessTarget, scriptedPrompter } from '../ssh/testing/ssh-test-kit';
import { createSshSession, type SshSession } from '../ssh/ssh-session';
import { startSimJournal } from '../sim/sim-journal';
import { processesWithArg } from '../testing/processes-with-arg';
import { announcingRunner, sshCommandRunner } from './command-runner';
import { DEFAULT_PROGRAMS, nodeCommands } from './node-commands';
import { isRead, type NodeContext } from './node-context';
import { createNodeInfoReader, type NodeInfoOptions } from './node-info-reader';
import { sshHttpGet } from './node-http';

const ENDPOINT = 'unix:///run/fake-containerd/containerd.sock';

let h: SshHarness;
let sim: SimulatedKubelet;
const TOKEN = 'tok-node-info-0123456789';
let dir: string;
let bin: string;
let configPath: string;
let quietFollow: string;
let kubelet: ChildProcess;
let healthz: Server;
let healthzPort: number;
let sudoersPath: string;
const sessions: SshSession[] = [];

const crictlPs = {
  containers: [
    { id: 'c-web', metadata: { name: 'web', attempt: 0 }, state: 'CONTAINER_RUNNING', labels: { 'io.kubernetes.pod.uid': 'u1', 'io.kubernetes.pod.namespace': 'default', 'io.kubernetes.pod.name': 'web-0' } },
    { id: 'c-leaked', metadata: { name: 'old', attempt: 3 }, state: 'CONTAINER_EXITED', labels: { 'io.kubernetes.pod.uid': 'gone' } },
  ],
};
const pods = [
  { metadata: { uid: 'u1', namespace: 'default', name: 'web-0' }, status: { containerStatuses: [{ name: 'web', containerID: 'containerd://c-web' }, { name: 'sidecar', containerID: 'containerd://c-missing' }] } },
];

async function script(name: string, body: string): Promise<string> {
  const path = join(bin, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

beforeAll(async () => {
  // The simulated kubelet's Pods API on the node, for the CLI's pods.
  h = await startSshHarness({ startKubelet: async (socketPath) => (sim = await startSimulatedKubelet({ socketPath, podResourcesSocketPath: `${socketPath}.pr`, pods: 4, seed: 24, rest: { tokens: { [TOKEN]: 'alice' } } })) });
  dir = await mkdtemp(join(tmpdir(), 'nodescope-node-info-'));
  await chmod(dir, 0o755);
  bin = join(dir, 'bin');
  await import('node:fs/promises').then((fs) => fs.mkdir(bin, { mode: 0o755 }));
  healthz = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => healthz.listen(0, '127.0.0.1', r));
  healthzPort = (healthz.address() as AddressInfo).port;
  // Root-only, as kubeadm's /var/lib/kubelet/config.yaml.
  configPath = join(dir, 'config.yaml');
  await writeFile(configPath, `kind: KubeletConfiguration\ncontainerRuntimeEndpoint: ${ENDPOINT}\nhealthzPort: ${healthzPort}\nfeatureGates:\n  PodsAPI: true\n`, { mode: 0o600 });
  // The runtime's socket is root-only: crictl as another user is refused, as the real one is.
  await script('crictl', [
    'if [ "$(id -u)" != 0 ]; then echo "connect: permission denied" >&2; exit 1; fi',
    `if [ "$1" != --runtime-endpoint ] || [ "$2" != "${ENDPOINT}" ]; then echo "wrong endpoint: $*" >&2; exit 1; fi`,
    'shift 2',
    'case "$1" in',
    '  version) printf "Version:  0.1.0\\nRuntimeName:  containerd\\nRuntimeVersion:  v1.7.13\\nRuntimeApiVersion:  v1\\n";;',
    `  ps) echo '${JSON.stringify(crictlPs)}';;`,
    '  *) exit 1;;',
    'esac',
  ].join('\n'));
  await script('systemctl', 'for u in kubelet k3s k3s-agent rke2-server rke2-agent snap.microk8s.daemon-kubelite; do\n  if [ $u = k3s-agent ]; then printf "Id=$u.service\\nLoadState=loaded\\nActiveState=active\\nSubState=running\\n\\n"; else printf "Id=$u.service\\nLoadState=not-found\\nActiveState=inactive\\nSubState=dead\\n\\n"; fi\ndone');
  // As journalctl for a user outside systemd-journal/adm: exit 0, no entries, and a notice on stderr.
  await script('journalctl', '[ "$*" = "-u k3s-agent -n 2 --no-pager -o short-iso" ] || { echo "unexpected: $*" >&2; exit 1; }\nif [ "$(id -u)" != 0 ]; then echo "Hint: You are currently not seeing messages from other users and the system." >&2; echo "-- No entries --"; exit 0; fi\necho "2026-11-27T21:00:01+0000 node-1 k3s[77]: I1127 started"\necho "2026-11-27T21:00:02+0000 node-1 k3s[77]: E1127 sync failed"');
  // A process named kubelet (a script's process takes the script's name) that answers --version.
  const fake = await script('kubelet', 'if [ "$1" = --version ]; then echo "Kubernetes v1.37.2"; exit 0; fi\nwhile :; do sleep 1; done');
  kubelet = spawn(fake, ['--config', configPath, `--feature-gates=Foo=true`], { stdio: 'ignore' });
  // A follow that prints nothing more, as an older journalctl, or one under sudo's pty, that notices its reader gone only when it writes.
  quietFollow = await script('quiet-follow', 'echo started\nwhile :; do sleep 1; done');
  sudoersPath = newSudoersPath();
  await installSudoersRule(sudoersPath, `${h.operator.name} ALL=(root) NOPASSWD: /usr/bin/cat -- ${configPath}, ${bin}/crictl, ${bin}/journalctl, ${quietFollow}\n`);
}, 60_000);

afterAll(async () => {
  for (const s of sessions) s.close();
  // Gone before the next run starts: `pgrep -o -x kubelet` would find this one, the oldest, instead of its own.
  if (kubelet && kubelet.exitCode === null && kubelet.signalCode === null) {
    const exited = new Promise((resolve) => kubelet!.once('exit', resolve));
    kubelet.kill('SIGKILL');
    await exited;
  }
  healthz?.close();
  await rm(sudoersPath, { force: true });
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function read(user: HarnessUser, extra: Partial<NodeInfoOptions> = {}): Promise<{ context: NodeContext; commands: string[] }> {
  const session = createSshSession(harnessTarget(h, user), { prompter: scriptedPrompter() });
  sessions.push(session);
  const commands: string[] = [];
  const reader = createNodeInfoReader({
    runner: announcingRunner(sshCommandRunner(async () => (await session.connection()).channels), (line) => commands.push(line)),
    sudo: false,
    programs: { crictl: `${bin}/crictl`, systemctl: `${bin}/systemctl`, journalctl: `${bin}/journalctl` },
    kubeletBinary: `${bin}/kubelet`,
    journalLines: 2,
    httpGet: sshHttpGet(() => session.connection(), h.host),
    pods: async () => pods,
    ...extra,
  });
  return { context: await reader.read(), commands };
}

describe('node context over SSH', () => {
  it('as root: every part is read, each from where it says', async () => {
    const { context: c, commands } = await read(h.root);
    expect(c.process).toMatchObject({ value: { binary: '/bin/sh', configPath, featureGatesFlag: 'Foo=true' } });
    expect(c.version).toEqual({ from: `${bin}/kubelet --version`, value: 'v1.37.2' });
    expect(c.health).toEqual({ from: `GET http://127.0.0.1:${healthzPort}/healthz`, value: { healthy: true, status: 200, body: 'ok' } });
    expect(c.config).toMatchObject({ from: `${configPath} (--config of the running kubelet)`, value: { kind: 'KubeletConfiguration', featureGates: { PodsAPI: true } } });
    expect(c.featureGates).toMatchObject({ value: { gates: { PodsAPI: true, Foo: true }, podsApi: { enabled: true } } });
    expect(c.runtime).toMatchObject({ value: { name: 'containerd', version: 'v1.7.13', apiVersion: 'v1', endpoint: ENDPOINT } });
    expect(c.journal).toMatchObject({ value: { unit: { unit: 'k3s-agent', activeState: 'active' }, lines: [{ identifier: 'k3s', pid: 77, message: 'I1127 started' }, { message: 'E1127 sync failed' }] } });
    expect(c.containers).toMatchObject({ value: { runtimeOnly: [{ id: 'c-leaked' }], kubeletOnly: [{ id: 'c-missing', container: 'sidecar', podName: 'web-0' }] } });
    // Every command is fixed and runs as argv: nothing from a pod is in any of them.
    expect(commands).toEqual(expect.arrayContaining(['pgrep -o -x kubelet', `cat -- ${configPath}`, `${bin}/crictl --runtime-endpoint ${ENDPOINT} ps -a -o json`, `${bin}/journalctl -u k3s-agent -n 2 --no-pager -o short-iso`]));
  }, 60_000);

  it('as a non-root user with --sudo: the root-only config file and runtime are read through sudo -n', async () => {
    const { context: c, commands } = await read(h.operator, { sudo: true });
    expect({ config: c.config, runtime: c.runtime, gates: c.featureGates }).toMatchObject({ config: { value: {} }, runtime: { value: {} }, gates: { value: {} } });
    expect(commands).toContain(`sudo -n cat -- ${configPath}`);
    expect(commands).toContain(`sudo -n ${bin}/crictl --runtime-endpoint ${ENDPOINT} version`);
    expect(c.journal).toMatchObject({ value: { lines: [{ message: 'I1127 started' }, { message: 'E1127 sync failed' }] } });
  }, 60_000);

  it('as a user without sudo: the root-only parts say why and what to do, and the others still show', async () => {
    const { context: c } = await read(h.noSudo);
    expect(c.config).toMatchObject({ error: expect.stringMatching(/cat -- .*config.yaml` failed on the node: .*Permission denied/), nextStep: expect.stringMatching(/needs root on the node.*--sudo/) });
    expect(c.runtime).toMatchObject({ error: expect.stringMatching(/crictl version` failed on the node: connect: permission denied/), nextStep: expect.stringMatching(/--sudo/) });
    expect(c.runtime).not.toHaveProperty('value');
    expect(c.containers).not.toHaveProperty('value');
    // Without the config file, the gates come from the command line alone, the Pods API gate from the version's default.
    expect(c.featureGates).toMatchObject({ value: { gates: { Foo: true }, podsApi: { enabled: true, why: expect.stringMatching(/on by default from Kubernetes 1.37/) } } });
    // journalctl says "-- No entries --" to a user who may not read the journal: that is not an empty journal.
    expect(c.journal).toEqual({ error: expect.stringMatching(/journalctl -u k3s-agent .* may not read the system journal: Hint: You are currently not seeing/), nextStep: expect.stringMatching(/--sudo.*systemd-journal/) });
    expect(isRead(c.version) && isRead(c.process)).toBe(true);
    // Without the config, healthz is asked on the default port, where nothing listens here.
    expect(c.health).toMatchObject({ error: expect.stringMatching(/127.0.0.1:10248/) });
  }, 60_000);

  it('a program missing on the node is named with how to give its path', async () => {
    const { context: c } = await read(h.root, { programs: { crictl: `${bin}/no-crictl`, systemctl: `${bin}/systemctl`, journalctl: `${bin}/journalctl` } });
    expect(c.runtime).toMatchObject({ error: expect.stringContaining('no-crictl'), nextStep: expect.stringMatching(/not installed on the node.*give its path/) });
    expect(c.journal).toMatchObject({ value: {} });
  }, 60_000);
});

describe('sshCommandRunner', () => {
  it('runs a command again when its channel closed without an exit code (read-only commands: running again changes nothing)', async () => {
    const marker = join(dir, 'first-run-done');
    // The first run ends by a signal, so no exit status comes back: the same as a lost one.
    const flaky = await script('flaky', `if [ -e ${marker} ]; then echo second; exit 0; fi\ntouch ${marker}\nkill -9 $$`);
    const session = createSshSession(harnessTarget(h, h.root), { prompter: scriptedPrompter() });
    sessions.push(session);
    const r = await sshCommandRunner(async () => (await session.connection()).channels).run([flaky]);
    expect(r).toEqual({ stdout: 'second\n', stderr: '', code: 0 });
  }, 60_000);

  it("streams a following command's output beside the one-at-a-time runs, and ends it when its caller stops", async () => {
    // The simulated kubelet's journal on the node, followed with the panel's command.
    const journal = startSimJournal({ dir: await mkdtemp(join(dir, 'journal-')), lines: 3 });
    const session = createSshSession(harnessTarget(h, h.root), { prompter: scriptedPrompter() });
    sessions.push(session);
    const runner = sshCommandRunner(async () => (await session.connection()).channels);
    const argv = nodeCommands({ ...DEFAULT_PROGRAMS, ...journal.programs }, 3).journalFollow('kubelet');
    const stop = new AbortController();
    let out = '';
    const ended = runner.stream(argv, {}, (d) => (out += d.toString()), stop.signal);
    await expect.poll(() => out.split('\n').length).toBe(4);
    // A run while the follow goes on is answered: the follow does not hold the runner's one-at-a-time queue.
    expect(await runner.run(['echo', 'beside'])).toMatchObject({ stdout: 'beside\n', code: 0 });
    journal.write('I1128 written while followed over SSH');
    await expect.poll(() => out).toContain('I1128 written while followed over SSH');
    stop.abort();
    expect(await ended).toMatchObject({ code: null });
    // Gone from the node at once, not at the journal's next line (when a write to the closed channel would end it).
    await expect.poll(() => processesWithArg(journal.file)).toEqual([]);
    journal.write('I1128 after the follow');
    expect(out).not.toContain('I1128 after the follow');
  }, 60_000);

  it.each([
    ['as root', () => h.root, false],
    ['through sudo', () => h.operator, true],
  ] as const)('a follow that prints nothing more ends on the node as soon as its caller stops, not at a next line that never comes (%s)', async (_, user, sudo) => {
    const session = createSshSession(harnessTarget(h, user()), { prompter: scriptedPrompter() });
    sessions.push(session);
    const runner = sshCommandRunner(async () => (await session.connection()).channels);
    const stop = new AbortController();
    let out = '';
    const ended = runner.stream([quietFollow], { sudo }, (d) => (out += d.toString()), stop.signal);
    await expect.poll(() => out).toBe('started\n');
    expect(processesWithArg(quietFollow)).not.toEqual([]);
    stop.abort();
    expect(await ended).toMatchObject({ code: null });
    await expect.poll(() => processesWithArg(quietFollow)).toEqual([]);
  }, 60_000);
});

describe('nodescope node (the CLI)', () => {
  it('-o json: every part, read or with why not; -v shows each command on stderr; the pods come from the same connection', async () => {
    const prSocket = `${h.socketPath}.pr`;
    const r = await nodescope(['node', A.target, '-F', h.sshConfig, '--socket', h.socketPath, '-o', 'json', '-v', '--crictl', `${bin}/crictl`, '--kubelet-binary', `${bin}/kubelet`, '--journal-lines', '2', '--pod-resources-socket', prSocket]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const c = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
    // The node's PodResources socket, reached over the same SSH session.
    expect(c.allocatable).toEqual({ from: `PodResources GetAllocatableResources on ${prSocket}`, value: nodeAllocatable(allocatable()) });
    expect(Object.keys(c).sort()).toEqual(['allocatable', 'config', 'containers', 'featureGates', 'health', 'journal', 'process', 'runtime', 'version']);
    for (const [name, part] of Object.entries(c)) {
      // Each part is read (from, value) or not (error, and maybe nextStep): never both, never neither.
      expect('value' in part !== 'error' in part, name).toBe(true);
      expect('value' in part ? typeof part.from : typeof part.error, name).toBe('string');
    }
    expect(c.version).toEqual({ from: `${bin}/kubelet --version`, value: 'v1.37.2' });
    expect(c.runtime).toMatchObject({ value: { name: 'containerd' } });
    // The fake runtime knows none of the simulated kubelet's containers: all of them are only the kubelet's.
    const d = c.containers!.value as { kubeletContainers: number; kubeletOnly: { podUid: string }[]; runtimeOnly: { id: string }[] };
    expect(d.kubeletContainers).toBeGreaterThan(0);
    expect(d.kubeletOnly).toHaveLength(d.kubeletContainers);
    expect(d.runtimeOnly.map((x) => x.id)).toEqual(['c-web', 'c-leaked']);
    // The harness's node (this machine) has no kubelet unit (or no systemd): the journal says so and where to look instead.
    expect(c.journal).toMatchObject({ error: expect.any(String), nextStep: expect.stringMatching(/^Without a systemd unit the kubelet logs to files under \/var\/log/) });
    expect(r.stderr).toContain('nodescope: running on the node: pgrep -o -x kubelet');
    expect(r.stderr).toContain(`nodescope: running on the node: ${bin}/crictl --runtime-endpoint ${ENDPOINT} ps -a -o json`);
    expect(r.stderr).toContain(`nodescope: GET http://127.0.0.1:${healthzPort}/healthz on the node`);
  }, 60_000);

  it('the table shows each part on its line, and a part not read as why', async () => {
    const r = await nodescope(['node', A.target, '-F', h.sshConfig, '--socket', h.socketPath, '--crictl', `${bin}/no-crictl`, '--kubelet-binary', `${bin}/kubelet`]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/^KUBELET +v1\.37\.2 \(pid \d+, \/bin\/sh\)$/m);
    expect(r.stdout).toMatch(/^HEALTH +ok /m);
    const yaml = await nodescope(['node', A.target, '-F', h.sshConfig, '--socket', h.socketPath, '--kubelet-binary', `${bin}/kubelet`, '-o', 'yaml']);
    expect(parseYaml(yaml.stdout)).toMatchObject({ version: { value: 'v1.37.2' }, health: { value: { healthy: true } } });
    expect(r.stdout).toMatch(/^PODS API +on: PodsAPI=true in the kubelet's feature gates$/m);
    expect(r.stdout).toMatch(/^RUNTIME +not read: .*no-crictl.*\n +\S*no-crictl is not installed on the node/m);
  }, 60_000);
});

describe('nodescope node with REST credentials', () => {
  it("reads the effective configuration from /configz, its gates under the command line's, and falls back to the file when /configz refuses", async () => {
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, TOKEN, { mode: 0o600 });
    const pins = join(dir, 'pins');
    await rememberPin(pins, pinName(h.host, sim.rest!.port), sim.rest!.fingerprint);
    const common = ['node', A.target, '-F', h.sshConfig, '--socket', h.socketPath, '--kubelet-port', String(sim.rest!.port), '--kubelet-pins', pins, '--kubelet-binary', `${bin}/kubelet`, '-o', 'json'];
    const r = await nodescope([...common, '--token-file', tokenFile]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const c = JSON.parse(r.stdout) as Record<string, { from?: string; value?: Record<string, unknown>; error?: string }>;
    expect(c.config).toMatchObject({ from: 'GET /configz (kubelet REST API)', value: { maxPods: 110, featureGates: { PodsAPI: true } } });
    expect(c.featureGates).toMatchObject({ value: { gates: { PodsAPI: true, Foo: true } } });

    const wrong = join(dir, 'wrong-token');
    await writeFile(wrong, 'tok-wrong-0123456789', { mode: 0o600 });
    const refused = JSON.parse((await nodescope([...common, '--token-file', wrong])).stdout) as typeof c;
    expect(refused.config).toMatchObject({ from: expect.stringMatching(new RegExp(`^${configPath} \\(--config of the running kubelet; not /configz: .*401`)), value: { kind: 'KubeletConfiguration' } });

    // A credential that cannot be read fails /configz alone: the file is read instead, and the rest still shows.
    const unreadable = await nodescope([...common, '--token-file', 'node:/nonexistent/token']);
    expect(unreadable.code, unreadable.stderr).toBe(EXIT.ok);
    const u = JSON.parse(unreadable.stdout) as typeof c;
    expect(u.config).toMatchObject({ from: expect.stringContaining('not /configz: cannot read the token at /nonexistent/token on the node'), value: { kind: 'KubeletConfiguration' } });
    expect(u.version).toMatchObject({ value: 'v1.37.2' });
  }, 60_000);
});
