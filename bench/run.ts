/**
 * `npm run bench`: every benchmark, each printing its result as a ratio against a baseline measured in the
 * same run. `npm run bench -- decode` runs only the suites whose name contains "decode"; `--json FILE` also
 * writes every figure there (see figures.ts), so runs can be compared.
 */
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../app/fs/atomic-file';
import { busyNodeBench } from './busy-node.bench';
import { cliBench } from './cli.bench';
import { fleetOpenBench } from './fleet-open.bench';
import { fleetTableBench } from './fleet-table.bench';
import { hubSlicesBench } from './hub-slices.bench';
import { recordedFigures } from './figures';
import { kubectlYamlBench } from './kubectl-yaml.bench';
import { logTailBench } from './log-tail.bench';
import { podDecodeBench } from './pod-decode.bench';
import { podDiffBench } from './pod-diff.bench';
import { podGeneratorBench } from './pod-generator.bench';
import { podHistoryBench } from './pod-history.bench';
import { simListBench } from './sim-list.bench';
import { snapshotOpenBench } from './snapshot-open.bench';
import { sshExportBench } from './ssh-export.bench';
import { sshPathBench } from './ssh-path.bench';
import { thousandNodesBench } from './thousand-nodes.bench';
import { uiBench } from './ui.bench';

const suites: Record<string, () => Promise<boolean>> = {
  'pod-decode': podDecodeBench,
  'pod-generator': podGeneratorBench,
  cli: cliBench,
  'pod-history': podHistoryBench,
  'kubectl-yaml': kubectlYamlBench,
  'ssh-path': sshPathBench,
  'ssh-export': sshExportBench,
  'log-tail': logTailBench,
  'pod-diff': podDiffBench,
  'snapshot-open': snapshotOpenBench,
  'sim-list': simListBench,
  'fleet-open': fleetOpenBench,
  'fleet-table': fleetTableBench,
  'thousand-nodes': thousandNodesBench,
  'hub-slices': hubSlicesBench,
  'busy-node': busyNodeBench,
  ui: uiBench,
};

const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: 'string' } } });
const [filter] = positionals;
let missed = 0;
for (const [name, suite] of Object.entries(suites)) {
  if (filter && !name.includes(filter)) continue;
  if (!(await suite())) missed++;
}
console.log(missed ? `\n${missed} suite(s) missed a target` : '\nall targets met');
if (values.json) {
  await writeFileAtomic(values.json, `${JSON.stringify({ figures: recordedFigures() }, null, 2)}\n`);
  console.log(`figures written to ${values.json}`);
}
