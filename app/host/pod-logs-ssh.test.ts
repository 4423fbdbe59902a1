// The Logs tab's requests for a node over real OpenSSH sshd: the log files read on the node through the node's
// own SSH session (ls, stat, ranged dd), and a sudo the node's sudoers does not allow said as such.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import type { LogRead, NodeInfo, PodRow } from '../contract';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { startSimContainerLogs, type SimContainerLogs } from '../sim/sim-container-logs';
import { pollUntil } from '../testing/poll-until';
import { createHost, type Host } from './host';
import { callerOf, startCall } from './testing/drive-host';

let h: SshHarness;
let sim: SimulatedKubelet;
let simLogs: SimContainerLogs;
let inspector: Host;
let call: ReturnType<typeof callerOf>;

beforeAll(async () => {
  h = await startSshHarness({
    startKubelet: async (socketPath) => {
      sim = await startSimulatedKubelet({ socketPath, pods: 20, seed: 7 });
      return { stop: () => sim.stop() };
    },
  });
  // Root-only, as the runtimes keep /var/log/pods; lines are written only when the test ticks.
  const logsDir = mkdtempSync(join(h.dir, 'pods-'));
  chmodSync(logsDir, 0o700);
  simLogs = startSimContainerLogs(sim.store, { dir: logsDir, seed: 7, intervalMs: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'ns-logs-ssh-'));
  const sshConfig = join(dir, 'ssh_config');
  writeFileSync(sshConfig, `Host *\n  IdentityAgent none\n  UserKnownHostsFile ${h.knownHosts}\n  GlobalKnownHostsFile /dev/null\n`);
  inspector = await createHost({ mode: 'browser', stateDir: join(dir, 'state'), demo: false, sshConfigFile: sshConfig, podLogsDir: logsDir, logPollIntervalMs: 50 });
  call = callerOf(inspector);
}, 120_000);
afterAll(async () => {
  simLogs?.stop();
  await inspector?.close();
  await h?.stop();
});

/** Adds the harness's node as `user` and waits until it is live. */
async function liveNode(user: { name: string; key: string }, sudo: boolean): Promise<NodeInfo> {
  const added = await call<NodeInfo>('nodes.add', { host: h.host, port: h.port, user: user.name, identityFile: user.key, socketPath: h.socketPath, ...(sudo ? { sudo } : {}) });
  return pollUntil(`${user.name} live`, async () => (await call<NodeInfo[]>('nodes.list')).find((n) => n.id === added.id), (n) => n?.state.phase === 'live' && n.podCount > 0) as Promise<NodeInfo>;
}

const runningPod = async (nodeId: string) => (await call<{ rows: PodRow[] }>('pods.rows', { nodeId })).rows.find((r) => r.status === 'Running')!;

describe('logs of a node over SSH', () => {
  it('reads the last lines on the node, and a follow delivers a line written there after it started', async () => {
    const node = await liveNode(h.root, false);
    const pod = await runningPod(node.id);
    const r = await call<LogRead>('logs.read', { nodeId: node.id, uid: pod.uid, tailLines: 2 });
    expect(r.status).toBe('ok');
    expect(r.status === 'ok' && r.lines).toHaveLength(2);

    const follow = startCall(inspector, 'logs.follow', { nodeId: node.id, uid: pod.uid, tailLines: 0 });
    // Written until some arrive: the follower takes up the file's end once it has looked at it over SSH.
    const got = await pollUntil('the new lines', () => {
      simLogs.tick();
      return (follow.progress as { status: string; lines?: string[] }[]).find((p) => p.status === 'lines');
    });
    expect(got.lines!.length).toBeGreaterThan(0);
    follow.cancel();
    expect(await follow.result).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    await call('nodes.remove', { nodeId: node.id });
  }, 60_000);

  it('says which command sudoers must allow when the node uses sudo and the logs are refused', async () => {
    // The operator may run the socket's socat through sudo, and nothing else.
    const node = await liveNode(h.operator, true);
    const pod = await runningPod(node.id);
    const r = await call<LogRead>('logs.read', { nodeId: node.id, uid: pod.uid });
    expect(r).toMatchObject({ status: 'unavailable', message: expect.stringMatching(/^Sudo refused to list /), nextStep: expect.stringContaining("sudoers must allow `sudo -n 'ls' '-1A' '--'") });
    await call('nodes.remove', { nodeId: node.id });
  }, 60_000);
});
