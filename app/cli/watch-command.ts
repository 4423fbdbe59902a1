/**
 * `nodescope watch NODE`: one line per pod event until interrupted. The watch reconnects on its own
 * and, after a re-sync, prints the events that bring the shown set up to date.
 */
import { podRowFromTree } from '../contract/pod-row-from-tree';
import { startPodWatch, type PodChange, type WatchState } from '../kubelet/pod-watch';
import { podToKubectlJson, podToNdjsonLine } from '../pod/kubectl-json';
import { reportFailure } from './cli-failure';
import { MAX_UNREAD_OUTPUT, writeUnlessBacklogged } from './output-backlog';
import { EXIT } from './exit-codes';
import { runNodeCommand, warnUnknownFields, type NodeCommandSpec } from './node-command';
import { formatTable } from './pod-table';

export const summary = "follow a node's pod events live (table lines, ndjson events or json objects)";

/** time, type, ns/name, phase ready restarts: one aligned line per event. */
export function watchLine(change: PodChange, at: Date): string {
  const { pod } = change;
  const what = change.type === 'DELETED' ? '' : (() => {
    const row = podRowFromTree(pod.pod);
    return `${row.phase || '<none>'} ${row.ready}/${row.total} ready, ${row.restarts} restarts`;
  })();
  return formatTable([[at.toISOString().slice(11, 23), change.type.padEnd(8), `${pod.namespace}/${pod.name}`.padEnd(50), what]]);
}

function stateLine(s: WatchState): string | undefined {
  switch (s.state) {
    case 'initializing':
      return `${s.detail}; retrying in ${(s.inMs / 1000).toFixed(1)} s`;
    case 'reconnecting':
      return `watch ended: ${s.cause.message}; watching again in ${(s.inMs / 1000).toFixed(1)} s`;
    default:
      return undefined;
  }
}

const spec: NodeCommandSpec = {
  name: 'watch',
  usage: "usage: nodescope watch NODE [options]\n\nPrints NODE's pods as events (ADDED for each at the start), then every change, until Ctrl-C.",
  outputs: ['table', 'ndjson', 'json'],
  async run({ client }, opts) {
    let stopWatch: ((code: number) => void) | undefined;
    const print = (change: PodChange) => {
      warnUnknownFields([change.pod]);
      const options = { showManagedFields: opts.showManagedFields, ...(opts.mask ? { mask: opts.mask } : {}) };
      // ndjson: watch events as the API server's watch sends them; json: the objects, as kubectl get -w -o json.
      const written = writeUnlessBacklogged(
        process.stdout,
        opts.output === 'ndjson'
          ? `{"type":"${change.type}","object":${podToNdjsonLine(change.pod.pod, options)}}\n`
          : opts.output === 'json'
            ? podToKubectlJson(change.pod.pod, options)
            : `${watchLine(change, new Date())}\n`,
      );
      if (!written && stopWatch) {
        process.stderr.write(
          `nodescope watch: stopping: the reader of the output fell ${MAX_UNREAD_OUTPUT / 1024 / 1024} MiB behind; read it faster, or shrink events with --mask or -o table\n`,
        );
        stopWatch(EXIT.output);
        stopWatch = undefined;
      }
    };
    return new Promise<number>((resolve) => {
      const stop = (code: number) => {
        process.off('SIGINT', interrupted);
        process.off('SIGTERM', interrupted);
        void watch.close().then(() => resolve(code));
      };
      stopWatch = stop;
      const interrupted = () => stop(EXIT.ok);
      process.on('SIGINT', interrupted);
      process.on('SIGTERM', interrupted);
      const watch = startPodWatch(
        client,
        {
          synced: (pods, changes, resync) => {
            changes.forEach(print);
            process.stderr.write(`nodescope: ${resync ? 're-synced' : 'in sync'}: ${pods.length} pods\n`);
          },
          change: print,
          state: (s) => {
            const line = stateLine(s);
            if (line) process.stderr.write(`nodescope: ${line}\n`);
            if (s.state === 'error') stop(reportFailure('watch', s.cause));
          },
        },
        { masked: opts.mask !== undefined },
      );
    });
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
