/**
 * Simulated kubelets on local sockets, one per node name, added to an app whose UI is open in Chromium
 * (browser mode): the set-up of the fleet tests that need a few live nodes and nothing else.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostOptions } from '../../app/host/host';
import { startSimulatedKubelet, type SimulatedKubelet } from '../../app/sim/kubelet-server';
import { openHostInChromium } from './ui-in-chromium';

/** `seed` makes the first node's pods (the others: seed + 1, ...); close() ends the UI, the app and the kubelets. */
export async function kubeletsInChromium(names: string[], options: { pods: number; seed: number; settings?: HostOptions['settings'] }) {
  const work = mkdtempSync(join(tmpdir(), 'ns-e2e-kubelets-'));
  const sockets = names.map((nodeName) => join(work, `${nodeName}.sock`));
  const kubelets: SimulatedKubelet[] = await Promise.all(names.map((nodeName, i) => startSimulatedKubelet({ socketPath: sockets[i]!, pods: options.pods, seed: options.seed + i, nodeName })));
  const nodes = sockets.map((socketPath) => ({ kind: 'unix' as const, socketPath }));
  try {
    const ui = await openHostInChromium({ mode: 'browser', stateDir: join(work, 'state'), demo: false, ...(options.settings ? { settings: options.settings } : {}), nodes }, join(work, 'chromium'));
    return {
      ...ui,
      kubelets,
      async close() {
        await ui.close();
        await Promise.all(kubelets.map((k) => k.stop()));
      },
    };
  } catch (err) {
    await Promise.all(kubelets.map((k) => k.stop()));
    throw err;
  }
}
