// The node commands as a user runs them: `bin/nodescope.js` spawned against real sshd and the
// simulated kubelet on its root-only socket. A pty (script(1)) stands in for the user's terminal.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { writeListPodsResponse } from '../kubelet/testing/pods-api-writers';
import { decodePod } from '../pod/decode';
import { encodePod } from '../pod/encode';
import { podBytesListToKubectl, podBytesToKubectlJson, podToNdjsonLine } from '../pod/kubectl-json';
import type { PodObject } from '../pod/pod-tree';
import { kubectlJsonToYaml, podBytesToKubectlYaml } from '../pod/kubectl-yaml';
import { podTreesFromKubectlYaml } from '../pod/kubectl-yaml-reader';
import { webPodBytes, withDeepManagedFields } from '../pod/testdata/handmade-pods';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { podsServiceDefinition } from '../sim/pods-api-services';
import { EXIT } from './exit-codes';
import { nodescope, watchThroughChanges } from './testing/run-nodescope';


let h: SshHarness;
let sim: SimulatedKubelet;
let dir: string;
const cfg = () => ['-F', h.sshConfig];
const oracleBytes = () => sim.store.list().map((p) => encodePod(p));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-cli-'));
  h = await startSshHarness({ startKubelet: async (socketPath) => (sim = await startSimulatedKubelet({ socketPath, pods: 110, seed: 11 })) });
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('nodescope pods/get/export/watch over SSH', () => {
  it('prints the pods as an aligned kubectl-like table', async () => {
    const r = await nodescope(['pods', A.target, ...cfg(), '--socket', h.socketPath]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(lines).toHaveLength(111);
    const nameColumn = lines[0]!.search(/\bNAME\b/);
    // Sorted by namespace, then name, byte by byte, as the API server gives kubectl get pods -A its list.
    const key = (m: PodObject) => `${String(m.namespace)}/${String(m.name)}`;
    const expected = sim.store
      .list()
      .map((pod) => pod.metadata as PodObject)
      .sort((a, b) => (key(a) < key(b) ? -1 : 1));
    for (const [i, meta] of expected.entries()) {
      expect(lines[i + 1]!.startsWith(String(meta.namespace))).toBe(true);
      expect(lines[i + 1]!.slice(nameColumn)).toMatch(new RegExp(`^${meta.name as string}\\s{3}`));
    }
  }, 30_000);

  it('gets one pod exactly as kubectl would print it', async () => {
    const uid = sim.store.uids()[7]!;
    const r = await nodescope(['get', A.target, uid, ...cfg(), '--socket', h.socketPath]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stdout).toBe(podBytesToKubectlJson(encodePod(sim.store.get(uid)!)).json);
  }, 30_000);

  it('exports a kubectl List to a file, and NDJSON to stdout', async () => {
    const file = join(dir, 'pods.json');
    const r = await nodescope(['export', A.target, ...cfg(), '--socket', h.socketPath, '--file', file]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(await readFile(file, 'utf8')).toBe(Buffer.from(podBytesListToKubectl(oracleBytes()).bytes).toString());
    expect(r.stderr).toContain('wrote 110 pods');
    const nd = await nodescope(['export', A.target, ...cfg(), '--socket', h.socketPath, '-o', 'ndjson']);
    expect(nd.stdout).toBe(Buffer.from(podBytesListToKubectl(oracleBytes(), { ndjson: true }).bytes).toString());
  }, 30_000);

  it('prints kubectl YAML with -o yaml: get, export (a List), masked pods, and watch events as documents', async () => {
    const uid = sim.store.uids()[7]!;
    const one = await nodescope(['get', A.target, uid, ...cfg(), '--socket', h.socketPath, '-o', 'yaml']);
    expect(one.code, one.stderr).toBe(EXIT.ok);
    expect(one.stdout).toBe(podBytesToKubectlYaml(encodePod(sim.store.get(uid)!)).yaml);
    const list = await nodescope(['export', A.target, ...cfg(), '--socket', h.socketPath, '-o', 'yaml']);
    expect(list.stdout).toBe(kubectlJsonToYaml(Buffer.from(podBytesListToKubectl(oracleBytes()).bytes).toString()).yaml);
    const masked = await nodescope(['pods', A.target, ...cfg(), '--socket', h.socketPath, '-o', 'yaml', '--mask', 'metadata.name']);
    // Exactly what the mask selected: no spec or status zero-filled for what it left out (issue #10).
    expect(masked.stdout).toMatch(/^apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: \S+\n- /);
    // Ctrl-C once: the output keeps coming after it, and a second one would end the process by force.
    let interrupted = false;
    const watch = await nodescope(['watch', A.target, ...cfg(), '--socket', h.socketPath, '-o', 'yaml'], {
      until: (out) => !interrupted && (interrupted = out.split('\n---\n').length >= 3),
    });
    expect(watch.code, watch.stderr).toBe(EXIT.ok);
    const docs = watch.stdout.split('---\n');
    expect(docs[0]).toMatch(/^object:\n  apiVersion: v1\n  kind: Pod\n[\s\S]*\ntype: ADDED\n$/);
    expect(podTreesFromKubectlYaml(docs.slice(0, 3).join('---\n'))).toHaveLength(3);
  }, 30_000);

  it('applies a mask even though the shipped kubelet ignores it, and says so', async () => {
    const r = await nodescope(['pods', A.target, ...cfg(), '--socket', h.socketPath, '-o', 'ndjson', '--mask', 'metadata.name']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const first = JSON.parse(r.stdout.split('\n')[0]!) as { metadata: Record<string, unknown> };
    expect(first.metadata).toEqual({ name: (sim.store.list()[0]!.metadata as PodObject).name });
    // Only what was selected: no empty spec or status standing in for what the mask left out.
    expect(Object.keys(first)).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(r.stderr).toContain('ignores field masks; the mask was applied locally');
  }, 30_000);

  it('watches: one line per pod at the start, then a line per change, until Ctrl-C', async () => {
    const r = await watchThroughChanges(['watch', A.target, ...cfg(), '--socket', h.socketPath], 110, 3, () => sim.churn.step(3));
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(0, 110).every((l) => /^\d\d:\d\d:\d\d\.\d{3}\s+ADDED\s+\S+\/\S+/.test(l))).toBe(true);
    expect(lines.slice(110).every((l) => /^\d\d:\d\d:\d\d\.\d{3}\s+(ADDED|MODIFIED|DELETED)\s+\S+\/\S+/.test(l))).toBe(true);
    expect(r.stderr).toContain('in sync: 110 pods');
  }, 30_000);

  it('watch says when the node stops answering, then gives the link up and watches again', async () => {
    // ServerAliveInterval 1 from ssh_config: silent after 1.5 s without an answer, given up after 3 unanswered.
    const config = join(dir, 'keepalive_config');
    await writeFile(config, `Host *\n  ServerAliveInterval 1\n  ServerAliveCountMax 3\n\n${await readFile(h.sshConfig, 'utf8')}`);
    let paused = false;
    try {
      const r = await nodescope(['watch', A.target, '-F', config, '--socket', h.socketPath], {
        until: (_, err) => {
          if (!paused && /in sync: \d+ pods/.test(err)) {
            paused = true;
            h.pauseConnections();
          }
          return /re-synced: \d+ pods/.test(err);
        },
      });
      expect(r.code, r.stderr).toBe(EXIT.ok);
      const said = (text: RegExp) => r.stderr.search(text);
      const silent = said(/nodescope: target has not answered since \d\d:\d\d:\d\d\.\d{3} \(SSH keepalives unanswered\): changes since then are not shown yet; reconnecting if it stays silent/);
      const ended = said(/nodescope: watch ended: .*stopped answering keepalives; watching again in/);
      const resynced = said(/nodescope: re-synced: \d+ pods/);
      expect([silent, ended, resynced].every((i) => i >= 0), r.stderr).toBe(true);
      expect(silent < ended && ended < resynced, r.stderr).toBe(true);
    } finally {
      h.resumeConnections();
    }
  }, 60_000);

  it('goes through a jump host, and through the sudo bridge for a non-root user', async () => {
    const viaJump = await nodescope(['pods', A.viaJump, ...cfg(), '--socket', h.socketPath, '-o', 'ndjson']);
    expect(viaJump.code, viaJump.stderr).toBe(EXIT.ok);
    expect(viaJump.stdout.trim().split('\n')).toHaveLength(sim.store.size);
    const operator = await nodescope(['pods', A.targetOperator, ...cfg(), '--socket', h.socketPath, '--sudo', '-o', 'ndjson']);
    expect(operator.code, operator.stderr).toBe(EXIT.ok);
    expect(operator.stdout.trim().split('\n')).toHaveLength(sim.store.size);
  }, 30_000);

  it('exits 3 saying the socket is missing through the sudo bridge too, in every node command', async () => {
    const missing = `${h.socketPath}.missing`;
    const uid = sim.store.uids()[0]!;
    const said = (r: { stderr: string }) => {
      expect(r.stderr).toContain(`No socket at ${missing} on ${h.host}`);
      expect(r.stderr).toContain('next step: Check that the kubelet runs with the Pods API enabled');
    };
    for (const args of [['pods'], ['get', uid], ['watch'], ['export'], ['record', '--file', join(dir, 'missing.nsrec')]]) {
      const r = await nodescope([args[0]!, A.target, ...args.slice(1), ...cfg(), '--socket', missing, '--sudo']);
      expect(r.code, r.stderr).toBe(EXIT.connection);
      said(r);
    }
    // A bridge command whose exit status reaches us well after its output ended (socat's own complaint, then
    // the status a second later): the complaint alone must name the cause.
    const late = `sh -c 'socat STDIO UNIX-CONNECT:"$1"; s=$?; exec >&- 2>&-; sleep 1; exit $s' sh {socket}`;
    for (const args of [['pods'], ['get', uid]]) {
      const r = await nodescope([args[0]!, A.target, ...args.slice(1), ...cfg(), '--socket', missing, '--sudo-command', late]);
      expect(r.code, r.stderr).toBe(EXIT.connection);
      said(r);
    }
  }, 90_000);

  it('exits 3 with the sudoers line for a user without sudo rights', async () => {
    const r = await nodescope(['pods', A.targetNoSudo, ...cfg(), '--socket', h.socketPath]);
    expect(r.code).toBe(EXIT.connection);
    expect(r.stderr).toContain(`next step:`);
    expect(r.stderr).toContain(`${h.noSudo.name} ALL=(root) NOPASSWD:`);
  }, 30_000);
});

describe('nodescope host keys and keys on the terminal', () => {
  const direct = (knownHosts: string, user = 'root', key = h.root.key) => [
    'pods', h.host, '-p', String(h.port), '--login', user, '-i', key, '--known-hosts', knownHosts, '--socket', h.socketPath, '-o', 'ndjson',
  ];

  // The built-in transport's own words; through OpenSSH, ssh refuses the key itself (app/ssh/openssh/openssh-transport.test.ts).
  it('refuses an unknown host without a terminal in one message, naming ssh-keyscan and the --known-hosts file', async () => {
    const knownHosts = join(dir, 'empty_known_hosts');
    await writeFile(knownHosts, '');
    const r = await nodescope([...direct(knownHosts), '--ssh', 'builtin']);
    expect(r.code).toBe(EXIT.connection);
    expect(r.stderr.match(/SHA256:/g), r.stderr).toHaveLength(2); // the message and the check in its next step
    expect(r.stderr).toContain('there is no one to ask whether to trust it');
    expect(r.stderr).toContain(`ssh-keyscan -p ${h.port} ${h.host} >> ${knownHosts}`);
    // Nobody refused it, and the file to add it to is the one given, not ~/.ssh/known_hosts.
    expect(r.stderr).not.toMatch(/was refused|~\/\.ssh\/known_hosts/);
  }, 30_000);

  it('asks about an unknown host on the terminal, remembers it, and does not ask again', async () => {
    const knownHosts = join(dir, 'remembered_known_hosts');
    await writeFile(knownHosts, '');
    const first = await nodescope(direct(knownHosts), { tty: { answers: [[/Continue connecting/, 'yes']] } });
    expect(first.code, first.stdout).toBe(EXIT.ok);
    expect(first.stdout).toContain('key fingerprint is SHA256:');
    // ssh_config may say HashKnownHosts, so look the host up as ssh would.
    const found = spawn('ssh-keygen', ['-F', `[${h.host}]:${h.port}`, '-f', knownHosts], { stdio: 'ignore' });
    expect(await new Promise((r) => found.on('close', r))).toBe(0);
    const second = await nodescope(direct(knownHosts));
    expect(second.code, second.stderr).toBe(EXIT.ok);
    expect(second.stdout.trim().split('\n')).toHaveLength(sim.store.size);
  }, 30_000);

  it('refuses a host whose key changed', async () => {
    const knownHosts = join(dir, 'changed_known_hosts');
    await writeFile(knownHosts, `[${h.host}]:${h.port} ${h.jumpHostKeyLine}\n`);
    const r = await nodescope(direct(knownHosts), { tty: { answers: [[/Continue connecting/, 'yes']] } });
    expect(r.code).toBe(EXIT.connection);
    expect(r.stdout + r.stderr).toMatch(/CHANGED/);
  }, 30_000);

  it('asks for the passphrase of an encrypted key on the terminal', async () => {
    const r = await nodescope(direct(h.knownHosts, h.operator.name, h.operator.encryptedKey).concat('--sudo'), {
      tty: { answers: [[/Enter passphrase/, h.operator.passphrase]] },
    });
    expect(r.code, r.stdout).toBe(EXIT.ok);
    expect(r.stdout).toContain('Enter passphrase');
    expect(r.stdout).not.toContain(h.operator.passphrase);
  }, 30_000);

  it('logs in with a key from ssh-agent', async () => {
    const agentSocket = join(dir, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
    try {
      // ssh-agent -D makes its socket a moment after it starts; a fixed wait loses on a busy machine.
      for (const deadline = Date.now() + 10_000; !existsSync(agentSocket) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      const added = spawn('ssh-add', [h.root.key], { env: { ...process.env, SSH_AUTH_SOCK: agentSocket }, stdio: 'ignore' });
      expect(await new Promise((r) => added.on('close', r))).toBe(0);
      const args = ['pods', h.host, '-p', String(h.port), '--login', 'root', '--known-hosts', h.knownHosts, '--socket', h.socketPath, '-o', 'ndjson'];
      const r = await nodescope(args, { env: { SSH_AUTH_SOCK: agentSocket, HOME: dir } });
      expect(r.code, r.stderr).toBe(EXIT.ok);
      expect(r.stdout.trim().split('\n')).toHaveLength(sim.store.size);
    } finally {
      agent.kill();
    }
  }, 30_000);
});

describe('nodescope node commands: local sockets and bad input', () => {
  it('retries while the kubelet initializes, saying so, then lists (--local)', async () => {
    const socketPath = join(dir, 'init.sock');
    // Long enough that the CLI's own start-up on a loaded machine cannot outlast it.
    const k = await startSimulatedKubelet({ socketPath, pods: 5, initializingMs: 4000 });
    try {
      const r = await nodescope(['pods', 'local', '--local', socketPath]);
      expect(r.code, r.stderr).toBe(EXIT.ok);
      expect(r.stderr).toMatch(/initializing.*retrying in \d+\.\d s/);
      expect(r.stdout.trim().split('\n')).toHaveLength(6);
    } finally {
      await k.stop();
    }
  }, 30_000);

  it("prints a newer kubelet's pods in full and warns on stderr about the fields it does not know", async () => {
    const socketPath = join(dir, 'newer.sock');
    const known = sim.store.list().slice(0, 2).map((p) => encodePod(p));
    // Field 99 (a string) on the pod itself: something a future Kubernetes might add.
    const newer = Buffer.concat([known[0]!, Buffer.from([0x9a, 0x06, 0x03, 0x61, 0x62, 0x63])]);
    const server = new Server();
    server.addService(podsServiceDefinition('shipped'), {
      ListPods: (_call: unknown, done: (err: null, res: Uint8Array) => void) => done(null, writeListPodsResponse([newer, known[1]!])),
      GetPod: () => undefined,
      WatchPods: () => undefined,
    });
    await new Promise<void>((ok, fail) => server.bindAsync(`unix:${socketPath}`, ServerCredentials.createInsecure(), (err) => (err ? fail(err) : ok())));
    try {
      const r = await nodescope(['export', 'local', '--local', socketPath]);
      expect(r.code, r.stderr).toBe(EXIT.ok);
      expect(r.stdout).toBe(Buffer.from(podBytesListToKubectl(known).bytes).toString());
      const meta = sim.store.list()[0]!.metadata as PodObject;
      expect(r.stderr).toContain(`warning: pod ${meta.namespace as string}/${meta.name as string}: 1 field unknown to this Nodescope`);
      expect(r.stderr).toContain('#99');
    } finally {
      server.forceShutdown();
    }
  }, 30_000);

  it('exits 2 with the reason in words when export --file cannot be written', async () => {
    const socketPath = join(dir, 'export.sock');
    const k = await startSimulatedKubelet({ socketPath, pods: 3 });
    try {
      for (const [file, mask, why] of [
        [join(dir, 'no-such-folder', 'pods.json'), [], 'its folder does not exist'],
        [dir, [], 'it is a folder'],
        [join(dir, 'no-such-folder', 'pods.json'), ['--mask', 'metadata.name'], 'its folder does not exist'],
      ] as const) {
        const r = await nodescope(['export', '--local', socketPath, '--file', file, ...mask]);
        expect(r.code, r.stderr).toBe(EXIT.usage);
        expect(r.stderr).toContain(`cannot write ${file}: ${why}`);
      }
    } finally {
      await k.stop();
    }
  }, 30_000);

  it('shows the control characters of a hostile pod name in pods and watch tables instead of sending them', async () => {
    const socketPath = join(dir, 'hostile.sock');
    const k = await startSimulatedKubelet({ socketPath, pods: 3 });
    try {
      const pod = k.store.list()[0]!;
      const meta = pod.metadata as PodObject;
      k.store.apply({ op: 'update', pod: { ...pod, metadata: { ...meta, name: 'evil\u001b]0;PWNED\u0007\u001b[2J', namespace: 'ns\u009b2J\u202e' } } });
      const table = await nodescope(['pods', '--local', socketPath]);
      const watched = await nodescope(['watch', '--local', socketPath], { until: (out) => out.split('\n').filter(Boolean).length >= 3 });
      for (const r of [table, watched]) {
        expect(r.code, r.stderr).toBe(EXIT.ok);
        expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
        expect(r.stdout).toContain('ns\\x9b2J\\u202e');
        expect(r.stdout).toContain('evil\\x1b]0;PWNED\\x07\\x1b[2J');
      }
    } finally {
      await k.stop();
    }
  }, 30_000);

  it('watches in JSON as kubectl get -w -o json --output-watch-events prints: typed events, a deletion with the pod as last seen', async () => {
    const socketPath = join(dir, 'events.sock');
    const k = await startSimulatedKubelet({ socketPath, pods: 3, seed: 4 });
    try {
      const gone = k.store.list()[1]!;
      let deleted = false;
      const lines = (out: string) => out.split('\n').filter(Boolean);
      const r = await nodescope(['watch', '--local', socketPath, '-o', 'json'], {
        until: (out) => {
          if (lines(out).length >= 3 && !deleted) {
            deleted = true;
            k.store.apply({ op: 'delete', uid: String((gone.metadata as PodObject).uid) });
          }
          return lines(out).length >= 4;
        },
      });
      expect(r.code, r.stderr).toBe(EXIT.ok);
      const events = lines(r.stdout);
      expect(events).toHaveLength(4);
      expect(events.slice(0, 3).map((e) => JSON.parse(e).type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
      // The whole pod as the watch last held it (spec and status too), not the kubelet's name, namespace and uid.
      expect(events[3]).toBe(`{"type":"DELETED","object":${podToNdjsonLine(gone)}}`);
    } finally {
      await k.stop();
    }
  }, 30_000);

  it('watches a pod with managedFields nested 4,000 levels in YAML, as kubectl prints it, instead of blaming the kubelet', async () => {
    const socketPath = join(dir, 'deep.sock');
    const k = await startSimulatedKubelet({ socketPath, pods: 0 });
    try {
      const bytes = webPodBytes({ metaExtra: withDeepManagedFields(4000) });
      k.store.apply({ op: 'add', pod: decodePod(bytes).pod });
      const r = await nodescope(['watch', '--local', socketPath, '-o', 'yaml', '--show-managed-fields'], { until: (out) => out.endsWith('type: ADDED\n') });
      expect(r.code, r.stderr.slice(0, 2000)).toBe(EXIT.ok);
      expect(r.stderr).not.toMatch(/kubelet/);
      const pod = podBytesToKubectlYaml(bytes, { showManagedFields: true }).yaml;
      expect(r.stdout === `object:\n${pod.replace(/^(?=.)/gm, '  ')}type: ADDED\n`).toBe(true);
    } finally {
      await k.stop();
    }
  }, 60_000);

  it('leaves an existing export alone unless --force, and then keeps its permissions', async () => {
    const socketPath = join(dir, 'force.sock');
    const k = await startSimulatedKubelet({ socketPath, pods: 3 });
    try {
      const file = join(dir, 'existing.json');
      await writeFile(file, 'an earlier export');
      await chmod(file, 0o640);
      const refused = await nodescope(['export', '--local', socketPath, '--file', file]);
      expect(refused.code, refused.stderr).toBe(EXIT.usage);
      expect(refused.stderr).toContain(`${file} exists already; add --force to replace it`);
      expect(await readFile(file, 'utf8')).toBe('an earlier export');
      const forced = await nodescope(['export', '--local', socketPath, '--file', file, '--force']);
      expect(forced.code, forced.stderr).toBe(EXIT.ok);
      expect(JSON.parse(await readFile(file, 'utf8')).items).toHaveLength(3);
      expect((await stat(file)).mode & 0o777).toBe(0o640);
      const fresh = join(dir, 'fresh.json');
      expect((await nodescope(['export', '--local', socketPath, '--file', fresh])).code).toBe(EXIT.ok);
      expect((await stat(fresh)).mode & 0o777).toBe(0o600);
    } finally {
      await k.stop();
    }
  }, 30_000);

  it('exits 3 for a missing socket and 2 for bad options, with the next step', async () => {
    const missing = await nodescope(['pods', 'local', '--local', join(dir, 'none.sock')]);
    expect(missing.code).toBe(EXIT.connection);
    expect(missing.stderr).toContain('PodsAPI feature gate');
    const badApi = await nodescope(['pods', 'n', '--api', 'v2']);
    expect(badApi.code).toBe(EXIT.usage);
    expect(badApi.stderr).toContain('use pods, rest or auto, or a Pods API shape: shipped or documented');
    const badMask = await nodescope(['pods', 'n', '--mask', 'status.phsae']);
    expect(badMask.code).toBe(EXIT.usage);
    expect(badMask.stderr).toContain('phsae');
  }, 30_000);
});
