/**
 * The simulated kubelet's HTTPS API, as a real kubelet serves it on :10250: a self-signed serving
 * certificate, client certificates and bearer tokens for authentication, per-user authorization on the
 * node subresources with kubelet's messages (401 Unauthorized, 403 Forbidden (user=..., ...), and
 * 500 Authorization error when the webhook authorizer cannot reach the API server), and optionally the
 * read-only port (:10255) without authentication. Loopback only.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { podToNdjsonLine } from '../pod/kubectl-json';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { probeMetrics, resourceMetrics, statsSummary } from './container-usage';
import { certificateFingerprint, createClientCa, selfSignedServingCertificate, type ClientCa, type PemPair } from './kubelet-pki';
import type { PodFaults } from './pod-faults';
import type { PodStore } from './pod-store';
import { serveContainerLogs } from './container-logs-endpoint';

/** The node subresources the kubelet authorizes requests against. */
export type NodeSubresource = 'proxy' | 'pods' | 'healthz' | 'configz' | 'stats' | 'metrics';

/** 'ok': decisions as configured; 'webhook-down': the API server does not answer (token review and authorization fail). */
export type AuthorizerMode = 'ok' | 'webhook-down';

export interface KubeletRestOptions {
  /** Default 0: a free loopback port. */
  port?: number;
  /** Serve the read-only port (no authentication) here; 0 for a free one. Left out: not served, as on most clusters. */
  readOnlyPort?: number;
  /** Bearer tokens and the user each authenticates as. */
  tokens?: Record<string, string>;
  /**
   * What each user may read; a user not listed may read everything. A kubelet with the fine-grained
   * authorization of 1.33+ checks `pods`/`healthz`/`configz` first and then `proxy`, as here.
   */
  allow?: Record<string, readonly NodeSubresource[]>;
  /** `/containerLogs` reads the CRI log files here (`nodescope sim --log-dir`); left out, no container has a log. */
  logDir?: string;
}

export interface SimulatedKubeletRest {
  port: number;
  readOnlyPort?: number;
  /** The serving certificate (PEM) and its SHA-256 fingerprint as openssl prints it. */
  certificatePem: string;
  fingerprint: string;
  /** Signs the client certificates this kubelet accepts. */
  clientCa: ClientCa;
  authorizer: AuthorizerMode;
  setAuthorizer(mode: AuthorizerMode): void;
  /** As after the kubelet rotated or regenerated its serving certificate (e.g. node reinstalled). */
  replaceServingCertificate(): Promise<void>;
  /** Pods the container runtime still runs after the kubelet stopped listing them (for /runningpods/). */
  lingering: Map<string, PodTree>;
  requests: { path: string; status: number; user?: string }[];
  stop(): Promise<void>;
}

/** Which subresources a path needs, in the order the kubelet checks them. */
export function subresourcesFor(path: string): NodeSubresource[] {
  if (path.startsWith('/stats')) return ['stats'];
  if (path.startsWith('/metrics')) return ['metrics'];
  if (path === '/pods' || path.startsWith('/runningpods')) return ['pods', 'proxy'];
  if (path.startsWith('/healthz')) return ['healthz', 'proxy'];
  if (path.startsWith('/configz')) return ['configz', 'proxy'];
  return ['proxy'];
}

