/**
 * `nodescope compare SRC SRC...`: the workload matrix of several sources (nodes, snapshots, recordings),
 * drift marked. Exit 1 when drift is found; when a source could not be read, its failure's exit code
 * instead, since a partial comparison cannot say there is none (docs/cli.md, "Many sources").
 */
import { matrixToCsv, matrixToJson } from '../fleet/matrix-export';
import { buildWorkloadMatrix, type MatrixInput } from '../fleet/workload-matrix';
import { reportFailure } from './cli-failure';
import { EXIT } from './exit-codes';
import { failureCode, FLEET_HELP, FLEET_OPTIONS, readSources, sourceIds } from './fleet-sources';
import { matrixText } from './matrix-text';
import { writeStdout } from './node-command';
import { nodeOptionsHelp, parseNodeArgs } from './node-options';

const OUTPUTS = ['text', 'json', 'csv'] as const;
const HELP = `usage: nodescope compare SOURCE SOURCE [SOURCE...] [options]

Reads every SOURCE (ssh destinations, unix:SOCKET, snapshot or recording files) concurrently and prints
one row per workload (DaemonSet, Deployment, StatefulSet, CronJob, Job, static pod, bare pod) and one
column per source: ready pods/pods, phase, restarts. Drift (the same workload with another image,
resources, arguments or environment; a DaemonSet or control-plane static pod missing) is marked with *.
Exit status: 0 no drift, 1 drift found, 2-5 a source could not be read (as for pods).

${FLEET_HELP}
${nodeOptionsHelp(OUTPUTS)}`;

export async function run(argv: string[]): Promise<number> {
  try {
    const opts = await parseNodeArgs(argv, OUTPUTS, FLEET_OPTIONS);
    if (opts.help) {
      console.log(HELP);
      return EXIT.ok;
    }
    const results = await readSources(sourceIds(opts, 2, 'compare'), opts, 'compare');
    const inputs = results.map((r): MatrixInput => ('error' in r ? { id: r.id, error: r.error instanceof Error ? r.error.message : String(r.error) } : r));
    const matrix = buildWorkloadMatrix(inputs);
    await writeStdout(opts.output === 'json' ? matrixToJson(matrix) : opts.output === 'csv' ? matrixToCsv(matrix) : matrixText(matrix, process.stdout.isTTY ? process.stdout.columns : undefined));
    return failureCode(results) || (matrix.drifted ? EXIT.drift : EXIT.ok);
  } catch (err) {
    return reportFailure('compare', err, true);
  }
}
