// What the simulated node runs: the applications, namespaces and names pods are made from.
// Plain data, kept apart from the assembly logic in pod-generator.ts.

export type ProbeKind = 'httpGet' | 'exec' | 'tcpSocket' | 'grpc';

export interface AppPort {
  name: string;
  containerPort: number;
  protocol?: 'TCP' | 'UDP';
}

export interface AppTemplate {
  /** Container name and the base of workload names. */
  name: string;
  image: string;
  ports: AppPort[];
  /** Probe handlers to choose from for liveness/readiness. */
  probes: ProbeKind[];
  command?: string[];
  args?: string[];
  /** cpu request in millicores and memory request in Mi; limits derived from them. */
  cpuMilli: number;
  memoryMi: number;
}

export const deploymentApps: AppTemplate[] = [
  { name: 'nginx', image: 'registry.example.internal/library/nginx:1.27.4', ports: [{ name: 'http', containerPort: 80 }], probes: ['httpGet', 'tcpSocket'], cpuMilli: 50, memoryMi: 64 },
  { name: 'api', image: 'registry.example.internal/acme/orders-api:v2.14.1', ports: [{ name: 'http', containerPort: 8080 }, { name: 'metrics', containerPort: 9090 }], probes: ['httpGet', 'grpc'], args: ['--listen=:8080', '--metrics=:9090'], cpuMilli: 250, memoryMi: 256 },
  { name: 'frontend', image: 'registry.example.internal/acme/storefront:3.8.0', ports: [{ name: 'http', containerPort: 3000 }], probes: ['httpGet'], cpuMilli: 100, memoryMi: 128 },
  { name: 'worker', image: 'registry.example.internal/acme/queue-worker:1.9.3', ports: [], probes: ['exec'], command: ['/app/worker'], args: ['--concurrency=8'], cpuMilli: 500, memoryMi: 512 },
  { name: 'grpc-gateway', image: 'registry.example.internal/acme/gateway:0.31.2', ports: [{ name: 'grpc', containerPort: 50051 }], probes: ['grpc', 'tcpSocket'], cpuMilli: 200, memoryMi: 128 },
  { name: 'coredns', image: 'registry.example.internal/coredns/coredns:v1.13.1', ports: [{ name: 'dns', containerPort: 53, protocol: 'UDP' }, { name: 'dns-tcp', containerPort: 53 }, { name: 'metrics', containerPort: 9153 }], probes: ['httpGet'], args: ['-conf', '/etc/coredns/Corefile'], cpuMilli: 100, memoryMi: 70 },
  { name: 'metrics-server', image: 'registry.example.internal/metrics-server/metrics-server:v0.8.0', ports: [{ name: 'https', containerPort: 10250 }], probes: ['httpGet'], args: ['--cert-dir=/tmp', '--secure-port=10250', '--kubelet-use-node-status-port'], cpuMilli: 100, memoryMi: 200 },
];

