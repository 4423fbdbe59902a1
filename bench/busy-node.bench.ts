/**
 * The biggest node, from the app core: 30,000 pods changing 200 times a second, the simulated kubelet in its
 * own process with the kubelet's 100-event watch buffer (so the first watch is dropped during its replay).
 * - connect to first rows: from opening the node's link to its first pods handed to the core (the ListPods
 *   made before the first watch), against one ListPods alone in the same run (the same pods decoded, nothing
 *   else), the quicker of one just before the node is opened and one just after it is closed: others' load
 *   changes over the minutes between and only ever slows a list, so the quicker is the nearer to the list's
 *   own cost (and the stricter baseline; the one after also runs beside what the closed node left to collect);
 * - connect to Live: until a watch replay got through and the set was reconciled to the kubelet's (no
 *   target: it depends on how fast the kubelet sends its replay, and when it drops the watch). Not waited
 *   for past LIVE_WAIT_MS: on a loaded machine the simulated kubelet's replay can take many minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKubeletClient } from '../app/kubelet/kubelet-client';
import type { SshPrompter } from '../app/ssh/ssh-prompter';
import { openKubeletNodeLink } from '../app/host/kubelet-node-link';
import { figure } from './figures';
import { kubeletProcess } from './kubelet-spawn';
import { fmt } from './measure';

const PODS = 30_000;
const CHURN_PER_SECOND = 200;
const LIVE_WAIT_MS = 10 * 60_000;
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

/**
 * Opens the node as the app does; resolves once it is live (or LIVE_WAIT_MS passed), with when the first
 * rows and Live came, and whether the kubelet dropped a watch meanwhile.
 */
async function openToLive(socketPath: string, step: (what: string) => void): Promise<{ firstRowsMs: number | undefined; liveMs: number | undefined; dropped: boolean }> {
  const start = performance.now();
  let firstRowsMs: number | undefined;
  let dropped = false;
  let phase: string | undefined;
  let live!: (ms: number | undefined) => void;
  const reachedLive = new Promise<number | undefined>((resolve) => (live = resolve));
  const giveUp = setTimeout(() => live(undefined), LIVE_WAIT_MS);
  const link = openKubeletNodeLink({
    nodeId: 'busy',
    spec: { kind: 'unix', socketPath },
    prompter: noQuestions,
    events: {
      state: (s) => {
        // Each new phase on stderr: what the node says while the minutes pass.
        if (s.phase !== phase) step(`node ${(phase = s.phase)}${'cause' in s ? `: ${s.cause}` : ''}`);
        if (s.phase === 'catchingUp' && s.watch === 'dropped') dropped = true;
        if (s.phase === 'live') live(performance.now() - start);
      },
      reset: (pods) => {
        if (!pods.length || firstRowsMs !== undefined) return;
        firstRowsMs = performance.now() - start;
        step(`first rows: ${pods.length} pods`);
      },
      change: () => {},
    },
  }, { localSocket: socketPath });
  try {
    const liveMs = await reachedLive;
    return { firstRowsMs, liveMs, dropped };
  } finally {
    clearTimeout(giveUp);
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
    const aloneBeforeMs = await listAloneMs(socketPath);
    step('opening the node as the app does');
    const { firstRowsMs, liveMs, dropped } = await openToLive(socketPath, step);
    step('node closed; one ListPods alone again');
    const aloneAfterMs = await listAloneMs(socketPath);
    const aloneMs = Math.min(aloneBeforeMs, aloneAfterMs);
    const alone = `one ListPods alone: ${fmt(aloneBeforeMs)} ms before, ${fmt(aloneAfterMs)} ms after`;
    if (liveMs === undefined) console.log(`  connect to Live, busy 30,000 pods: not live within ${LIVE_WAIT_MS / 1000} s (the watch's replay still arriving)`);
    if (firstRowsMs === undefined) {
      console.log('  connect to first rows, busy 30,000 pods: no rows  [TARGET MISSED]');
      return false;
    }
    return [
      figure('connect to first rows, busy 30,000 pods', firstRowsMs, 'ms', { baseline: aloneMs, target: { maxRatio: 1.5 }, note: `(baseline: ${alone})` }),
      liveMs === undefined ||
        figure('connect to Live, busy 30,000 pods', liveMs, 'ms', {
          baseline: aloneMs,
          note: dropped ? '(the kubelet dropped a watch on the way)' : '(the first watch got through)',
        }),
    ].every(Boolean);
  } finally {
    await kubelet.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
