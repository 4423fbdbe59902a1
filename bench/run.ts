/**
 * `npm run bench`: every benchmark, each printing its result as a ratio against a baseline measured in the
 * same run. `npm run bench -- decode` runs only the suites whose name contains "decode".
 */
import { podDecodeBench } from './pod-decode.bench';
import { podDiffBench } from './pod-diff.bench';
import { snapshotOpenBench } from './snapshot-open.bench';
import { sshPathBench } from './ssh-path.bench';

const suites: Record<string, () => Promise<boolean>> = {
  'pod-decode': podDecodeBench,
  'ssh-path': sshPathBench,
  'pod-diff': podDiffBench,
  'snapshot-open': snapshotOpenBench,
};

const filter = process.argv[2];
let missed = 0;
for (const [name, suite] of Object.entries(suites)) {
  if (filter && !name.includes(filter)) continue;
  if (!(await suite())) missed++;
}
console.log(missed ? `\n${missed} suite(s) missed a target` : '\nall targets met');
