import type { AddNodeSpec, NodeSpec } from '../../contract/nodes';

export type SourceKindName = NodeSpec['kind'];

/**
 * What a view may ask of a source beside its pods, by kind, so the window and the host know before asking
 * (app/source/capabilities.ts has the interfaces): container logs, and the node's own context (node info).
 */
export type SourceCapabilityName = 'logs' | 'nodeInfo';
export type SpecOf<K extends SourceKindName> = Extract<NodeSpec, { kind: K }>;

/**
 * What the app, the CLI and the window know about one kind of source, without opening it: browser-safe,
 * so the renderer asks the kind ("is it remembered? what is its group?") instead of switching on it.
 * How a kind opens, and what it can do once open, is its Node side (app/source/source-registry.ts).
 */
export interface SourceKindInfo<K extends SourceKindName = SourceKindName> {
  kind: K;
  /** Its name in the sidebar when the user gave none. */
  defaultLabel(spec: SpecOf<K>): string;
  /** How it is reached, or which file it is, for the sidebar's tooltip. */
  describe(spec: SpecOf<K>): string;
  /** Added by the user (Add node): remembered across restarts, its settings editable, kept in a group of theirs. */
  userAdded: boolean;
  /** Read once from a file: never connected, never live. */
  offline: boolean;
  /** The simulated kubelet inside Nodescope, labelled as such everywhere. */
  simulated: boolean;
  /** The capabilities a connected source of this kind has. */
  capabilities: readonly SourceCapabilityName[];
  /** The sidebar section it goes in when the user has named groups ('' for none). */
  group(spec: SpecOf<K>): string;
  /** The words of a `nodescope` command's SOURCE and options that read the same source; [] when the CLI cannot. */
  cliSource(spec: SpecOf<K>): string[];
  /** The same source reached the same way (the same host, user, port, jump host and socket), whatever its label or group. */
  sameSource(a: SpecOf<K>, b: SpecOf<K>): boolean;
  /**
   * Still the same machine after an edit, so its pod history is still that machine's (a new user, socket
   * or API reaches the same kubelet another way; the same address behind another jump host is another machine).
   */
  sameMachine(a: SpecOf<K>, b: SpecOf<K>): boolean;
  /** How undo brings a removed one back: added again, the demo started again, its file opened again. */
  addAgain: 'add' | 'startDemo' | 'openFile';
}

/** The file a file kind was read from (a path here, or an uploaded file's name). */
export type FileSpec = SpecOf<'snapshot' | 'recording'>;
export type UserAddedSpec = AddNodeSpec;
