import { useState } from 'react';
import type { NodeMetrics, ResourceLine } from '../../app/contract/node-metrics';
import type { NodeInfo } from '../../app/contract/nodes';
import { formatBytes, formatCpu } from '../../app/pod/view/pod-metrics';
import { timeText, timeTitle } from '../format/time-text';

const API_NAMES = { shipped: 'Pods API', documented: 'Pods API (documented shape)', rest: 'REST API' } as const;

const SSH_CLIENT_NAMES = { openssh: 'OpenSSH', builtin: 'built-in SSH' } as const;
const SSH_CLIENT_TITLES = {
  openssh: 'Reached with your own ssh: every ssh_config setting holds (ProxyCommand, certificates, ControlMaster)',
  builtin: "Reached with Nodescope's built-in SSH client",
} as const;

/** Which kubelet API the node is read from (and over which SSH client), for the header and the sidebar. */
export function ApiTag({ node }: { node: NodeInfo }) {
  if (!node.readFrom) return null;
  const rest = node.readFrom === 'rest';
  return (
    <span
      className={`tag${rest ? ' tag-rest' : ''}`}
      title={rest ? "Read from the kubelet's HTTPS API (/pods polled): CPU, memory and probes come with it" : "Read from the kubelet's Pods API socket (gRPC watch)"}
    >
      {API_NAMES[node.readFrom]}
      {node.sshClient && <span title={SSH_CLIENT_TITLES[node.sshClient]}>{` · ${SSH_CLIENT_NAMES[node.sshClient]}`}</span>}
    </span>
  );
}

function lineText(l: ResourceLine): string {
  const amount = (n: number) => (l.unit === 'bytes' ? formatBytes(n) : String(n));
  return `${amount(l.taken)} of ${amount(l.allocatable)} taken`;
}

/**
 * The node's totals under the toolbar: CPU and memory in use, what PodResources says is allocatable and
 * taken, and the pods the container runtime runs that the kubelet does not list (or the other way).
 */
export function NodeMetricsBar({ node, metrics }: { node: NodeInfo; metrics: NodeMetrics | undefined }) {
  const [showRuntime, setShowRuntime] = useState(false);
  if (node.state.phase === 'offline' || !metrics) return null;
  const { usage, resources, runtime } = metrics;
  const differences = runtime.available ? runtime.runtimeOnly.length + runtime.notRunning.length : 0;
  if (!usage.available && !resources.available && !runtime.available) {
    // Nothing to total (a node read through the Pods API, without PodResources): one line says why.
    return (
      <div className="node-metrics muted" role="region" aria-label="Node usage and resources">
        <span title={resources.reason}>No CPU, memory, probes or devices: {usage.reason}</span>
      </div>
    );
  }
  return (
    <div className="node-metrics" role="region" aria-label="Node usage and resources">
      {usage.available ? (
        <span className="metric" aria-label="Node CPU and memory">
          <span className="muted">CPU</span> {formatCpu(usage.node.cpuCores)} <span className="muted">Memory</span> {formatBytes(usage.node.memoryBytes)}
        </span>
      ) : (
        <span className="metric muted" title={usage.reason}>
          CPU and memory n/a
        </span>
      )}
      {resources.available ? (
        resources.node
          .filter((l) => l.allocatable > 0 || l.taken > 0)
          .map((l) => (
            <span key={l.resource} className="metric" title={`${l.resource}: ${lineText(l)} (PodResources API)`}>
              <span className="muted mono">{l.resource}</span> {l.unit === 'bytes' ? `${formatBytes(l.taken)}/${formatBytes(l.allocatable)}` : `${l.taken}/${l.allocatable}`}
            </span>
          ))
      ) : (
        <span className="metric muted" title={resources.reason}>
          devices n/a
        </span>
      )}
      {runtime.available ? (
        <button type="button" className={`link-button metric${differences ? ' tone-text-bad' : ''}`} aria-expanded={showRuntime} onClick={() => setShowRuntime(!showRuntime)}>
          {differences ? `Runtime and kubelet differ: ${differences} pod${differences === 1 ? '' : 's'}` : 'Runtime and kubelet agree'}
        </button>
      ) : (
        <span className="metric muted" title={runtime.reason}>
          runtime check n/a
        </span>
      )}
      <span className="muted small" title={timeTitle(metrics.at)}>
        read {timeText(metrics.at)}
      </span>
      {showRuntime && runtime.available && (
        <section className="runtime-difference" aria-label="Runtime against kubelet">
          <p className="muted small">
            /runningpods/ (what the container runtime runs) against /pods (what the kubelet manages). A pod the runtime still runs that the kubelet no longer lists is a stuck teardown or a kubelet that lost track.
          </p>
          <h3>Run by the runtime, not listed by the kubelet ({runtime.runtimeOnly.length})</h3>
          {runtime.runtimeOnly.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <ul className="mono small">
              {runtime.runtimeOnly.map((p) => (
                <li key={p.uid}>
                  {p.namespace}/{p.name} <span className="muted">uid {p.uid} · containers {p.containers.join(', ') || '—'}</span>
                </li>
              ))}
            </ul>
          )}
          <h3>Listed Running by the kubelet, not run by the runtime ({runtime.notRunning.length})</h3>
          {runtime.notRunning.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <ul className="mono small">
              {runtime.notRunning.map((p) => (
                <li key={p.uid}>
                  {p.namespace}/{p.name} <span className="muted">uid {p.uid}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
