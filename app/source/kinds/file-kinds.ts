import type { FileSpec, SourceKindInfo } from './source-kind';

/** A file's name without its folder. */
const baseName = (file: string) => file.split('/').pop() || file;

/** A pod file read once: a snapshot (one instant) or a recording (a time axis); the CLI opens the same path. */
const fileKind = (what: string) =>
  ({
    defaultLabel: (spec: FileSpec) => baseName(spec.file),
    describe: (spec: FileSpec) => `${what} file ${spec.file}, read-only`,
    userAdded: false,
    offline: true,
    simulated: false,
    // A file holds pods only: no container logs, no node to ask.
    capabilities: [],
    group: () => 'Files',
    cliSource: (spec: FileSpec) => [spec.file],
    sameSource: (a: FileSpec, b: FileSpec) => a.file === b.file,
    sameMachine: (a: FileSpec, b: FileSpec) => a.file === b.file,
    addAgain: 'openFile',
  }) as const;

export const SNAPSHOT_KIND: SourceKindInfo<'snapshot'> = { kind: 'snapshot', ...fileKind('Snapshot') };
export const RECORDING_KIND: SourceKindInfo<'recording'> = { kind: 'recording', ...fileKind('Recording') };
