import type { ApiChoice, NodeSpec } from '../../app/contract/nodes';

/**
 * The Add node dialog's form: its fields as typed, and the node spec they make. Editing a node fills
 * the same form from the node's spec, so what Edit shows is what saving sends back.
 */

/**
 * Where the kubelet's socket is: on a node reached over SSH, or on this machine (the simulator, or Nodescope
 * run on the node). The form is the per-kind UI of the kinds a user adds (isUserAdded), so choosing between
 * their fields is its own business, as Headlamp and k9s register one form per kind: a third kind the user
 * adds brings its own section here, while what any kind *is* is still asked of the kind (source-kinds.ts).
 */
type Via = 'ssh' | 'unix';

export interface Fields {
  via: Via;
  label: string;
  group: string;
  host: string;
  user: string;
  port: string;
  identityFile: string;
  jumpHost: string;
  socketPath: string;
  sudo: boolean;
  api: ApiChoice;
  kubeletPort: string;
  readOnly: boolean;
  tokenFile: string;
  clientCert: string;
  clientKey: string;
  caFile: string;
  pollIntervalS: string;
  podResourcesSocket: string;
}
export type TextField = Exclude<keyof Fields, 'via' | 'sudo' | 'readOnly' | 'api'>;
export const EMPTY: Fields = {
  via: 'ssh', label: '', group: '', host: '', user: '', port: '', identityFile: '', jumpHost: '', socketPath: '', sudo: false,
  api: 'auto', kubeletPort: '', readOnly: false, tokenFile: '', clientCert: '', clientKey: '', caFile: '', pollIntervalS: '', podResourcesSocket: '',
};

const number = (v: string) => (/^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v);

/** The form as a NodeSpec; blank fields are left out so ~/.ssh/config and defaults apply. */
export function toSpec(f: Fields): unknown {
  const named = { ...(f.label.trim() ? { label: f.label } : {}), ...(f.group.trim() ? { group: f.group } : {}) };
  if (f.via === 'unix') return { kind: 'unix', socketPath: f.socketPath, ...named };
  const spec: Record<string, unknown> = { kind: 'ssh', host: f.host, api: f.api, ...named };
  for (const key of ['user', 'identityFile', 'jumpHost', 'socketPath', 'podResourcesSocket'] as const) if (f[key].trim()) spec[key] = f[key];
  if (f.port.trim()) spec.port = number(f.port);
  if (f.sudo) spec.sudo = true;
  if (f.api !== 'pods') {
    const rest: Record<string, unknown> = {};
    for (const key of ['tokenFile', 'clientCert', 'clientKey', 'caFile'] as const) if (f[key].trim()) rest[key] = f[key];
    if (f.kubeletPort.trim()) rest.port = number(f.kubeletPort);
    if (f.pollIntervalS.trim()) rest.pollIntervalS = number(f.pollIntervalS);
    if (f.readOnly) rest.readOnly = true;
    if (Object.keys(rest).length) spec.rest = rest;
  }
  return spec;
}

/** A node's settings in the form, for Edit: unset ones blank, as the user left them when adding it. */
export function fromSpec(spec: Extract<NodeSpec, { kind: 'ssh' | 'unix' }>): Fields {
  const named = { label: spec.label ?? '', group: spec.group ?? '' };
  if (spec.kind === 'unix') return { ...EMPTY, via: 'unix', socketPath: spec.socketPath, ...named };
  const text = (v: string | number | undefined) => (v === undefined ? '' : String(v));
  const rest = spec.rest ?? {};
  return {
    ...EMPTY,
    ...named,
    via: 'ssh',
    host: spec.host,
    user: text(spec.user),
    port: text(spec.port),
    identityFile: text(spec.identityFile),
    jumpHost: text(spec.jumpHost),
    socketPath: text(spec.socketPath),
    sudo: spec.sudo ?? false,
    // A node saved without an API choice is read through the Pods API, as before REST could be chosen.
    api: spec.api ?? 'pods',
    kubeletPort: text(rest.port),
    readOnly: rest.readOnly ?? false,
    tokenFile: text(rest.tokenFile),
    clientCert: text(rest.clientCert),
    clientKey: text(rest.clientKey),
    caFile: text(rest.caFile),
    pollIntervalS: text(rest.pollIntervalS),
    podResourcesSocket: text(spec.podResourcesSocket),
  };
}

/** Where a schema problem is shown: the field it names (rest.port is the kubelet port), or the REST section. */
export function fieldOf(path: PropertyKey[]): keyof Fields | 'rest' {
  if (path[0] !== 'rest') return path[0] as keyof Fields;
  if (path[1] === undefined) return 'rest';
  return path[1] === 'port' ? 'kubeletPort' : (path[1] as keyof Fields);
}
