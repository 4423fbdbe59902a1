/**
 * The biggest node, from the app core: 30,000 pods changing 200 times a second, the simulated kubelet in its
 * own process with the kubelet's 100-event watch buffer (so the first watch is dropped during its replay).
 * - connect to first rows: from opening the node's link to its first pods handed to the core (the watch's
 *   replay or the ListPods that catches up, whichever comes first), against one ListPods alone in the same
 *   run (the same pods decoded, nothing else);
 * - connect to Live: until a watch replay got through and the set was reconciled to the kubelet's (no
 *   target: it depends on when the kubelet drops the watch).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKubeletClient } from '../app/kubelet/kubelet-client';
import type { SshPrompter } from '../app/ssh/ssh-prompter';
import { openKubeletNodeLink } from '../app/host/kubelet-node-link';
import { figure } from './figures';
import { kubeletProcess } from './kubelet-spawn';

const PODS = 30_000;
const CHURN_PER_SECOND = 200;
/** A socket on this machine asks no questions. */
const noQuestions: SshPrompter = { hostKey: async () => 'refuse', passphrase: async () => null, keyboardInteractive: async () => null };

async function listAloneMs(socketPath: string): Promise<number> {
  const client = createKubeletClient({ target: socketPath, socketPath });
  try {
    const start = performance.now();
    await client.listPods();
    return performance.now() - start;
  } finally {
    client.close();
  }
}

/** Opens the node as the app does; resolves once it is live, with when the first rows and Live came. */
async function openToLive(socketPath: string): Promise<{ firstRowsMs: number; liveMs: number; catchingUp: boolean }> {
  const start = performance.now();
  let firstRowsMs: number | undefined;
  let catchingUp = false;
  let live!: (ms: number) => void;
  const reachedLive = new Promise<number>((resolve) => (live = resolve));
  const link = openKubeletNodeLink({
    nodeId: 'busy',
    spec: { kind: 'unix', socketPath },
    prompter: noQuestions,
    events: {
      state: (s) => {
        if (s.phase === 'catchingUp') catchingUp = true;
        if (s.phase === 'live') live(performance.now() - start);
      },
      reset: (pods) => {
        if (pods.length) firstRowsMs ??= performance.now() - start;
      },
      change: () => {},
    },
  });
  try {
    const liveMs = await reachedLive;
    return { firstRowsMs: firstRowsMs ?? liveMs, liveMs, catchingUp };
  } finally {
    await link.close();
  }
}

export async function busyNodeBench(): Promise<boolean> {
  console.log(`\nThe biggest node: ${PODS.toLocaleString('en')} pods, ${CHURN_PER_SECOND} changes/s, the kubelet's 100-event watch buffer`);
  const work = mkdtempSync(join(tmpdir(), 'ns-bench-busy-'));
  const socketPath = join(work, 'pods.sock');
  const began = performance.now();
  // Each step on stderr: on a busy machine the whole takes minutes.
  const step = (what: string) => process.stderr.write(`  ${((performance.now() - began) / 1000).toFixed(0)} s: ${what}\n`);
  const kubelet = await kubeletProcess(socketPath, PODS, 12, CHURN_PER_SECOND);
  try {
    step('simulated kubelet serving');
    // Once untimed: the kubelet's first answer encodes every pod, which neither measured run should pay.
    await listAloneMs(socketPath);
    step('pods encoded; one ListPods alone');
    const aloneMs = await listAloneMs(socketPath);
    step('opening the node as the app does');
    const { firstRowsMs, liveMs, catchingUp } = await openToLive(socketPath);
    return [
      figure('connect to first rows, busy 30,000 pods', firstRowsMs, 'ms', { baseline: aloneMs, target: { maxRatio: 1.5 }, note: '(baseline: one ListPods alone)' }),
      figure('connect to Live, busy 30,000 pods', liveMs, 'ms', {
        baseline: aloneMs,
        note: catchingUp ? '(the kubelet dropped the first watch; its ListPods was shown meanwhile)' : '(the first rows were the replay itself)',
      }),
    ].every(Boolean);
  } finally {
    await kubelet.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