export const daemonSetApps: AppTemplate[] = [
  { name: 'kube-proxy', image: 'registry.example.internal/kube-proxy:v1.35.0', ports: [], probes: [], command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'], cpuMilli: 0, memoryMi: 0 },
  { name: 'node-exporter', image: 'registry.example.internal/prometheus/node-exporter:v1.9.1', ports: [{ name: 'metrics', containerPort: 9100 }], probes: ['httpGet'], args: ['--path.rootfs=/host'], cpuMilli: 10, memoryMi: 32 },
  { name: 'fluent-bit', image: 'cr.fluentbit.io/fluent/fluent-bit:4.0.3', ports: [{ name: 'http', containerPort: 2020 }], probes: ['httpGet'], cpuMilli: 50, memoryMi: 100 },
  { name: 'kindnet-cni', image: 'registry.example.internal/kindest/kindnetd:v20250512-df8de77b', ports: [], probes: [], cpuMilli: 100, memoryMi: 50 },
];

export const statefulApps: AppTemplate[] = [
  { name: 'postgres', image: 'registry.example.internal/library/postgres:17.5', ports: [{ name: 'postgres', containerPort: 5432 }], probes: ['exec', 'tcpSocket'], cpuMilli: 500, memoryMi: 1024 },
  { name: 'redis', image: 'registry.example.internal/library/redis:7.4.2', ports: [{ name: 'redis', containerPort: 6379 }], probes: ['tcpSocket', 'exec'], args: ['--appendonly', 'yes'], cpuMilli: 100, memoryMi: 256 },
  { name: 'kafka', image: 'registry.example.internal/apache/kafka:4.0.0', ports: [{ name: 'broker', containerPort: 9092 }, { name: 'controller', containerPort: 9093 }], probes: ['tcpSocket'], cpuMilli: 1000, memoryMi: 2048 },
  { name: 'prometheus', image: 'registry.example.internal/prometheus/prometheus:v3.4.1', ports: [{ name: 'web', containerPort: 9090 }], probes: ['httpGet'], args: ['--storage.tsdb.retention.time=15d', '--config.file=/etc/prometheus/prometheus.yml'], cpuMilli: 200, memoryMi: 400 },
];

export const jobApps: AppTemplate[] = [
  { name: 'migrate', image: 'registry.example.internal/acme/db-migrate:2024.11.3', ports: [], probes: [], command: ['/bin/sh', '-c', 'migrate -path /migrations -database "$DATABASE_URL" up && echo done > /tmp/result'], cpuMilli: 100, memoryMi: 128 },
  { name: 'backup', image: 'registry.example.internal/library/postgres:17.5', ports: [], probes: [], command: ['/bin/sh', '-c', 'pg_dump -Fc "$PGDATABASE" > /backup/$(date +%s).dump'], cpuMilli: 200, memoryMi: 256 },
  { name: 'report', image: 'registry.example.internal/library/python:3.13-slim', ports: [], probes: [], command: ['python', '-c', 'import report; report.main()'], cpuMilli: 250, memoryMi: 512 },
];

/** Sidecars run as init containers with restartPolicy Always (Kubernetes 1.29+). */
export const sidecarApps: AppTemplate[] = [
  { name: 'istio-proxy', image: 'registry.example.internal/istio/proxyv2:1.26.2', ports: [{ name: 'http-envoy-prom', containerPort: 15090 }], probes: ['httpGet'], args: ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local'], cpuMilli: 100, memoryMi: 128 },
  { name: 'log-shipper', image: 'registry.example.internal/timberio/vector:0.47.0-distroless-libc', ports: [], probes: [], cpuMilli: 20, memoryMi: 64 },
];

export const initApps: AppTemplate[] = [
  { name: 'wait-for-db', image: 'registry.example.internal/library/busybox:1.37', ports: [], probes: [], command: ['sh', '-c', 'until nc -z db 5432; do echo waiting; sleep 2; done'], cpuMilli: 10, memoryMi: 16 },
  { name: 'init-config', image: 'registry.example.internal/library/alpine:3.22.1', ports: [], probes: [], command: ['sh', '-c', 'cp /templates/* /config/ && chmod 0644 /config/*'], cpuMilli: 10, memoryMi: 16 },
];

/** Control-plane static pods; each runs once per node. */
export interface StaticApp extends AppTemplate {
  component: string;
}

export const staticApps: StaticApp[] = [
  { component: 'etcd', name: 'etcd', image: 'registry.example.internal/etcd:3.6.5-0', ports: [], probes: ['httpGet'], command: ['etcd', '--data-dir=/var/lib/etcd', '--listen-client-urls=https://127.0.0.1:2379', '--snapshot-count=10000'], cpuMilli: 100, memoryMi: 100 },
  { component: 'kube-apiserver', name: 'kube-apiserver', image: 'registry.example.internal/kube-apiserver:v1.35.0', ports: [], probes: ['httpGet'], command: ['kube-apiserver', '--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction', '--secure-port=6443', '--service-cluster-ip-range=10.96.0.0/16'], cpuMilli: 250, memoryMi: 0 },
  { component: 'kube-controller-manager', name: 'kube-controller-manager', image: 'registry.example.internal/kube-controller-manager:v1.35.0', ports: [], probes: ['httpGet'], command: ['kube-controller-manager', '--leader-elect=true', '--use-service-account-credentials=true'], cpuMilli: 200, memoryMi: 0 },
  { component: 'kube-scheduler', name: 'kube-scheduler', image: 'registry.example.internal/kube-scheduler:v1.35.0', ports: [], probes: ['httpGet'], command: ['kube-scheduler', '--bind-address=127.0.0.1', '--leader-elect=true'], cpuMilli: 100, memoryMi: 0 },
];

export const debugImages = ['registry.example.internal/library/busybox:1.37', 'registry.example.internal/nicolaka/netshoot:v0.14'];

export const namespaces = ['default', 'shop', 'payments', 'search', 'analytics', 'platform', 'team-a', 'team-b', 'staging', 'monitoring'];
export const systemNamespace = 'kube-system';

export const namePrefixes = ['orders', 'cart', 'checkout', 'catalog', 'users', 'billing', 'search', 'ledger', 'inventory', 'notify', 'auth', 'media', 'pricing', 'reco'];

export const teams = ['core', 'growth', 'data', 'sre', 'payments', 'mobile'];
export const environments = ['prod', 'staging', 'dev'];
