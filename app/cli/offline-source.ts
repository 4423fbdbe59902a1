/**
 * A node command on a pod file: opens it (with progress for large files), says on stderr that the output is
 * offline (which file, which node, when), and picks the pods: a snapshot's, or a recording's at --at.
 */
import type { FieldMask } from '../mask/field-mask';
import { applyFieldMask } from '../mask/field-mask';
import type { DecodedPod } from '../pod/pod-tree';
import { identityOf, type PodIdentity } from '../pod/first-pod-of-uid';
import type { PodFile } from '../snapshot/open-pod-file';
import { UsageError } from './usage-error';
import { printError, terminalLine } from './terminal-text';
import { parseAt } from './pod-source';

export interface OfflinePods {
  file: PodFile;
  /** The pods as of `at` (a recording) or of the snapshot, the mask applied. */
  pods: DecodedPod[];
  /** Their UIDs, in the same order (a mask may leave metadata.uid out of the pods). */
  uids: string[];
  /** Their uid, namespace and name, in the same order, taken before the mask. */
  identities: PodIdentity[];
  /** For a recording: the instant shown, epoch ms. */
  at?: number;
}

const PROGRESS_FROM = 64 * 1024 * 1024;
const iso = (ms: number) => new Date(ms).toISOString();

/** An offset from the start, to the millisecond, as --at +D takes it: a length rounded up would name an instant past the end. */
function offsetText(ms: number): string {
  const s = Math.floor(ms / 1000);
  const fraction = ms % 1000 ? `.${String(ms % 1000).padStart(3, '0').replace(/0+$/, '')}` : '';
  const seconds = `${s % 60}${fraction}s`;
  return s >= 3600 ? `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m${seconds}` : s >= 60 ? `${Math.floor(s / 60)}m${seconds}` : seconds;
}

/** The instant the pods are of (ages count to it): --at, the snapshot's time, or now when the file does not say. */
export function asOf(o: OfflinePods): number {
  if (o.at !== undefined) return o.at;
  const taken = o.file.provenance.takenAt;
  return taken ? Date.parse(taken) : Date.now();
}

/** The line that marks output as offline: file, node, time, origin. */
export function offlineHeader(o: OfflinePods): string {
  const { file } = o;
  const p = file.provenance;
  const from = [`node ${p.node ?? 'unknown'}`, ...(p.origin ? [`by ${p.origin}`] : [])];
  if (file.kind === 'snapshot') {
    return `nodescope: offline snapshot ${file.path} (${[...from, p.takenAt ? `taken ${p.takenAt}` : 'time not recorded: ages are as of now'].join(', ')}): ${o.pods.length} pods`;
  }
  const when = `${iso(file.start)} to ${iso(file.end)}, ${file.events.length} events`;
  return `nodescope: offline recording ${file.path} (${[...from, when].join(', ')}) at ${iso(o.at!)} (+${offsetText(o.at! - file.start)}): ${o.pods.length} pods`;
}

/** `from`: the instant of a recording without --at: its end (the pods as it ended) or its start (to replay). */
export async function openOffline(path: string, opts: { at?: string; mask?: FieldMask; from: 'start' | 'end' }): Promise<OfflinePods> {
  let shown = false;
  // Loaded here, not at start: its readers (YAML, JSON, protobuf files) are not needed to reach a live node.
  const { openPodFile } = await import('../snapshot/open-pod-file');
  const file = await openPodFile(path, {
    onProgress: ({ pods, bytes, totalBytes }) => {
      if (!process.stderr.isTTY || totalBytes === undefined || totalBytes < PROGRESS_FROM) return;
      shown = true;
      process.stderr.write(`\rnodescope: reading ${terminalLine(path)}: ${Math.floor((bytes / totalBytes) * 100)}%, ${pods} pods`);
    },
  });
  if (shown) process.stderr.write('\n');
  for (const note of file.notes) printError(`nodescope: note: ${note}`);
  let pods: DecodedPod[];
  let at: number | undefined;
  if (file.kind === 'recording') {
    at = opts.at === undefined ? (opts.from === 'start' ? file.start : file.end) : parseAt(opts.at, file.start);
    if (at < file.start || at > file.end) {
      throw new UsageError(`--at ${opts.at ?? ''} is outside the recording, which runs from ${iso(file.start)} to ${iso(file.end)} (+${offsetText(file.end - file.start)})`);
    }
    pods = file.podsAt(at);
  } else {
    if (opts.at !== undefined) throw new UsageError(`--at is for recordings; ${path} is a snapshot of one instant`);
    pods = file.pods;
  }
  const identities = pods.map((p) => identityOf(p.pod));
  const uids = identities.map((p) => p.uid);
  const mask = opts.mask;
  if (mask) pods = pods.map((p) => ({ pod: applyFieldMask(p.pod, mask), unknownFields: p.unknownFields }));
  const result: OfflinePods = { file, pods, uids, identities, ...(at !== undefined ? { at } : {}) };
  printError(offlineHeader(result));
  return result;
}
