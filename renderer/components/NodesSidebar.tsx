import type { NodeInfo } from '../../app/contract/nodes';
import { describeNodeState } from '../format/node-state';
import { useNow } from './use-model';
import { useNodeAnnouncement } from './use-node-announcement';

interface Props {
  nodes: readonly NodeInfo[];
  selectedId: string | null;
  podCount: (nodeId: string) => number;
  onSelect: (nodeId: string) => void;
  onAdd: () => void;
  onStartDemo: () => void;
  onConnect: (nodeId: string) => void;
  onDisconnect: (nodeId: string) => void;
  onRemove: (nodeId: string) => void;
  onOpenFiles: () => void;
}

/** user@host:port via jump, socket, sudo: how the node is reached (or which file), for the tooltip. */
function describeSpec(node: NodeInfo): string {
  const s = node.spec;
  if (s.kind === 'demo') return 'Simulated kubelet running inside Nodescope';
  if (s.kind === 'unix') return `Pods API socket on this machine: ${s.socketPath}`;
  if (s.kind === 'snapshot' || s.kind === 'recording') return `${s.kind === 'snapshot' ? 'Snapshot' : 'Recording'} file ${s.file}, read-only`;
  const target = `${s.user ? `${s.user}@` : ''}${s.host}${s.port ? `:${s.port}` : ''}`;
  return [target, s.jumpHost && `via ${s.jumpHost}`, s.socketPath, s.sudo && 'with sudo'].filter(Boolean).join(' · ');
}

export function NodesSidebar(props: Props) {
  const now = useNow(1000);
  const hasDemo = props.nodes.some((n) => n.simulated);
  const announcement = useNodeAnnouncement(props.nodes);
  return (
    <nav className="sidebar" aria-label="Nodes">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Nodescope</span>
      </div>
      <div className="sidebar-section-title">
        <span>Nodes</span>
        <button type="button" className="icon-button" aria-label="Add node" title="Add node" onClick={props.onAdd}>
          +
        </button>
      </div>
      <ul className="node-list" role="list">
        {props.nodes.map((node) => {
          const state = describeNodeState(node.state, now);
          const selected = node.id === props.selectedId;
          const active = node.state.phase !== 'disconnected' && node.state.phase !== 'error';
          return (
            <li key={node.id} className={selected ? 'node-item selected' : 'node-item'}>
              <button
                type="button"
                className="node-main"
                aria-current={selected ? 'true' : undefined}
                aria-label={`Node ${node.label}: ${state.title}`}
                title={describeSpec(node)}
                data-testid={`node-${node.id}`}
                onClick={() => props.onSelect(node.id)}
              >
                <span className={`dot tone-${state.tone}`} aria-hidden="true" />
                <span className="node-text">
                  <span className="node-label">
                    <span className="node-label-text">{node.label}</span>
                  </span>
                  <span className={`node-state tone-text-${state.tone}`}>
                    {state.title}
                    {(node.state.phase === 'live' || node.state.phase === 'catchingUp' || node.state.phase === 'offline') && ` · ${props.podCount(node.id)} pods`}
                    {node.state.phase === 'offline' && <span className="tag tag-offline">offline</span>}
                    {node.simulated && <span className="tag tag-sim">simulated</span>}
                  </span>
                  {state.detail && <span className="node-detail">{state.detail}</span>}
                </span>
              </button>
              <span className="node-actions">
                {node.state.phase === 'offline' ? null : active ? (
                  <button type="button" className="icon-button" aria-label={`Disconnect ${node.label}`} title="Disconnect" onClick={() => props.onDisconnect(node.id)}>
                    ⏏
                  </button>
                ) : (
                  <button type="button" className="icon-button" aria-label={`Connect ${node.label}`} title="Connect" onClick={() => props.onConnect(node.id)}>
                    ↻
                  </button>
                )}
                <button type="button" className="icon-button" aria-label={`Remove ${node.label}`} title="Remove" onClick={() => props.onRemove(node.id)}>
                  ✕
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <div className="sr-only" role="status">
        <span key={announcement.serial}>{announcement.text}</span>
      </div>
      <div className="sidebar-foot">
        <button type="button" className="button primary" onClick={props.onAdd}>
          Add node…
        </button>
        <button type="button" className="button" onClick={props.onOpenFiles} title="Open a snapshot or recording file (or drop one on the window)">
          Open snapshot…
        </button>
        {!hasDemo && (
          <button type="button" className="button" onClick={props.onStartDemo}>
            Start demo node
          </button>
        )}
      </div>
    </nav>
  );
}
