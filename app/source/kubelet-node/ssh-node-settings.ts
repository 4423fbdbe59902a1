import type { SshNodeSpec } from '../../contract/nodes';
import { secretSource } from '../../kubelet-rest/rest-credentials';
import type { FieldMask } from '../../mask/field-mask';
import type { KubeletDialSettings } from './dial-kubelet-node';

/**
 * An SSH node's settings, as the app's add-node dialog saved them, as the dial takes them. A node saved
 * before it could be read through REST has no `api`: the Pods API. Credential files are named, never read here.
 */
export function kubeletDialSettings(spec: SshNodeSpec, pinsFile: string, mask: FieldMask | undefined): KubeletDialSettings {
  const r = spec.rest ?? {};
  return {
    api: spec.api ?? 'pods',
    ...(spec.socketPath ? { socketPath: spec.socketPath } : {}),
    ...(spec.sudo ? { sudo: true } : {}),
    ...(spec.podResourcesSocket ? { podResourcesSocket: spec.podResourcesSocket } : {}),
    ...(mask ? { mask } : {}),
    rest: {
      pinsFile,
      credentials: {
        ...(r.tokenFile ? { token: secretSource(r.tokenFile) } : {}),
        ...(r.clientCert ? { clientCert: secretSource(r.clientCert) } : {}),
        ...(r.clientKey ? { clientKey: secretSource(r.clientKey) } : {}),
      },
      ...(r.port ? { port: r.port } : {}),
      ...(r.readOnly ? { readOnly: true } : {}),
      ...(r.caFile ? { caFile: r.caFile } : {}),
      ...(r.pollIntervalS ? { pollIntervalMs: r.pollIntervalS * 1000 } : {}),
    },
  };
}