/** The kubelet's `/pods`: a v1 PodList in Go's compact JSON, items without kind and apiVersion; `faults` breaks the chosen ones. */
export function podListJson(pods: Iterable<PodTree>, faults?: PodFaults): string {
  const items: string[] = [];
  for (const pod of pods) {
    const item = podToNdjsonLine(pod, { showManagedFields: true }).replace(/^\{"apiVersion":"v1","kind":"Pod",/, '{');
    items.push(faults ? faults.jsonItem((pod.metadata as PodObject).uid as string, item) : item);
  }
  return `{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[${items.join(',')}]}\n`;
}

/** `/runningpods/`: what the runtime runs, as the kubelet reports it (identity and containers only). */
function runningPodsJson(pods: Iterable<PodTree>): string {
  const items: object[] = [];
  for (const pod of pods) {
    const m = pod.metadata as PodObject;
    const containers = (((pod.spec as PodObject | undefined)?.containers ?? []) as PodObject[]).map((c) => ({ name: c.name, image: c.image, resources: {} }));
    items.push({ metadata: { name: m.name, namespace: m.namespace, uid: m.uid, creationTimestamp: null }, spec: { containers }, status: {} });
  }
  return `${JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items })}\n`;
}

function configz(nodeName: string, readOnlyPort: number | undefined): string {
  return JSON.stringify({
    kubeletconfig: {
      enableServer: true,
      staticPodPath: '/etc/kubernetes/manifests',
      syncFrequency: '1m0s',
      address: '0.0.0.0',
      port: 10250,
      readOnlyPort: readOnlyPort === undefined ? 0 : 10255,
      authentication: { x509: { clientCAFile: '/etc/kubernetes/pki/ca.crt' }, webhook: { enabled: true, cacheTTL: '2m0s' }, anonymous: { enabled: false } },
      authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
      maxPods: 110,
      nodeName,
      // It serves the Pods API, so its gate is on (nodescope node reads it here).
      featureGates: { PodsAPI: true },
    },
  });
}

function listen(server: HttpServer | HttpsServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** `faults`: pods served broken on purpose, as on the Pods API (nodescope sim --undecodable). */
export async function startKubeletRest(store: PodStore, nodeName: string, options: KubeletRestOptions = {}, faults?: PodFaults): Promise<SimulatedKubeletRest> {
  const startedAt = Date.now();
  const clientCa = await createClientCa();
  let serving: PemPair = await selfSignedServingCertificate(nodeName);
  const lingering = new Map<string, PodTree>();
  const requests: SimulatedKubeletRest['requests'] = [];
  let authorizer: AuthorizerMode = 'ok';
  let readOnlyPort: number | undefined;

  /** Answers the request; a number when answered at once, a promise for an answer that streams (/containerLogs). */
  const serve = (url: URL, res: ServerResponse): number | Promise<number> => {
    const { pathname: path } = url;
    const now = Date.now();
    if (path.startsWith('/containerLogs/')) return serveContainerLogs(res, url, store, options.logDir !== undefined ? { logDir: options.logDir } : {});
    if (path === '/pods' || path === '/pods/') return send(res, 200, podListJson(store.list(), faults), 'application/json'), 200;
    if (path === '/runningpods' || path === '/runningpods/') {
      const running = store.list().filter((p) => ((p.status as PodObject | undefined)?.phase ?? '') === 'Running');
      return send(res, 200, runningPodsJson([...running, ...lingering.values()]), 'application/json'), 200;
    }
    if (path === '/stats/summary') return send(res, 200, JSON.stringify(statsSummary(store.list(), nodeName, startedAt, now)), 'application/json'), 200;
    if (path === '/metrics/probes') return send(res, 200, probeMetrics(store.list(), startedAt, now), 'text/plain; version=0.0.4; charset=utf-8'), 200;
    if (path === '/metrics/resource') return send(res, 200, resourceMetrics(statsSummary(store.list(), nodeName, startedAt, now), now), 'text/plain; version=0.0.4; charset=utf-8'), 200;
    if (path === '/healthz') return send(res, 200, 'ok'), 200;
    if (path === '/configz') return send(res, 200, configz(nodeName, readOnlyPort), 'application/json'), 200;
    return send(res, 404, '404 page not found\n'), 404;
  };

  const authenticate = (req: IncomingMessage): string | undefined => {
    const socket = req.socket as TLSSocket;
    if (socket.authorized) {
      const cn = socket.getPeerCertificate().subject?.CN;
      if (cn) return Array.isArray(cn) ? cn[0] : cn;
    }
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ') && authorizer === 'ok') return options.tokens?.[auth.slice(7)];
    return undefined;
  };

  const secure = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const path = url.pathname;
    const user = authenticate(req);
    const record = (status: number) => requests.push({ path, status, ...(user ? { user } : {}) });
    if (!user) return record(401), send(res, 401, 'Unauthorized');
    const needed = subresourcesFor(path);
    const last = needed[needed.length - 1]!;
    const attrs = (sub: string) => `(user=${user}, verb=get, resource=nodes, subresource=${sub})`;
    if (authorizer === 'webhook-down') return record(500), send(res, 500, `Authorization error ${attrs(needed[0]!)}`);
    const allowed = options.allow?.[user];
    if (allowed && !needed.some((s) => allowed.includes(s))) return record(403), send(res, 403, `Forbidden ${attrs(last)}`);
    record(await serve(url, res));
  };

  const tlsOptions = () => ({ cert: serving.certPem, key: serving.keyPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: false });
  const https = createHttpsServer(tlsOptions(), secure);
  const port = await listen(https, options.port ?? 0);
  let plain: HttpServer | undefined;
  if (options.readOnlyPort !== undefined) {
    plain = createHttpServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://kubelet');
      // The read-only port serves the default handlers only: never the debugging ones (/containerLogs, /configz).
      const debugging = url.pathname.startsWith('/containerLogs/') || url.pathname === '/configz';
      const status = debugging ? (send(res, 404, '404 page not found\n'), 404) : await serve(url, res);
      requests.push({ path: url.pathname, status });
    });
    readOnlyPort = await listen(plain, options.readOnlyPort);
  }

  const result: SimulatedKubeletRest = {
    port,
    ...(readOnlyPort !== undefined ? { readOnlyPort } : {}),
    certificatePem: serving.certPem,
    fingerprint: certificateFingerprint(serving.certPem),
    clientCa,
    authorizer,
    setAuthorizer(mode) {
      authorizer = mode;
      result.authorizer = mode;
    },
    async replaceServingCertificate() {
      serving = await selfSignedServingCertificate(nodeName);
      https.setSecureContext(tlsOptions());
      result.certificatePem = serving.certPem;
      result.fingerprint = certificateFingerprint(serving.certPem);
    },
    lingering,
    requests,
    stop: async () => {
      const close = (s: HttpServer | HttpsServer) => new Promise<void>((r) => s.close(() => r()).closeAllConnections());
      await Promise.all([close(https), ...(plain ? [close(plain)] : [])]);
    },
  };
  return result;
}
