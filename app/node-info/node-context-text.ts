/**
 * `nodescope node` as text: one line per part (its value, or "not read:" with why and what to do), then
 * the journal's tail and the containers the runtime and the kubelet disagree on.
 */
import { allocatableLines } from './node-allocatable';
import { isRead, type NodeContext, type Part } from './node-context';

const LABEL = 15;

function line<T>(label: string, p: Part<T>, show: (value: T) => string): string[] {
  const head = label.padEnd(LABEL);
  if (!isRead(p)) return [`${head}not read: ${p.error}`, ...(p.nextStep ? [`${' '.repeat(LABEL)}${p.nextStep}`] : [])];
  return [`${head}${show(p.value)}`];
}

export function nodeContextText(c: NodeContext): string {
  const out: string[] = [];
  out.push(...line('KUBELET', c.version, (v) => `${v}${isRead(c.process) ? ` (pid ${c.process.value.pid}, ${c.process.value.binary})` : ''}`));
  if (!isRead(c.process)) out.push(...line('PROCESS', c.process, () => ''));
  out.push(...line('HEALTH', c.health, (h) => `${h.healthy ? 'ok' : `unhealthy: HTTP ${h.status} ${h.body}`} (${isRead(c.health) ? c.health.from : ''})`));
  out.push(...line('CONFIG', c.config, () => (isRead(c.config) ? c.config.from : '')));
  out.push(...line('FEATURE GATES', c.featureGates, (g) => Object.entries(g.gates).map(([k, v]) => `${k}=${v}`).join(', ') || '(none set)'));
  out.push(...line('PODS API', c.featureGates, (g) => `${g.podsApi.enabled === undefined ? 'unknown' : g.podsApi.enabled ? 'on' : 'off'}: ${g.podsApi.why}`));
  out.push(...line('RUNTIME', c.runtime, (r) => [r.name, r.version, r.apiVersion ? `(CRI ${r.apiVersion})` : undefined, r.endpoint ? `at ${r.endpoint}` : undefined].filter(Boolean).join(' ')));
  out.push(...line('UNIT', c.journal, (j) => `${j.unit.unit} (${[j.unit.activeState, j.unit.subState].filter(Boolean).join('/') || j.unit.loadState})`));
  out.push(...line('CONTAINERS', c.containers, (d) =>
    `runtime ${d.runtimeContainers}, kubelet ${d.kubeletContainers}; ${d.runtimeOnly.length} only in the runtime, ${d.kubeletOnly.length} only in the kubelet's pods`));
  if (isRead(c.containers)) {
    for (const r of c.containers.value.runtimeOnly) {
      const pod = r.podUid ? `pod ${r.podNamespace ?? '?'}/${r.podName ?? '?'} (${r.podUid})` : 'no pod labels';
      out.push(`  runtime only: ${[r.id.slice(0, 13), r.name, r.state, pod].filter(Boolean).join(' ')}`);
    }
    for (const k of c.containers.value.kubeletOnly) out.push(`  kubelet only: ${k.id.slice(0, 13)} ${k.container} in pod ${k.podNamespace}/${k.podName} (${k.podUid})`);
  }
  out.push(...line('ALLOCATABLE', c.allocatable, (a) => `${allocatableLines(a).cpus} (${isRead(c.allocatable) ? c.allocatable.from : ''})`));
  if (isRead(c.allocatable)) {
    const a = allocatableLines(c.allocatable.value);
    for (const m of a.memory) out.push(`  memory: ${m}`);
    for (const d of a.devices) out.push(`  device: ${d}`);
  }
  if (isRead(c.journal)) {
    out.push('', `JOURNAL (journalctl -u ${c.journal.value.unit.unit}, last ${c.journal.value.lines.length} lines)`);
    for (const l of c.journal.value.lines) out.push(l.time ? `${l.time} ${l.identifier}${l.pid ? `[${l.pid}]` : ''}: ${l.message}` : l.message);
  }
  return out.join('\n');
}
