// A generated container: image, command, env, ports, probes, resources and security context, all drawn from
// the workload's template stream so every replica has the same containers.
import type { PodObject, PodValue } from '../pod/pod-tree';
import { containerResources } from './container-resources';
import type { AppTemplate, ProbeKind } from './pod-catalog';
import type { Prng } from './prng';
import type { Workload } from './workload';

export function podContainer(app: AppTemplate, tpl: Prng, w: Workload, volumeMounts: PodObject[], main: boolean): PodObject {
  const c: PodObject = { image: app.image, imagePullPolicy: tpl.chance(0.8) ? 'IfNotPresent' : 'Always', name: app.name };
  if (app.command) c.command = [...app.command];
  if (app.args) c.args = [...app.args];
  if (main && w.kind !== 'Static') c.env = containerEnv(app, w, tpl);
  if (main && tpl.chance(0.15)) c.envFrom = [{ configMapRef: { name: `${w.name}-env` } }];
  if (app.ports.length > 0) {
    c.ports = app.ports.map((p) => ({ containerPort: p.containerPort, name: p.name, protocol: p.protocol ?? 'TCP' }));
  }
  if (app.probes.length > 0) {
    c.livenessProbe = probe(tpl.pick(app.probes), app, tpl, w, 'liveness');
    if (w.kind !== 'Static') c.readinessProbe = probe(tpl.pick(app.probes), app, tpl, w, 'readiness');
    if (w.kind === 'Static' || tpl.chance(0.2)) c.startupProbe = probe(tpl.pick(app.probes), app, tpl, w, 'startup');
  }
  c.resources = containerResources(app, tpl);
  c.securityContext = containerSecurity(w, tpl);
  c.terminationMessagePath = '/dev/termination-log';
  c.terminationMessagePolicy = tpl.chance(0.8) ? 'File' : 'FallbackToLogsOnError';
  if (volumeMounts.length > 0) c.volumeMounts = volumeMounts.map((m) => ({ ...m }));
  return c;
}

function containerEnv(app: AppTemplate, w: Workload, tpl: Prng): PodObject[] {
  const field = (name: string, fieldPath: string): PodObject => ({ name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } });
  const env: PodObject[] = [field('POD_NAME', 'metadata.name'), field('POD_NAMESPACE', 'metadata.namespace')];
  if (w.kind === 'DaemonSet') env.push(field('NODE_NAME', 'spec.nodeName'));
  if (tpl.chance(0.5)) env.push(field('POD_IP', 'status.podIP'));
  env.push({ name: 'LOG_LEVEL', value: tpl.pick(['info', 'debug', 'warn']) });
  if (tpl.chance(0.4)) env.push({ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { key: 'password', name: `${w.name}-db` } } });
  if (tpl.chance(0.3)) env.push({ name: 'FEATURE_FLAGS', valueFrom: { configMapKeyRef: { key: 'flags', name: `${w.name}-flags`, optional: true } } });
  if (app.memoryMi > 0 && tpl.chance(0.3)) {
    env.push({ name: 'GOMEMLIMIT', valueFrom: { resourceFieldRef: { containerName: app.name, divisor: '1', resource: 'limits.memory' } } });
  }
  return env;
}

function probe(kind: ProbeKind, app: AppTemplate, tpl: Prng, w: Workload, purpose: string): PodObject {
  const port = app.ports[0];
  // IntOrString ports: named ports and numbers both occur on real pods.
  const portValue: PodValue = port && tpl.chance(0.5) ? port.name : (port?.containerPort ?? 8080);
  const probe: PodObject = { failureThreshold: purpose === 'startup' ? 24 : 3 };
  switch (kind) {
    case 'httpGet': {
      const get: PodObject = { path: purpose === 'readiness' ? '/ready' : '/healthz', port: portValue, scheme: 'HTTP' };
      if (w.kind === 'Static') {
        get.host = '127.0.0.1';
        get.port = w.app.name === 'etcd' ? 2381 : w.app.name === 'kube-apiserver' ? 6443 : 10259;
        get.scheme = w.app.name === 'etcd' ? 'HTTP' : 'HTTPS';
        get.path = w.app.name === 'etcd' ? '/health?exclude=NOSPACE&serializable=true' : purpose === 'readiness' ? '/readyz' : '/livez';
      }
      probe.httpGet = get;
      break;
    }
    case 'exec':
      probe.exec = { command: app.name === 'postgres' ? ['pg_isready', '-U', 'postgres'] : app.name === 'redis' ? ['redis-cli', 'ping'] : ['/bin/sh', '-c', 'test -f /tmp/healthy'] };
      break;
    case 'tcpSocket':
      probe.tcpSocket = { port: portValue };
      break;
    case 'grpc':
      probe.grpc = tpl.chance(0.5) ? { port: port?.containerPort ?? 50051, service: purpose } : { port: port?.containerPort ?? 50051 };
      break;
  }
  if (purpose === 'liveness' && tpl.chance(0.5)) probe.initialDelaySeconds = tpl.pick([5, 10, 15, 30, 60]);
  probe.periodSeconds = tpl.pick([5, 10, 10, 20]);
  probe.successThreshold = 1;
  probe.timeoutSeconds = tpl.pick([1, 1, 3, 5, 15]);
  return probe;
}

function containerSecurity(w: Workload, tpl: Prng): PodObject {
  if (w.kind === 'DaemonSet') {
    return tpl.chance(0.5) ? { privileged: true } : { capabilities: { add: ['NET_RAW', 'NET_ADMIN'] }, privileged: false };
  }
  if (w.kind === 'Static' || tpl.chance(0.3)) return {};
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    readOnlyRootFilesystem: tpl.chance(0.6),
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  };
}
