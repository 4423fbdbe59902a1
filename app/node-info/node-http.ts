/**
 * Plain-HTTP GETs to a port on the node's own loopback (the kubelet's healthz port, 10248 by default):
 * over the SSH connection through the same direct-tcpip channel the REST API uses (or its bridge command
 * where sshd forbids forwarding), or straight to 127.0.0.1 when Nodescope runs on the node (--local).
 */
import { request } from 'node:http';
import { createRestTransport } from '../kubelet-rest/kubelet-rest-transport';
import { createNodeTcpChannel, type TcpBridgeMode } from '../kubelet-rest/node-tcp-channel';
import type { SshConnection } from '../ssh/ssh-connection';
import type { HttpAnswer } from './node-info-reader';

/** Healthz answers `ok`: anything past a few KiB is not a healthz answer. */
const MAX_BODY_BYTES = 64 * 1024;

export function sshHttpGet(connection: () => Promise<SshConnection>, host: string, options: { tcpBridge?: TcpBridgeMode; tcpBridgeCommand?: string; callTimeoutMs?: number } = {}) {
  return async (port: number, path: string): Promise<HttpAnswer> => {
    const channel = createNodeTcpChannel(connection, {
      port,
      ...(options.tcpBridge ? { mode: options.tcpBridge } : {}),
      ...(options.tcpBridgeCommand ? { commandTemplate: options.tcpBridgeCommand } : {}),
    });
    // Plain HTTP: the trust settings are for TLS and are never consulted.
    const transport = createRestTransport({ channel, host, port, tls: false, credentials: {}, trust: { pinsFile: '', pinName: '' }, maxBodyBytes: MAX_BODY_BYTES,
      ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}) });
    const r = await transport.get(path);
    return { status: r.status, body: r.body.toString('utf8') };
  };
}

export function localHttpGet(timeoutMs = 10_000) {
  return (port: number, path: string): Promise<HttpAnswer> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, timeout: timeoutMs }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
          if (body.length > MAX_BODY_BYTES) req.destroy(new Error(`127.0.0.1:${port}${path} answered more than ${MAX_BODY_BYTES} bytes`));
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`127.0.0.1:${port}${path} did not answer within ${timeoutMs / 1000} s`)));
      req.on('error', (err) => reject(new Error(`cannot reach 127.0.0.1:${port}${path}: ${err.message}`)));
      req.end();
    });
}
