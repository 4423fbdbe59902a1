/**
 * Opens the kubelet's REST API on a node: an SSH session (the same as for the Pods API), a channel to
 * the node's own 127.0.0.1:PORT, the credential (read on the workstation or on the node), the serving
 * certificate checked against a CA or the pins file, and the client on top.
 *
 *   const rest = await openKubeletRest(target, { prompter, pinsFile, credentials: { token: { file } } });
 *   const { pods } = await rest.client.listPods();
 *   await rest.close();
 */
import type { FieldMask } from '../mask/field-mask';
import type { SshTarget } from '../ssh/ssh-connection';
import { sessionFor, type SshSession, type SshSessionOptions } from '../ssh/ssh-session';
import type { HopLabel } from '../ssh/ssh-errors';
import { pinName } from './kubelet-certificate-pins';
import { createKubeletRestClient, type KubeletRestClient } from './kubelet-rest-client';
import { createRestTransport, type RestTransport } from './kubelet-rest-transport';
import { createNodeTcpChannel, type NodeTcpChannel, type TcpBridgeMode, type TcpChannelEvent } from './node-tcp-channel';
import { CredentialError, loadRestCredentials, readCredentialFile, validateSources, type RestCredentialSources } from './rest-credentials';

export const KUBELET_PORT = 10250;
export const KUBELET_READ_ONLY_PORT = 10255;

export interface KubeletRestOptions extends SshSessionOptions {
  /** Default 10250, or 10255 with readOnly. */
  port?: number;
  /** The read-only port: plain HTTP, no credentials. */
  readOnly?: boolean;
  credentials?: RestCredentialSources;
  /** A CA file (PEM) that signs the kubelet's serving certificate; without it the certificate is pinned. */
  caFile?: string;
  /** The pins file (kubelet-certificate-pins.ts). */
  pinsFile: string;
  tcpBridge?: TcpBridgeMode;
  tcpBridgeCommand?: string;
  onChannelEvent?: (event: TcpChannelEvent) => void;
  mask?: FieldMask;
  pollIntervalMs?: number;
  /** How long a request may go unanswered (kubelet-rest-transport.ts); default 30 s. */
  callTimeoutMs?: number;
  /** An existing session to the node (the one the Pods API probe used), kept open by the caller. */
  session?: SshSession;
  /** Told each request before it is sent, for -v. */
  announce?: (line: string) => void;
}

export interface KubeletRestConnection {
  client: KubeletRestClient;
  session: SshSession;
  channel: NodeTcpChannel;
  /** Raw GETs on the same port and credential (e.g. /configz, which the client does not read). */
  transport: RestTransport;
  port: number;
  close(): Promise<void>;
}

export { CredentialError };

export async function openKubeletRest(target: SshTarget | HopLabel, options: KubeletRestOptions): Promise<KubeletRestConnection> {
  const readOnly = options.readOnly === true;
  const port = options.port ?? (readOnly ? KUBELET_READ_ONLY_PORT : KUBELET_PORT);
  if (readOnly && (options.credentials?.token || options.credentials?.clientCert)) {
    throw new CredentialError('the read-only port takes no credentials', 'Leave out the token or certificate with --read-only, or use port 10250.');
  }
  validateSources(options.credentials ?? {});
  let ca: string | undefined;
  if (options.caFile) {
    ca = await readCredentialFile(options.caFile, 'kubelet CA');
  }
  const own = !options.session;
  const session = sessionFor(target, options.session, options);
  try {
    const credentials = await loadRestCredentials(options.credentials ?? {}, async () => (await session.connection()).channels);
    const channel = createNodeTcpChannel(() => session.connection(), {
      port,
      readOnly,
      ...(options.tcpBridge ? { mode: options.tcpBridge } : {}),
      ...(options.tcpBridgeCommand ? { commandTemplate: options.tcpBridgeCommand } : {}),
      ...(options.onChannelEvent ? { onEvent: options.onChannelEvent } : {}),
    });
    const transport = createRestTransport({
      channel,
      host: target.host,
      port,
      tls: !readOnly,
      credentials,
      ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
      ...(options.announce ? { announce: options.announce } : {}),
      trust: {
        ...(ca ? { ca, caFile: options.caFile! } : {}),
        pinsFile: options.pinsFile,
        pinName: pinName(target.host, port),
        prompt: (q) => options.prompter.hostKey(q),
      },
    });
    const client = createKubeletRestClient({
      transport,
      host: target.host,
      port,
      tls: !readOnly,
      credential: credentials.description,
      tokenAuth: credentials.token !== undefined,
      ...(options.mask ? { mask: options.mask } : {}),
      ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}),
    });
    return {
      client,
      session,
      channel,
      transport,
      port,
      close: async () => {
        client.close();
        if (own) session.close();
      },
    };
  } catch (err) {
    if (own) session.close();
    throw err;
  }
}

