import { useCallback, useRef, useState } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import { useColumnsUi } from '../columns/use-columns-ui';
import { useTableViews } from '../columns/use-table-views';
import type { PaletteItem } from '../keys/palette-match';
import type { AppModel } from '../state/app-model';
import { DialogHost, type WindowDialog } from './DialogHost';
import { FollowPods } from './FollowPods';
import { useLogsKey } from './logs-key';
import { NodesSidebar } from './NodesSidebar';
import { UndoToast } from './UndoToast';
import { useActionStatus } from './use-action-status';
import { useAppInfo } from './use-app-info';
import { useAppKeys } from './use-app-keys';
import { useFileDrop } from './use-file-drop';
import { useHasPods, useModelVersion, useNow } from './use-model';
import { usePodView } from './use-pod-view';
import { useWindowSelection } from './use-window-selection';
import { useWindowTitle } from './use-window-title';
import { Workspace } from './Workspace';

/** How long "Removed worker-1 · Undo" stays offered. */
const UNDO_REMOVE_MS = 6000;

/**
 * The window's shell: the sidebar of sources, the workspace, the dialogs and the undo toast, and what
 * ties them (the selection, the keys, files dropped on the window). Every change to the node list goes
 * through the model's actions.
 */
export function App({ model }: { model: AppModel }) {
  // Re-render whenever the model changes; pod batches re-render only the views wrapped in FollowPods.
  useModelVersion(model);
  const now = useNow(1000);
  const appInfo = useAppInfo(model.bridge);
  const selection = useWindowSelection(model);
  const { node, fleet } = selection;
  const view = usePodView(model, node);
  const status = useActionStatus();
  const hasPods = useHasPods(model, node?.id ?? null);
  const [dialog, setDialog] = useState<WindowDialog | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [feedCollapsed, setFeedCollapsed] = useState(false);
  /** The node just removed, while its removal can be undone. */
  const [removed, setRemoved] = useState<NodeInfo | null>(null);
  const tableViews = useTableViews(model.bridge);
  const fleetPaletteViews = useRef<PaletteItem[]>([]);
  const { nodeMetrics } = view;
  const columns = useColumnsUi({
    views: tableViews,
    kind: 'node',
    filterText: view.filterText,
    setFilterText: view.setFilterText,
    order: view.order,
    setOrder: view.setOrder,
    // What the node gives beside its pods, once known; until then only a REST node may give metrics.
    noMetrics: nodeMetrics ? !nodeMetrics.usage.available && !nodeMetrics.probes.available : node?.readFrom !== 'rest',
    closeDialog: () => setDialog(null),
  });
  const filterRef = useRef<HTMLInputElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const logsRequest = useLogsKey(selection.openUid ?? selection.selectedUid, selection.openPod);
  useWindowTitle(node?.label);

  /** Shows what was just added or opened: one source alone, several ticked together. */
  const show = (nodes: readonly NodeInfo[]) => {
    if (nodes.length === 1) selection.selectNode(nodes[0]!.id);
    else if (nodes.length > 1) selection.setChecked(nodes.map((n) => n.id));
  };
  const startDemo = () => status.act(async () => selection.selectNode((await model.startDemo()).id));
  // The first file opened is the one shown.
  const openFiles = (files: File[]) => status.act(async () => show((await model.openFiles(files)).slice(0, 1)));
  const pickFiles = () =>
    status.act(async () => {
      // Electron asks with its own dialog; a browser picks with the page's file input and uploads.
      if (!appInfo?.canOpenFiles) return fileInputRef.current?.click();
      show((await model.pickSources()).slice(0, 1));
    });
  const dismissRemoved = useCallback(() => setRemoved(null), []);
  const drop = useFileDrop((files) => void openFiles(files));

  useAppKeys({
    filterRef,
    filterText: view.filterText,
    setFilterText: view.setFilterText,
    openUid: selection.openUid,
    closePod: selection.closePod,
    selectedUid: selection.selectedUid,
    selectPod: selection.selectPod,
    shownUids: node && !fleet ? () => view.shownRows().map((r) => r.uid) : null,
    sortBy: view.sortBy,
    setDialog,
    canExport: hasPods && !fleet,
    hasNode: node !== undefined,
  });

  return (
    <div className={drop.dragging ? 'app drop-target' : 'app'} {...drop.handlers}>
      <input
        ref={fileInputRef}
        type="file"
        multiple
        hidden
        aria-label="Snapshot or recording files"
        data-testid="open-files-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) void openFiles(files);
        }}
      />
      <FollowPods model={model}>
        {() => (
          <NodesSidebar
            onOpenFiles={() => void pickFiles()}
            nodes={model.nodes}
            selectedId={fleet ? null : (node?.id ?? null)}
            podCount={(id) => model.pods.count(id)}
            onSelect={selection.selectNode}
            checkedIds={selection.checked}
            onToggle={selection.toggleChecked}
            onSelectMany={selection.setChecked}
            onAdd={() => setDialog('addNode')}
            onAddMany={() => setDialog('addMany')}
            onStartDemo={() => void startDemo()}
            onConnect={(id) => void status.act(() => model.connect(id))}
            onDisconnect={(id) => void status.act(() => model.disconnect(id))}
            onRemove={(id) => void status.act(async () => setRemoved((await model.removeNode(id)) ?? null))}
            onEdit={setEditingId}
          />
        )}
      </FollowPods>
      <Workspace
        model={model}
        now={now}
        appInfo={appInfo}
        hasPods={hasPods}
        status={status}
        view={view}
        columns={columns}
        tableViews={tableViews}
        fleetPaletteViews={fleetPaletteViews}
        selection={selection}
        filterRef={filterRef}
        logsRequest={logsRequest}
        feedCollapsed={feedCollapsed}
        onToggleFeed={() => setFeedCollapsed(!feedCollapsed)}
        openDialog={setDialog}
        onEdit={setEditingId}
        onStartDemo={() => void startDemo()}
        onOpenFiles={() => void pickFiles()}
      />
      <DialogHost
        model={model}
        dialog={dialog}
        onClose={() => setDialog(null)}
        editingId={editingId}
        onCloseEdit={() => setEditingId(null)}
        selection={selection}
        view={view}
        columns={columns}
        fleetPaletteViews={fleetPaletteViews}
        onAdded={(added) => {
          setDialog(null);
          show(added);
        }}
        onDone={status.setDone}
      />
      {removed && (
        <UndoToast
          key={removed.id}
          message={`Removed ${removed.label}`}
          timeoutMs={UNDO_REMOVE_MS}
          onUndo={() => {
            setRemoved(null);
            void status.act(async () => selection.selectNode((await model.restoreNode(removed)).id));
          }}
          onDismiss={dismissRemoved}
        />
      )}
    </div>
  );
}
