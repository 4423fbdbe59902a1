/**
 * `nodescope watch NODE`: one line per pod event until interrupted. The watch reconnects on its own
 * and, after a re-sync, prints the events that bring the shown set up to date.
 */
import type { PodRow } from '../contract';
import { describePodChange } from '../core/pod-change';
import type { RowField } from '../pod/view/pod-field-sources';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { startPodWatch, type PodChange, type WatchState } from '../kubelet/pod-watch';
import { applyFieldMask } from '../mask/field-mask';
import { podToNdjsonLine } from '../pod/kubectl-json';
import { watchEventToKubectlYaml } from '../pod/kubectl-yaml';
import { firstPodOfEachUid, identityOf } from '../pod/first-pod-of-uid';
import type { DecodedPod, PodObject, PodTree } from '../pod/pod-tree';
import { reportFailure } from './cli-failure';
import { MAX_UNREAD_OUTPUT, PacedOutput, parseUnreadLimit, unreadLimitText } from './output-backlog';
import { EXIT } from './exit-codes';
import { runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { type NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { asOf } from './offline-source';
import { warnYamlProblems } from './pod-output';
import { formatTable, maskedCells, podStatusCells } from './pod-table';
import { printError } from './terminal-text';

/** What a watch line shows of an event: its type, the pod's identity and its (possibly masked) tree. */
export interface WatchLineEvent {
  type: PodChange['type'];
  pod: { namespace: string; name: string; pod: PodTree };
}

/**
 * time, type, ns/name, phase ready restarts, and for a MODIFIED event what changed, in the app's events feed
 * wording (`status Running → CrashLoopBackOff, restarted (4 restarts)`): one aligned line per event.
 */
export function watchLine(change: WatchLineEvent, at: Date, masked: ReadonlySet<RowField> = new Set(), changed?: string): string {
  const { pod } = change;
  const what = change.type === 'DELETED' ? '' : (() => {
    const { phase, ready, restarts } = podStatusCells(pod.pod, masked);
    return `${phase} ${ready} ready, ${restarts} restarts${changed ? `: ${changed}` : ''}`;
  })();
  return formatTable([[at.toISOString().slice(11, 23), change.type.padEnd(8), `${pod.namespace}/${pod.name}`.padEnd(50), what]]);
}

/** What each MODIFIED event changed, against the last row seen of its pod (by uid, else namespace/name). */
function changeTracker(masked: ReadonlySet<RowField>): (change: WatchLineEvent) => string | undefined {
  const lastRows = new Map<string, PodRow>();
  return ({ type, pod }) => {
    const uid = (pod.pod.metadata as PodObject | undefined)?.uid;
    const key = typeof uid === 'string' && uid !== '' ? uid : `${pod.namespace}/${pod.name}`;
    if (type === 'DELETED') {
      lastRows.delete(key);
      return undefined;
    }
    const row = podRowFromTree(pod.pod);
    const before = lastRows.get(key);
    lastRows.set(key, row);
    return type === 'MODIFIED' ? describePodChange(before, row, masked) : undefined;
  };
}

/** A watch state worth a line on stderr; undefined for the others. */
export function stateLine(s: WatchState): string | undefined {
  switch (s.state) {
    case 'initializing':
      return `${s.detail}; retrying in ${(s.inMs / 1000).toFixed(1)} s`;
    case 'reconnecting':
      return `watch ended: ${s.cause.message}; watching again in ${(s.inMs / 1000).toFixed(1)} s`;
    case 'catchingUp':
      return `${s.cause.message}; caught up from the kubelet's pod list, watching again in ${(s.inMs / 1000).toFixed(1)} s`;
    default:
      return undefined;
  }
}

/**
 * Events as text in the chosen output, each with its type, so a deletion shows in every one: ndjson, the API
 * server's watch events; json, the same bytes, as kubectl get -w -o json --output-watch-events prints them (its
 * JSON printer writes a watch event compact, one a line); yaml, one document per event with `---` before all but
 * the first (kubectl get -w -o yaml --output-watch-events); table, aligned lines. A DELETED event carries the
 * pod as last held, as an API server's watch does (the kubelet sends only its name, namespace and uid).
 */
function eventPrinter(opts: Pick<NodeCommandOptions, 'output' | 'showManagedFields' | 'mask'>): (change: WatchLineEvent, at: Date) => string {
  // A masked pod prints only what the mask selected, never Go's zero values for the rest.
  const options = { showManagedFields: opts.showManagedFields, ...(opts.mask ? { mask: opts.mask } : {}) };
  const masked = maskedCells(opts.mask);
  const changedBy = opts.output === 'table' ? changeTracker(masked) : undefined;
  let documents = 0;
  return (change, at) => {
    if (opts.output === 'ndjson' || opts.output === 'json') return `{"type":"${change.type}","object":${podToNdjsonLine(change.pod.pod, options)}}\n`;
    if (opts.output === 'yaml') {
      // The compact JSON reads as the same value, without the indentation deep managedFields grow to.
      const printed = watchEventToKubectlYaml(change.type, podToNdjsonLine(change.pod.pod, options), documents++ > 0);
      warnYamlProblems(`pod ${change.pod.namespace}/${change.pod.name}`, printed.problems);
      return printed.yaml;
    }
    return `${watchLine(change, at, masked, changedBy?.(change))}\n`;
  };
}

const spec: NodeCommandSpec = {
  name: 'watch',
  replays: true,
  usage:
    "usage: nodescope watch SOURCE [options]\n\nPrints SOURCE's pods as events (ADDED for each at the start), then every change, until Ctrl-C.\n" +
    'A recording is replayed at once with its recorded times (from --at, default its start); a snapshot\nprints its pods as ADDED and ends.\n\n' +
    '-o json and -o ndjson print one event a line, {"type":"ADDED","object":{...}}, as kubectl get -w -o json\n' +
    '--output-watch-events does; -o yaml one document per event, as kubectl does with -o yaml. A DELETED event\n' +
    "carries the pod as last seen, as an API server's watch does (the kubelet itself sends only its name,\nnamespace and uid).",
  outputs: ['table', 'ndjson', 'json', 'yaml'],
  extra: { 'max-unread': { type: 'string' } },
  extraHelp: `watch:\n  --max-unread SIZE          stop (exit 6) once this much live output waits for a reader that stopped\n                             reading, e.g. 16MiB or 512KiB (default ${unreadLimitText(MAX_UNREAD_OUTPUT).replace(' ', '')})`,
  async run({ client, onSilence }, opts) {
    const limitText = opts.extraValues['max-unread'] as string | undefined;
    const limit = limitText === undefined ? MAX_UNREAD_OUTPUT : parseUnreadLimit(limitText);
    if (limit === undefined) throw new UsageError(`bad --max-unread '${limitText}': give a size such as 64MiB or 512KiB`);
    let stopWatch: ((code: number) => void) | undefined;
    // Pods left out (see PodWatch's LeftOut) are said once each; after any, Ctrl-C exits 5 like `pods`.
    const said = new Set<string>();
    const output = new PacedOutput(process.stdout, limit);
    const printer = eventPrinter(opts);
    /**
     * An event's text. Printing runs inside the watch's callbacks, whose failures the watch would report as
     * the kubelet's (exit 4): a failure to print is Nodescope's own, so it ends the watch here, saying so.
     */
    const eventText = (change: PodChange, at: Date): string => {
      try {
        return printer(change, at);
      } catch (err) {
        if (stopWatch) {
          printError(`nodescope watch: cannot print the ${change.type} event of pod ${change.pod.namespace}/${change.pod.name}: ${(err as Error).message}`);
          printError(`  next step: this is a fault in Nodescope, not in the kubelet: report it; nodescope get SOURCE ${String((change.pod.pod.metadata as PodObject | undefined)?.uid ?? 'UID')} -o json prints the pod`);
          stopWatch(EXIT.internal);
          stopWatch = undefined;
        }
        return '';
      }
    };
    /** A sync's events are written as the reader takes them, made on their turn: the watch holds their pods anyway. */
    const printSync = (change: PodChange) => {
      warnUnknownFields([change.pod]);
      const at = new Date();
      output.later(() => eventText(change, at));
    };
    const print = (change: PodChange) => {
      warnUnknownFields([change.pod]);
      if (!output.write(eventText(change, new Date())) && stopWatch) {
        process.stderr.write(
          `nodescope watch: stopping: the reader of the output fell ${unreadLimitText(limit)} behind; read it faster, or shrink events with --mask or -o table\n`,
        );
        stopWatch(EXIT.output);
        stopWatch = undefined;
      }
    };
    // Events stop coming from a node that stopped answering: say so rather than look like a quiet node.
    const unsubscribe = onSilence?.((since) =>
      printError(
        since === null
          ? `nodescope: ${opts.node} answers again`
          : `nodescope: ${opts.node} has not answered since ${new Date(since).toISOString().slice(11, 23)} (SSH keepalives unanswered): changes since then are not shown yet; reconnecting if it stays silent`,
      ),
    );
    return new Promise<number>((resolve) => {
      const stop = (code: number) => {
        unsubscribe?.();
        process.off('SIGINT', interrupted);
        process.off('SIGTERM', interrupted);
        void watch.close().then(() => resolve(code));
      };
      stopWatch = stop;
      const interrupted = () => stop(said.size > 0 ? EXIT.data : EXIT.ok);
      process.on('SIGINT', interrupted);
      process.on('SIGTERM', interrupted);
      const watch = startPodWatch(
        client,
        {
          synced: (pods, changes, resync) => {
            changes.forEach(printSync);
            printError(`nodescope: ${resync ? 're-synced' : 'in sync'}: ${pods.length} pods`);
          },
          change: print,
          state: (s) => {
            const line = stateLine(s);
            if (line) printError(`nodescope: ${line}`);
            if (s.state === 'live') {
              for (const why of s.leftOut.filter((w) => !said.has(w))) {
                said.add(why);
                printError(`nodescope: ${why}`);
              }
            }
            if (s.state === 'error') stop(reportFailure('watch', s.cause));
          },
        },
        { masked: opts.mask !== undefined },
      );
    });
  },
  async offline(source, opts) {
    const { file } = source;
    const mask = opts.mask;
    const eventText = eventPrinter(opts);
    const event = (type: WatchLineEvent['type'], p: DecodedPod): WatchLineEvent => {
      const meta = (p.pod.metadata ?? {}) as PodObject;
      return { type, pod: { namespace: String(meta.namespace ?? ''), name: String(meta.name ?? ''), pod: mask ? applyFieldMask(p.pod, mask) : p.pod } };
    };
    if (file.kind === 'snapshot') {
      const at = new Date(asOf(source));
      // A watch follows pods by uid, on a file as on a node: the first of a uid, the others named.
      const { kept, leftOut } = firstPodOfEachUid(file.pods, (p) => identityOf(p.pod));
      for (const why of leftOut) printError(`nodescope: ${why}`);
      await writeStdout(kept.map((p) => eventText(event('ADDED', p), at)).join(''));
      printError('nodescope: a snapshot holds one instant: no changes follow');
      return EXIT.ok;
    }
    // A recording replays from --at (default its start): the pods then, as ADDED, and every later event.
    const from = source.at!;
    let text = file.podsAt(from).map((p) => eventText(event('ADDED', p), new Date(from))).join('');
    for (const e of file.events) {
      if (e.time <= from) continue;
      text += eventText(event(e.type, e.pod), new Date(e.time));
      if (text.length > 1 << 20) {
        await writeStdout(text);
        text = '';
      }
    }
    await writeStdout(text);
    printError(`nodescope: end of the recording (${new Date(file.end).toISOString()})`);
    return EXIT.ok;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
