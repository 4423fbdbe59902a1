import type { MutableRefObject, RefObject } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import type { RequestOutput } from '../../app/contract/requests';
import type { useColumnsUi } from '../columns/use-columns-ui';
import type { TableViewsState } from '../columns/use-table-views';
import type { PaletteItem } from '../keys/palette-match';
import { MaskBlindNote } from '../filter/MaskBlindNote';
import { describeNodeState } from '../format/node-state';
import type { AppModel } from '../state/app-model';
import type { WindowDialog } from './DialogHost';
import { FilterBar } from './FilterBar';
import type { LogsRequest } from './logs-key';
import { NodeMetricsBar } from './NodeMetricsBar';
import { NodePods } from './NodePods';
import { NodeStatePanel } from './NodeStatePanel';
import { NodeToolbar } from './NodeToolbar';
import { RecordingScrubber } from './SourceControls';
import type { ActionStatus } from './use-action-status';
import type { PodView } from './use-pod-view';
import type { WindowSelectionView } from './use-window-selection';

/** The node table's columns and saved views (columns/use-columns-ui.tsx). */
export type ColumnsUi = ReturnType<typeof useColumnsUi>;

/** What the window hands its views: the model, the time, the host's abilities, the selection and the pod view. */
export interface WindowViewProps {
  model: AppModel;
  now: number;
  appInfo: RequestOutput<'app.info'> | null;
  hasPods: boolean;
  status: ActionStatus;
  view: PodView;
  columns: ColumnsUi;
  /** The columns and saved views of both tables (the one over several sources keeps its own columns). */
  tableViews: TableViewsState;
  /** The saved views as the : palette offers them over several sources (set by that table as it draws). */
  fleetPaletteViews: MutableRefObject<PaletteItem[]>;
  selection: WindowSelectionView;
  filterRef: RefObject<HTMLInputElement | null>;
  logsRequest: LogsRequest;
  openDialog: (dialog: WindowDialog) => void;
  onEdit: (nodeId: string) => void;
}

/** One node: its toolbar, metrics and time scrubber, the filter, then its pods (or its state while it has none). */
export function NodeView(props: WindowViewProps & { node: NodeInfo }) {
  const { model, node, view, selection, status } = props;
  const state = describeNodeState(node.state, props.now);
  const enterTable = () => {
    const first = view.shownRows()[0];
    if (first) selection.selectPod(selection.selectedUid ?? first.uid);
    document.querySelector<HTMLElement>('.pods-grid')?.focus();
  };
  return (
    <>
      <NodeToolbar
        model={model}
        node={node}
        state={state}
        appInfo={props.appInfo}
        hasPods={props.hasPods}
        status={status}
        onEdit={props.onEdit}
        onCompare={() => props.openDialog('compareSources')}
        onExport={() => props.openDialog('export')}
      />
      <NodeMetricsBar key={`metrics-${node.id}`} node={node} metrics={view.nodeMetrics} />
      <RecordingScrubber key={node.id} bridge={model.bridge} node={node} onError={status.fail} />
      <FilterBar filterRef={props.filterRef} text={view.filterText} filter={view.filter} onChange={view.setFilterText} onEnterTable={enterTable} onHelp={() => props.openDialog('help')} onColumns={() => props.openDialog('columns')}>
        <MaskBlindNote bridge={model.bridge} node={node} filter={view.filter} />
      </FilterBar>
      {node.state.phase !== 'live' && !props.hasPods ? (
        <NodeStatePanel node={node} state={state} onConnect={() => void status.act(() => model.connect(node.id))} />
      ) : (
        <NodePods model={model} node={node} state={state} view={view} columns={props.columns} selection={selection} logsRequest={props.logsRequest} onCompareWith={() => props.openDialog('comparePod')} />
      )}
    </>
  );
}
