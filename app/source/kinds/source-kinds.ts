import type { NodeSpec } from '../../contract/nodes';
import { DEMO_KIND } from './demo-kind';
import { RECORDING_KIND, SNAPSHOT_KIND } from './file-kinds';
import type { FileSpec, SourceCapabilityName, SourceKindInfo, SourceKindName, SpecOf, UserAddedSpec } from './source-kind';
import { SSH_KIND } from './ssh-kind';
import { UNIX_KIND } from './unix-kind';

/** Every kind of source, by the `kind` its spec carries: a new kind is one file here and one line below. */
const KINDS: { [K in SourceKindName]: SourceKindInfo<K> } = {
  ssh: SSH_KIND,
  unix: UNIX_KIND,
  demo: DEMO_KIND,
  snapshot: SNAPSHOT_KIND,
  recording: RECORDING_KIND,
};

/** The kind of a source: what it is and how it shows, asked of the kind rather than switched on. */
export function sourceKind(spec: NodeSpec): SourceKindInfo {
  return KINDS[spec.kind] as SourceKindInfo;
}

/** The name the sidebar shows: the user's label, else the kind's. */
export const labelOf = (spec: NodeSpec): string => spec.label || sourceKind(spec).defaultLabel(spec);

/** A source the user added: remembered across restarts, with settings to edit and a group. */
export const isUserAdded = (spec: NodeSpec): spec is UserAddedSpec => KINDS[spec.kind].userAdded;

/** A file's pods: never live. */
export const isOffline = (spec: NodeSpec): spec is FileSpec => KINDS[spec.kind].offline;

/** Whether a source of this kind has the capability once connected: a view asks this, not which kind it is. */
export const sourceCan = (spec: NodeSpec, capability: SourceCapabilityName): boolean => KINDS[spec.kind].capabilities.includes(capability);

export const describeSource = (spec: NodeSpec): string => sourceKind(spec).describe(spec);
export const groupOfSource = (spec: NodeSpec): string => sourceKind(spec).group(spec);
export const cliSourceOf = (spec: NodeSpec): string[] => sourceKind(spec).cliSource(spec);

/** The same source reached the same way, whatever its label or group (a second of it is not added). */
export const sameSource = (a: NodeSpec, b: NodeSpec): boolean => a.kind === b.kind && sourceKind(a).sameSource(a, b);

/** Whether an edited source still reaches the same machine, so its pod history is still that machine's. */
export const sameMachine = (before: NodeSpec, after: NodeSpec): boolean => before.kind === after.kind && sourceKind(before).sameMachine(before, after);

export type { SourceCapabilityName, SourceKindInfo, SourceKindName, SpecOf };
