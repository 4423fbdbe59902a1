/** A node's label as a file name's stem: what a file name had better not hold becomes `_`. */
const stemOf = (label: string) => label.replace(/[^\w.-]+/g, '_');

/** `worker-1-pods.json`: where a node's pods are exported by default (save dialog or browser mode). */
export const exportFileName = (label: string, extension: string): string => `${stemOf(label)}-pods${extension}`;

/** `worker-1-2026-11-27T234512345Z.recording.ndjson`: a recording names its node and when it began. */
export const recordingFileName = (label: string, now: Date): string => `${stemOf(label)}-${now.toISOString().replace(/[:.]/g, '')}.recording.ndjson`;
