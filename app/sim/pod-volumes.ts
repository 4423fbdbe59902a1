// A generated pod's volumes, by workload kind and template, and where its main container mounts them.
import type { PodObject } from '../pod/pod-tree';
import type { Prng } from './prng';
import type { Workload } from './workload';

const kubeRootCa = { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' };

export function podVolumes(w: Workload, podName: string, tpl: Prng, apiAccess: string | undefined): PodObject[] {
  const volumes: PodObject[] = [];
  if (w.kind === 'Static') {
    const dirs: [string, string, string][] =
      w.app.name === 'etcd'
        ? [['etcd-certs', '/etc/kubernetes/pki/etcd', 'DirectoryOrCreate'], ['etcd-data', '/var/lib/etcd', 'DirectoryOrCreate']]
        : [['k8s-certs', '/etc/kubernetes/pki', 'DirectoryOrCreate'], ['kubeconfig', `/etc/kubernetes/${w.app.name.replace('kube-', '')}.conf`, 'FileOrCreate']];
    for (const [name, path, type] of dirs) volumes.push({ hostPath: { path, type }, name });
    return volumes;
  }
  if (w.kind === 'DaemonSet') {
    volumes.push({ hostPath: { path: '/var/log', type: '' }, name: 'varlog' });
    volumes.push({ hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' }, name: 'xtables-lock' });
    volumes.push({ hostPath: { path: '/lib/modules', type: '' }, name: 'lib-modules' });
  }
  if (tpl.chance(0.6)) {
    volumes.push({ configMap: { defaultMode: 420, name: `${w.name}-config` }, name: 'config' });
  }
  if (tpl.chance(0.3)) {
    volumes.push({ name: 'tls', secret: { defaultMode: 420, secretName: `${w.name}-tls` } });
  }
  if (tpl.chance(0.4)) {
    volumes.push({ emptyDir: tpl.chance(0.5) ? {} : { medium: 'Memory', sizeLimit: '64Mi' }, name: 'tmp' });
  }
  if (w.kind === 'StatefulSet') {
    volumes.push({ name: 'data', persistentVolumeClaim: { claimName: `data-${podName}` } });
  }
  if (tpl.chance(0.1)) {
    volumes.push({
      downwardAPI: { defaultMode: 420, items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' }, path: 'labels' }] },
      name: 'podinfo',
    });
  }
  if (apiAccess !== undefined) {
    volumes.push({
      name: apiAccess,
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: kubeRootCa },
          { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
        ],
      },
    });
  }
  return volumes;
}

/** Mount points for the main container; the service-account token, if any, comes last. */
export function mainMounts(volumes: PodObject[], w: Workload): PodObject[] {
  const paths: Record<string, string> = {
    config: '/etc/app',
    tls: '/etc/tls',
    tmp: '/tmp',
    data: `/var/lib/${w.app.name}`,
    podinfo: '/etc/podinfo',
    varlog: '/var/log',
    'xtables-lock': '/run/xtables.lock',
    'lib-modules': '/lib/modules',
  };
  return volumes.map((v) => {
    const name = v.name as string;
    if (name.startsWith('kube-api-access-')) {
      return { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name, readOnly: true };
    }
    const hostPath = v.hostPath as PodObject | undefined;
    const mountPath = paths[name] ?? (hostPath?.path as string);
    const readOnly = name === 'config' || name === 'tls' || name === 'lib-modules' || name.endsWith('certs');
    return readOnly ? { mountPath, name, readOnly: true } : { mountPath, name };
  });
}
