import type { RequestOutput } from '../../app/contract/requests';
import type { NodeInfo } from '../../app/contract/nodes';
import type { AppModel } from '../state/app-model';
import type { describeNodeState } from '../format/node-state';
import { EditNodeButton } from './EditNodeDialog';
import { MaskBox } from './MaskBox';
import { NodeInfoButton } from './NodeInfoPanel';
import { ApiTag } from './NodeMetricsBar';
import { OfflineTag, RecordButton } from './SourceControls';
import type { ActionStatus } from './use-action-status';

/** Above a node's pods: its name and state, and what can be done with it (mask, record, edit, compare, export). */
export function NodeToolbar(props: {
  model: AppModel;
  node: NodeInfo;
  state: ReturnType<typeof describeNodeState>;
  appInfo: RequestOutput<'app.info'> | null;
  hasPods: boolean;
  status: ActionStatus;
  onEdit: (nodeId: string) => void;
  onCompare: () => void;
  onExport: () => void;
}) {
  const { node, state, appInfo } = props;
  const bridge = props.model.bridge;
  return (
    <header className="toolbar">
      <div className="node-heading">
        <h1 title={node.label}>{node.label}</h1>
        {node.simulated && <span className="tag tag-sim">simulated kubelet</span>}
        <OfflineTag node={node} />
        <ApiTag node={node} />
        <span className={`pill tone-${state.tone}`} aria-label={`Node state: ${state.title}`}>
          {node.state.phase === 'error' ? 'Error' : state.title}
        </span>
        {node.historyTrimmed && (
          <span className="tag" title="Older pod versions were dropped to stay within the history limits">
            history trimmed
          </span>
        )}
        {node.rowsOnly && (
          <span
            className="tag"
            title={'More nodes are open than "Keep rows only above" in Settings: this node keeps what the table shows of its pods, and a pod you open is read from the node then. No pod history is kept.'}
          >
            rows only
          </span>
        )}
        {node.recordingTo && (
          <span className="tag tone-text-bad" title={node.recordingTo}>
            ● recording
          </span>
        )}
      </div>
      {/* One group: short of room it goes to a line of its own whole, not a button at a time. */}
      <div className="toolbar-actions">
        <MaskBox bridge={bridge} node={node} />
        {appInfo && (
          <RecordButton
            key={node.id}
            bridge={bridge}
            node={node}
            canPickFiles={appInfo.canPickFiles}
            defaultDir={appInfo.defaultExportDir}
            onError={props.status.fail}
            onDone={props.status.setDone}
          />
        )}
        {node.state.phase !== 'offline' && <NodeInfoButton key={`info-${node.id}`} bridge={bridge} node={node} />}
        <EditNodeButton node={node} onEdit={props.onEdit} />
        <button type="button" className="button" onClick={props.onCompare} title="Compare two sources: nodes, snapshots, a recording at two instants">
          Compare…
        </button>
        <button type="button" className="button" onClick={props.onExport} disabled={!props.hasPods}>
          Export…
        </button>
      </div>
    </header>
  );
}
