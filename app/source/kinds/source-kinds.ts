import type { NodeSpec } from '../../contract/nodes';
import { DEMO_KIND } from './demo-kind';
import { RECORDING_KIND, SNAPSHOT_KIND } from './file-kinds';
import type { FileSpec, SourceCapabilityName, SourceKindInfo, SourceKindName, SpecOf, UserAddedSpec } from './source-kind';
import { SSH_KIND } from './ssh-kind';
import { UNIX_KIND } from './unix-kind';

/**
 * Every kind of source, by the `kind` its spec carries: the built-in ones below, and any other registered
 * with its Node side (app/source/source-registry.ts, registerSourceKind).
 */
const KINDS = new Map<string, SourceKindInfo>(([SSH_KIND, UNIX_KIND, DEMO_KIND, SNAPSHOT_KIND, RECORDING_KIND] as SourceKindInfo[]).map((info) => [info.kind, info]));

/** Adds a kind (or replaces one of the same name): what it is, for every view that asks. */
export function registerSourceKindInfo(info: SourceKindInfo): void {
  KINDS.set(info.kind, info);
}

/** The kind of a source: what it is and how it shows, asked of the kind rather than switched on. */
export function sourceKind(spec: NodeSpec): SourceKindInfo {
  const kind = KINDS.get(spec.kind);
  if (!kind) throw new Error(`No source kind '${spec.kind}' is registered (app/source/kinds/source-kinds.ts).`);
  return kind;
}

/** The name the sidebar shows: the user's label, else the kind's. */
export const labelOf = (spec: NodeSpec): string => spec.label || sourceKind(spec).defaultLabel(spec);

/** A source the user added: remembered across restarts, with settings to edit and a group. */
export const isUserAdded = (spec: NodeSpec): spec is UserAddedSpec => sourceKind(spec).userAdded;

/** A file's pods: never live. */
export const isOffline = (spec: NodeSpec): spec is FileSpec => sourceKind(spec).offline;

/** Whether a source of this kind has the capability once connected: a view asks this, not which kind it is. */
export const sourceCan = (spec: NodeSpec, capability: SourceCapabilityName): boolean => sourceKind(spec).capabilities.includes(capability);

export const describeSource = (spec: NodeSpec): string => sourceKind(spec).describe(spec);
export const groupOfSource = (spec: NodeSpec): string => sourceKind(spec).group(spec);
export const cliSourceOf = (spec: NodeSpec): string[] => sourceKind(spec).cliSource(spec);

/** The same source reached the same way, whatever its label or group (a second of it is not added). */
export const sameSource = (a: NodeSpec, b: NodeSpec): boolean => a.kind === b.kind && sourceKind(a).sameSource(a, b);

/** Whether an edited source still reaches the same machine, so its pod history is still that machine's. */
export const sameMachine = (before: NodeSpec, after: NodeSpec): boolean => before.kind === after.kind && sourceKind(before).sameMachine(before, after);

export type { SourceCapabilityName, SourceKindInfo, SourceKindName, SpecOf };
