/**
 * A simulated fleet in its own process, as `nodescope sim --nodes N` serves one (app/sim/simulated-fleet.ts):
 * the benchmark's app core then does not share its event loop or heap with the thousand kubelets.
 * argv: socket folder, node count, pods per node. Prints "ready" once every node serves; then each line
 * "change" on stdin applies one change on every node (what the matrix is rebuilt after) and prints
 * "changed N".
 */
import { createInterface } from 'node:readline';
import { startSimulatedFleet } from '../app/sim/simulated-fleet';

const [socketDir, nodes, pods] = process.argv.slice(2);
const fleet = await startSimulatedFleet({ socketDir: socketDir!, nodes: Number(nodes), pods: Number(pods) });
process.on('SIGTERM', () => void fleet.stop().then(() => process.exit(0)));
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'change') return;
  for (const node of fleet.nodes) node.churn.step(1);
  console.log(`changed ${fleet.nodes.length}`);
});
console.log('ready');
