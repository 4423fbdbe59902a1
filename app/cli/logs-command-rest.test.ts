// `nodescope logs --api rest` as a user runs it: bin/nodescope.js spawned against real sshd in front of the
// simulated kubelet's HTTPS API, whose /containerLogs reads the CRI files the simulator writes. The same pod read
// from those files over SSH is the oracle: the kubelet sends what the files give.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { pinName, rememberPin } from '../kubelet-rest/kubelet-certificate-pins';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { containerStatuses } from '../sim/pod-status';
import { startSimContainerLogs, type SimContainerLogs } from '../sim/sim-container-logs';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const TOKEN = 'tok-logs-0123456789';

let h: SshHarness;
let sim: SimulatedKubelet;
let logs: SimContainerLogs;
let dir: string;
let logDir: string;
let tokenFile: string;
let pins: string;
const rest = () => ['-F', h.sshConfig, '--api', 'rest', '--kubelet-port', String(sim.rest!.port), '--token-file', tokenFile, '--kubelet-pins', pins];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-rest-logs-'));
  logDir = join(dir, 'pods');
  h = await startSshHarness({
    startKubelet: async (socketPath) =>
      (sim = await startSimulatedKubelet({ socketPath: join(dirname(socketPath), 'pods.sock'), pods: 8, seed: 17, rest: { tokens: { [TOKEN]: 'alice' }, logDir } })),
  });
  // Still files: the lines are compared between two reads.
  logs = startSimContainerLogs(sim.store, { dir: logDir, seed: 17, intervalMs: 0 });
  for (let i = 0; i < 5; i++) logs.tick();
  tokenFile = join(dir, 'token');
  await writeFile(tokenFile, TOKEN, { mode: 0o600 });
  pins = join(dir, 'pins');
  await rememberPin(pins, pinName(h.host, sim.rest!.port), sim.rest!.fingerprint);
}, 60_000);
afterAll(async () => {
  logs?.stop();
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

function runningContainer(): { ref: string; name: string; container: string } {
  const pod = sim.store.list().find((p) => containerStatuses(p).some((c) => (c.state as PodObject).running))!;
  const m = pod.metadata as PodObject;
  return { ref: `${String(m.namespace)}/${String(m.name)}`, name: String(m.name), container: String(containerStatuses(pod).find((c) => (c.state as PodObject).running)!.name) };
}

describe('nodescope logs on a node read through the kubelet REST API', () => {
  it('prints the same lines as from the files on the node, and says with -v where they came from', async () => {
    const { ref, container } = runningContainer();
    for (const flags of [[], ['--tail', '3', '--timestamps'], ['--limit-bytes', '70'], ['--since-time', '2000-01-01T00:00:00Z', '--prefix']]) {
      const files = await nodescope(['logs', A.target, ref, '-c', container, '-F', h.sshConfig, '--log-dir', logDir, ...flags]);
      expect(files.code, files.stderr).toBe(EXIT.ok);
      expect(files.stdout.length, flags.join(' ')).toBeGreaterThan(0);
      const viaRest = await nodescope(['logs', A.target, ref, '-c', container, ...rest(), ...flags]);
      expect(viaRest.code, viaRest.stderr).toBe(EXIT.ok);
      expect(viaRest.stdout, flags.join(' ')).toBe(files.stdout);
    }
    const verbose = await nodescope(['logs', A.target, ref, '-c', container, ...rest(), '--tail', '1', '-v']);
    expect(verbose.code, verbose.stderr).toBe(EXIT.ok);
    const [ns, name] = ref.split('/');
    const url = `https://127.0.0.1:${sim.rest!.port}/containerLogs/${ns}/${name}/${container}?tailLines=1`;
    expect(verbose.stderr).toContain(`nodescope: reading ${ref} container ${container} from the kubelet REST API: GET ${url}`);
    // Every request made on the node is shown: the pod list it was found in, then the log.
    expect(verbose.stderr).toContain(`nodescope: GET https://127.0.0.1:${sim.rest!.port}/pods on the node`);
    expect(verbose.stderr).toContain(`nodescope: GET ${url} on the node`);
    const fromFiles = await nodescope(['logs', A.target, ref, '-c', container, '-F', h.sshConfig, '--log-dir', logDir, '--tail', '1', '-v']);
    expect(fromFiles.stderr).toMatch(new RegExp(`nodescope: reading ${ref} container ${container} from its log files in ${logDir}/${ns}_${name}_[0-9a-f-]+/${container} on node ${A.target}`));
    // And every command run on the node for them.
    expect(fromFiles.stderr).toMatch(new RegExp(`nodescope: running on the node: 'ls' '-1A' '--' '${logDir}'`));
    expect(fromFiles.stderr).toMatch(/nodescope: running on the node: 'dd' 'if=\/.*\/\d+\.log' 'iflag=skip_bytes,count_bytes'/);
  }, 60_000);

  it('answers a pod or container the kubelet does not have in its words, exit 4', async () => {
    const { ref } = runningContainer();
    const nopod = await nodescope(['logs', A.target, 'default/no-such-pod', ...rest()]);
    expect(nopod.code, nopod.stderr).toBe(EXIT.api);
    expect(nopod.stderr).toContain("no pod default/no-such-pod on target (the kubelet's /pods)");
    const nocontainer = await nodescope(['logs', A.target, ref, '-c', 'nope', ...rest()]);
    expect(nocontainer.code, nocontainer.stderr).toBe(EXIT.api);
    expect(nocontainer.stderr).toContain(`404 container "nope" not found in pod "${ref.split('/')[1]}"`);
    const interleaved = await nodescope(['logs', A.target, ref, '-c', 'nope', ...rest(), '--interleave', '--all-containers']);
    expect(interleaved.code).toBe(EXIT.usage);
  }, 60_000);
});
