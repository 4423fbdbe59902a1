/**
 * The recording file format, version 1 (docs/recording-format.md): NDJSON, one JSON object per line.
 *   {"nodescopeRecording":1,"startedAt":"…","node":"…","origin":"…"}        header, always the first line
 *   {"time":"…","type":"INITIAL","object":{pod}}                              the full pod set at the start
 *   {"time":"…","type":"SYNCED","pods":N}                                     the initial set is complete
 *   {"time":"…","type":"ADDED"|"MODIFIED"|"DELETED","object":{pod}}           every watch event, as it arrived
 *   {"time":"…","type":"END"}                                                 stopped cleanly (absent after a crash)
 * Pods are the objects `kubectl get pod -o json` prints, compact, with managedFields; times are RFC 3339 UTC
 * with milliseconds. Writers only append whole lines; readers drop a torn last line and say so.
 */
import { podToNdjsonLine } from '../pod/kubectl-json';
import type { PodTree } from '../pod/pod-tree';

export const RECORDING_VERSION = 1;
/** The header's key: its presence on the first line is what makes a file a recording. */
export const RECORDING_KEY = 'nodescopeRecording';
/** What a recording file's name ends in: `nodescope record --file` and the UI's suggested names. */
export const RECORDING_FILE_EXTENSIONS = ['.recording', '.recording.ndjson'];

export type RecordedEventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export type RecordingLineType = 'INITIAL' | 'SYNCED' | 'END' | RecordedEventType;

export interface RecordingHeader {
  [RECORDING_KEY]: number;
  startedAt: string;
  node?: string;
  origin?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function headerLine(h: { start: number; node?: string; origin?: string }): string {
  const header: RecordingHeader = { [RECORDING_KEY]: RECORDING_VERSION, startedAt: iso(h.start) };
  if (h.node !== undefined) header.node = h.node;
  if (h.origin !== undefined) header.origin = h.origin;
  return `${JSON.stringify(header)}\n`;
}

/** A pod line; the pod is printed as kubectl would, with managedFields, so a recording loses nothing kubectl shows. */
export function podLine(time: number, type: 'INITIAL' | RecordedEventType, pod: PodTree): string {
  return `{"time":"${iso(time)}","type":"${type}","object":${podToNdjsonLine(pod, { showManagedFields: true })}}\n`;
}

export function syncedLine(time: number, pods: number): string {
  return `{"time":"${iso(time)}","type":"SYNCED","pods":${pods}}\n`;
}

export function endLine(time: number): string {
  return `{"time":"${iso(time)}","type":"END"}\n`;
}
