import type { NodeInfo } from '../../app/contract/nodes';
import type { describeNodeState } from '../format/node-state';
import type { AppModel } from '../state/app-model';
import { FollowPods } from './FollowPods';
import type { LogsRequest } from './logs-key';
import { PodDetail } from './PodDetail';
import { ConfiguredPodsTable } from '../columns/ConfiguredPodsTable';
import type { ColumnsUi } from './NodeView';
import type { PodView } from './use-pod-view';
import type { WindowSelectionView } from './use-window-selection';

/** A node's pods: notes on what is not shown or not current, the table, and the open pod beside it. */
export function NodePods(props: {
  model: AppModel;
  node: NodeInfo;
  state: ReturnType<typeof describeNodeState>;
  view: PodView;
  columns: ColumnsUi;
  selection: WindowSelectionView;
  logsRequest: LogsRequest;
  onCompareWith: () => void;
}) {
  const { model, node, state, view, selection } = props;
  const { openUid } = selection;
  return (
    <div className={openUid ? 'content split' : 'content'}>
      {(node.state.phase === 'live' || node.state.phase === 'offline') && node.state.leftOut && (
        <div className="left-out-note" role="alert">
          <strong>{node.state.leftOut.length === 1 ? '1 pod is not shown' : `${node.state.leftOut.length} pods are not shown`}</strong>
          <ul>
            {node.state.leftOut.map((why) => (
              <li key={why}>{why}</li>
            ))}
          </ul>
        </div>
      )}
      {node.state.phase === 'offline' ? (
        <div className="stale-note">
          Offline, read-only: {state.title}, from {node.state.origin}. Not the live node.
        </div>
      ) : (
        node.state.phase !== 'live' && <div className="stale-note">{state.title}: these pods are as last seen and may have changed.</div>
      )}
      <FollowPods model={model}>
        {() => (
          <ConfiguredPodsTable
            model={model}
            node={node}
            layout={props.columns.layout}
            rows={view.shownRows()}
            order={view.order}
            onSort={view.sortBy}
            selectedUid={selection.selectedUid}
            onSelect={selection.selectPod}
            onOpen={selection.openPod}
            filter={view.filter}
            metricsOf={view.metricsOf}
            noMetrics={props.columns.noMetrics}
            manySources={false}
          />
        )}
      </FollowPods>
      {openUid && (
        <FollowPods model={model}>
          {() => (
            <PodDetail
              bridge={model.bridge}
              nodeId={node.id}
              uid={openUid}
              row={model.pods.get(node.id, openUid)}
              metrics={view.metricsOf(model.pods.get(node.id, openUid) ?? { uid: openUid, namespace: '', name: '' })}
              onClose={selection.closePod}
              onCompareWith={props.onCompareWith}
              logsRequest={props.logsRequest?.uid === openUid ? props.logsRequest.n : 0}
              live={!view.offline}
              rowsOnly={node.rowsOnly === true}
            />
          )}
        </FollowPods>
      )}
    </div>
  );
}
