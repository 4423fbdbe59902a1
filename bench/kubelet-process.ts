/**
 * A simulated kubelet in its own process, as the real one is on a node: the benchmark's client then
 * does not share its event loop with the server. argv: socket path, pod count, seed, and optionally
 * changes per second (default none). Prints "ready".
 */
import { startSimulatedKubelet } from '../app/sim/kubelet-server';

const [socketPath, pods, seed, churn] = process.argv.slice(2);
const kubelet = await startSimulatedKubelet({
  socketPath: socketPath!,
  pods: Number(pods),
  seed: Number(seed),
  churnPerSecond: Number(churn ?? 0),
  // The benchmark's rounds of GetPod and ListPods would otherwise hit the kubelet's 100 QPS limit.
  rateLimit: { qps: 1e6, burst: 1e6 },
});
process.on('SIGTERM', () => void kubelet.stop().then(() => process.exit(0)));
console.log('ready');
