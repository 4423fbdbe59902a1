import { PROBE_TYPES } from '../../app/contract/node-metrics';
import { formatBytes, formatCpu, type PodMetricsView } from '../../app/pod/view/pod-metrics';

const numa = (nodes: number[]) => (nodes.length ? `NUMA ${nodes.join(',')}` : 'no topology');

/**
 * The pod detail's Resources tab: per container what it uses (CPU, memory), how its probes went, and
 * what it holds (devices with their IDs and NUMA nodes, exclusive CPUs, pinned memory). A part the node
 * does not give says why.
 */
export function PodResourcesView({ containers, metrics }: { containers: string[]; metrics: PodMetricsView }) {
  const { usage, probes, resources } = metrics;
  // Containers the pod spec names, then any the kubelet reports beyond them (init containers).
  const names = [...new Set([...containers, ...('value' in usage ? Object.keys(usage.value.containers) : []), ...('value' in resources ? Object.keys(resources.value) : [])])];
  return (
    <div className="pod-resources">
      {'absent' in usage && <p className="muted small">CPU and memory: {usage.absent}</p>}
      {'absent' in probes && probes.absent !== ('absent' in usage ? usage.absent : '') && <p className="muted small">Probes: {probes.absent}</p>}
      {'absent' in resources && <p className="muted small">Devices: {resources.absent}</p>}
      {'value' in usage && (
        <p>
          <span className="muted">Pod</span> CPU {formatCpu(usage.value.cpuCores)} · memory {formatBytes(usage.value.memoryBytes)}
        </p>
      )}
      {names.map((name) => {
        const u = 'value' in usage ? usage.value.containers[name] : undefined;
        const p = 'value' in probes ? probes.value[name] : undefined;
        const r = 'value' in resources ? resources.value[name] : undefined;
        return (
          <section key={name} className="container-resources" aria-label={`Container ${name} resources`}>
            <h3 className="mono">{name}</h3>
            <dl className="facts">
              {'value' in usage && (
                <>
                  <dt>CPU</dt>
                  <dd>{u ? formatCpu(u.cpuCores) : 'not reported'}</dd>
                  <dt>Memory</dt>
                  <dd>{u ? formatBytes(u.memoryBytes) : 'not reported'}</dd>
                </>
              )}
              {'value' in probes && (
                <>
                  <dt>Probes</dt>
                  <dd>
                    {p && PROBE_TYPES.some((t) => p[t]) ? (
                      <ul className="plain">
                        {PROBE_TYPES.filter((t) => p[t]).map((t) => {
                          const c = p[t]!;
                          return (
                            <li key={t}>
                              {t}: <strong className={c.last === 'failed' ? 'tone-text-bad' : c.last === 'successful' ? 'tone-text-ok' : 'muted'}>{c.last ?? 'last result not known yet'}</strong>{' '}
                              <span className="muted">
                                ({c.successful} ok, {c.failed} failed{c.unknown ? `, ${c.unknown} unknown` : ''})
                              </span>
                            </li>
                          );
                        })}
                      </ul>
                    ) : (
                      'none'
                    )}
                  </dd>
                </>
              )}
              {'value' in resources && (
                <>
                  <dt>Devices</dt>
                  <dd>
                    {r && r.devices.length ? (
                      <ul className="plain">
                        {r.devices.map((d) => (
                          <li key={`${d.resource}/${d.numaNodes.join(',')}`}>
                            <span className="mono">{d.resource}</span> <span className="muted">{numa(d.numaNodes)}</span>
                            <ul className="plain mono small device-ids" aria-label={`${d.resource} device IDs`}>
                              {d.ids.map((id) => (
                                <li key={id}>{id}</li>
                              ))}
                            </ul>
                          </li>
                        ))}
                      </ul>
                    ) : (
                      'none'
                    )}
                  </dd>
                  <dt>Exclusive CPUs</dt>
                  <dd className="mono">{r && r.cpuIds.length ? r.cpuIds.join(', ') : 'none (shared pool)'}</dd>
                  <dt>Memory</dt>
                  <dd>
                    {r && r.memory.length
                      ? r.memory.map((m) => `${m.type} ${formatBytes(m.bytes)} (${numa(m.numaNodes)})`).join('; ')
                      : 'none pinned'}
                  </dd>
                </>
              )}
            </dl>
          </section>
        );
      })}
    </div>
  );
}
