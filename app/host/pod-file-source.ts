import { basename } from 'node:path';
import type { OfflineSource } from '../core/core-types';
import type { PodFile } from '../snapshot/pod-file';

/** A file's pods as the core takes them: where and when they were taken, else what the file is called. */
export function offlineSourceOf(file: PodFile): OfflineSource {
  const name = basename(file.path);
  const parsed = file.provenance.takenAt ? Date.parse(file.provenance.takenAt) : NaN;
  const takenAt = Number.isNaN(parsed) ? (file.kind === 'recording' ? file.start : null) : parsed;
  const origin = file.provenance.node ? `${file.provenance.node} · ${name}` : name;
  const common = { file: file.path, label: name, takenAt, origin };
  if (file.kind === 'snapshot') return { ...common, kind: 'snapshot', pods: file.pods };
  return {
    ...common,
    kind: 'recording',
    start: file.start,
    end: file.end,
    initial: file.initial,
    events: file.events,
    podsAt: (time) => file.podsAt(time),
  };
}
