/**
 * The file names a node's exports and recordings get by default, wherever they are offered (the host's
 * save dialogs, the export dialog and the browser-mode record dialog): the node and the time in each, so
 * two exports of one node, or of two nodes, never take each other's name.
 */

/** A node's label as a file name's stem: what a file name had better not hold becomes `_`, none at either end. */
const stemOf = (label: string): string => label.replace(/[^\w.-]+/g, '_').replace(/^[_.-]+|[_.-]+$/g, '') || 'node';

/** `2026-11-27T234512Z`: UTC to the second, with no `:` (Windows and some shares refuse it). */
export const fileTimeStamp = (now: Date): string => now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '');

/** `worker-1-2026-11-27T234512Z-pods.json`: where a node's pods are exported by default. */
export const exportFileName = (label: string, extension: string, now: Date): string => `${stemOf(label)}-${fileTimeStamp(now)}-pods${extension}`;

/** `worker-1-2026-11-27T234512Z.recording.ndjson`: a recording names its node and when it began. */
export const recordingFileName = (label: string, now: Date): string => `${stemOf(label)}-${fileTimeStamp(now)}.recording.ndjson`;
