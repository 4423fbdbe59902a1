// Test helpers comparing what a client holds with the simulated kubelet's oracle (its store).
import type { PodWatch } from '../pod-watch';
import { podDigest } from '../received-pod';
import { encodePod } from '../../pod/encode';
import type { SimulatedKubelet } from '../../sim/kubelet-server';
import { pollUntil } from '../../testing/poll-until';

/** UIDs whose held pod differs from the oracle's (missing, extra or different bytes); [] when converged. */
export function divergence(watch: PodWatch, kubelet: SimulatedKubelet): string[] {
  const held = watch.held();
  const uids = kubelet.store.uids();
  const out = [...held.keys()].filter((uid) => !kubelet.store.get(uid));
  for (const uid of uids) {
    const mine = held.get(uid);
    if (!mine || mine.digest !== podDigest(encodePod(kubelet.store.get(uid)!))) out.push(uid);
  }
  return out;
}

/** pollUntil for a yes/no check, in the argument order the kubelet tests were written with. */
export async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  await pollUntil(what, check, (ok) => ok, { timeoutMs });
}
