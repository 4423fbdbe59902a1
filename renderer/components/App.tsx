import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import type { RequestOutput } from '../../app/contract/requests';
import type { FeedLine } from '../../app/contract/pods';
import { parseFilter } from '../filter/filter-language';
import { DESCENDING_FIRST, type SortKey, type SortOrder } from '../filter/sort-rows';
import { podMetricsLookup } from '../state/pod-metrics';
import { ApiTag, NodeMetricsBar } from './NodeMetricsBar';
import { errorText } from '../format/error-text';
import { describeNodeState } from '../format/node-state';
import type { AppModel } from '../state/app-model';
import { restoreNode } from '../state/restore-node';
import { openFiles } from '../bridge/open-files';
import { AddManyDialog } from './AddManyDialog';
import { AddNodeDialog } from './AddNodeDialog';
import { CommandPalette } from './CommandPalette';
import { ComparePodsDialog } from './ComparePodsDialog';
import { CompareSourcesDialog } from './CompareSourcesDialog';
import { EventsFeed } from './EventsFeed';
import { EditNodeButton, EditNodeDialog } from './EditNodeDialog';
import { ExportDialog } from './ExportDialog';
import { FleetView } from './FleetView';
import { FollowPods } from './FollowPods';
import { HelpPanel } from './HelpPanel';
import { MaskBox } from './MaskBox';
import { NodesSidebar } from './NodesSidebar';
import { PodDetail } from './PodDetail';
import { useLogsKey } from './logs-key';
import { ConfiguredPodsTable } from '../columns/ConfiguredPodsTable';
import { useColumnsUi } from '../columns/use-columns-ui';
import { MaskBlindNote } from '../filter/MaskBlindNote';
import { paletteItems } from './palette-items';
import { PromptDialog } from './PromptDialog';
import { OfflineTag, RecordButton, RecordingScrubber } from './SourceControls';
import { UndoToast } from './UndoToast';
import { useAppKeys } from './use-app-keys';
import { useHasPods, useModelVersion, useNow } from './use-model';

type DialogKind = 'addNode' | 'addMany' | 'export' | 'help' | 'compareSources' | 'comparePod' | 'palette' | 'columns' | null;

/** How long "Removed worker-1 · Undo" stays offered. */
const UNDO_REMOVE_MS = 6000;

export function App({ model }: { model: AppModel }) {
  // Re-render whenever the model changes; pod batches re-render only the views wrapped in FollowPods.
  useModelVersion(model);
  const now = useNow(1000);
  const [selectedNodeId, setSelectedNodeId] = useState<string | null>(null);
  /** The sources chosen together (sidebar checkboxes, a group): with two or more, the view over all of them. */
  const [checkedIds, setCheckedIds] = useState<string[]>([]);
  const [filterText, setFilterText] = useState('');
  const [order, setOrder] = useState<SortOrder>({ key: 'namespace', descending: false });
  const [selectedUid, setSelectedUid] = useState<string | null>(null);
  const [openUid, setOpenUid] = useState<string | null>(null);
  const logsRequest = useLogsKey(openUid ?? selectedUid, setOpenUid);
  const [dialog, setDialog] = useState<DialogKind>(null);
  const [feedCollapsed, setFeedCollapsed] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  /** The node just removed, while its removal can be undone. */
  const [removed, setRemoved] = useState<NodeInfo | null>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const [appInfo, setAppInfo] = useState<RequestOutput<'app.info'> | null>(null);
  const [dragging, setDragging] = useState(false);
  const [actionDone, setActionDone] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const bridge = model.bridge;

  useEffect(() => {
    bridge.request('app.info', {}).then(setAppInfo, () => undefined);
  }, [bridge]);

  // Follow the first node until the user picks one; a removed node hands over to the next.
  const node = model.node(selectedNodeId) ?? model.nodes[0];
  const nodeId = node?.id ?? null;
  useEffect(() => {
    if (nodeId !== selectedNodeId) setSelectedNodeId(nodeId);
  }, [nodeId, selectedNodeId]);

  useEffect(() => {
    document.title = node ? `${node.label} — Nodescope` : 'Nodescope';
  }, [node?.label]);

  const checked = checkedIds.filter((id) => model.node(id) !== undefined);
  const fleet = checked.length >= 2;
  const toggleChecked = (id: string) => {
    const next = checked.includes(id) ? checked.filter((x) => x !== id) : [...checked, id];
    setCheckedIds(next);
    // One ticked alone is shown as the node it is.
    if (next.length === 1) setSelectedNodeId(next[0]!);
  };
  // Read when drawn (inside FollowPods): the feed moves with the pod batches, not with the window.
  const feedLines = () => (fleet ? model.feed.lines().filter((l) => checked.includes(l.nodeId)) : model.feed.lines());

  const hasPods = useHasPods(model, nodeId);
  const filter = useMemo(() => parseFilter(filterText), [filterText]);
  const nodeMetrics = nodeId ? model.metrics.get(nodeId) : undefined;
  const offline = node?.state.phase === 'offline';
  const metricsOf = useMemo(() => podMetricsLookup(nodeMetrics, offline), [nodeMetrics, offline]);
  const columnsUi = useColumnsUi({ bridge, filterText, setFilterText, order, setOrder, node, nodeMetrics, closeDialog: () => setDialog(null) });
  /** The node's rows as the table shows them: filtered and sorted, kept up to date batch by batch. */
  const shownRows = () => (nodeId ? model.pods.view(nodeId, filter, order, metricsOf) : []);

  async function act(run: () => Promise<unknown>) {
    setActionError(null);
    try {
      await run();
    } catch (err) {
      setActionError(errorText(err));
    }
  }

  /** Selects a pod in the table; an open detail follows the selection. */
  const selectPod = (uid: string) => {
    setSelectedUid(uid);
    setOpenUid((open) => (open ? uid : open));
  };
  const selectNode = (id: string) => {
    setSelectedNodeId(id);
    setCheckedIds([]);
    setSelectedUid(null);
    setOpenUid(null);
  };
  const sortBy = (key: SortKey) => setOrder(order.key === key ? { key, descending: !order.descending } : { key, descending: DESCENDING_FIRST.includes(key) });
  const openFromFeed = (line: FeedLine) => {
    selectNode(line.nodeId);
    setSelectedUid(line.uid);
    setOpenUid(line.uid);
  };
  const startDemo = async () => {
    const demo = await bridge.request('nodes.startDemo', {});
    model.upsertNode(demo);
    selectNode(demo.id);
  };
  const removeNode = async (id: string) => {
    const gone = model.node(id);
    await bridge.request('nodes.remove', { nodeId: id });
    setRemoved(gone ?? null);
  };
  const undoRemove = async (node: NodeInfo) => {
    setRemoved(null);
    const back = await restoreNode(bridge, node);
    model.upsertNode(back);
    selectNode(back.id);
  };
  const dismissRemoved = useCallback(() => setRemoved(null), []);
  /** Opens snapshot or recording files and shows the first one opened. */
  const openSourceFiles = async (files: File[]) => {
    const ids = await openFiles(bridge, files);
    // The new sources' records may still be on their way as events: take them now, so the selection holds.
    for (const n of await bridge.request('nodes.list', {})) if (ids.includes(n.id)) model.upsertNode(n);
    if (ids[0]) selectNode(ids[0]);
  };
  const pickFiles = async () => {
    // Electron asks with its own dialog; a browser picks with the page's file input and uploads.
    if (!appInfo?.canOpenFiles) return fileInputRef.current?.click();
    const opened = await bridge.request('sources.open', {});
    if (opened.status === 'opened' && opened.nodes[0]) {
      for (const n of opened.nodes) model.upsertNode(n);
      selectNode(opened.nodes[0].id);
    }
  };
  const keyState = { filterRef, filterText, setFilterText, openUid, selectedUid, selectPod, sortBy, setDialog, canExport: hasPods && !fleet, hasNode: node !== undefined };
  useAppKeys({ ...keyState, closePod: () => setOpenUid(null), shownUids: node && !fleet ? () => shownRows().map((r) => r.uid) : null });
  const nodeLabel = (id: string) => model.node(id)?.label ?? id;
  const prompt = model.prompts[0];
  const state = node ? describeNodeState(node.state, now) : null;

  return (
    <div
      className={dragging ? 'app drop-target' : 'app'}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => e.currentTarget === e.target && setDragging(false)}
      onDrop={(e) => {
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        setDragging(false);
        const files = [...e.dataTransfer.files];
        void act(() => openSourceFiles(files));
      }}
    >
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
          if (files.length > 0) void act(() => openSourceFiles(files));
        }}
      />
      <FollowPods model={model}>
        {() => (
          <NodesSidebar
            onOpenFiles={() => void act(pickFiles)}
            nodes={model.nodes}
            selectedId={fleet ? null : nodeId}
            podCount={(id) => model.pods.count(id)}
            onSelect={selectNode}
            checkedIds={checked}
            onToggle={toggleChecked}
            onSelectMany={setCheckedIds}
            onAdd={() => setDialog('addNode')}
            onAddMany={() => setDialog('addMany')}
            onStartDemo={() => void act(startDemo)}
            onConnect={(id) => void act(() => bridge.request('nodes.connect', { nodeId: id }))}
            onDisconnect={(id) => void act(() => bridge.request('nodes.disconnect', { nodeId: id }))}
            onRemove={(id) => void act(() => removeNode(id))}
            onEdit={setEditingId}
          />
        )}
      </FollowPods>
      <main className="workspace">
        {model.connectionProblem && (
          <div className="banner bad" role="alert">
            {model.connectionProblem}
          </div>
        )}
        {model.notices.map((notice) => (
          <div key={notice.id} className="banner bad notice" role="alert">
            <span>
              {notice.message} <strong>{notice.nextStep}</strong>
            </span>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => void act(() => model.dismissNotice(notice.id))}>
              ✕
            </button>
          </div>
        ))}
        {actionDone && (
          <div className="banner" role="status">
            {actionDone}
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setActionDone(null)}>
              ✕
            </button>
          </div>
        )}
        {actionError && (
          <div className="banner bad" role="alert">
            {actionError}
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setActionError(null)}>
              ✕
            </button>
          </div>
        )}
        {fleet ? (
          <FollowPods model={model}>{() => <FleetView model={model} nodeIds={checked} onError={setActionError} onClear={() => setCheckedIds([])} />}</FollowPods>
        ) : node && state ? (
          <>
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
                    onError={(err) => setActionError(errorText(err))}
                    onDone={setActionDone}
                  />
                )}
                <EditNodeButton node={node} onEdit={setEditingId} />
                <button type="button" className="button" onClick={() => setDialog('compareSources')} title="Compare two sources: nodes, snapshots, a recording at two instants">
                  Compare…
                </button>
                <button type="button" className="button" onClick={() => setDialog('export')} disabled={!hasPods}>
                  Export…
                </button>
              </div>
            </header>
            <NodeMetricsBar key={`metrics-${node.id}`} node={node} metrics={nodeMetrics} />
            <RecordingScrubber key={node.id} bridge={bridge} node={node} onError={(err) => setActionError(errorText(err))} />
            <div className="filter-bar">
              <input
                ref={filterRef}
                type="search"
                className="search filter-input mono"
                placeholder="Filter pods   ns:  phase:  label:k=v  owner:  node:  is:static  probe:failed   -negate      ( / )"
                aria-label="Filter pods"
                aria-keyshortcuts="/"
                aria-invalid={filter.errors.length > 0 ? true : undefined}
                spellCheck={false}
                value={filterText}
                onChange={(e) => setFilterText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowDown' || e.key === 'Enter') {
                    e.preventDefault();
                    const first = shownRows()[0];
                    if (first) selectPod(selectedUid ?? first.uid);
                    document.querySelector<HTMLElement>('.pods-grid')?.focus();
                  }
                }}
              />
              <button type="button" className="button help-button" aria-keyshortcuts="?" onClick={() => setDialog('help')}>
                Help <kbd>?</kbd>
              </button>
              <button type="button" className="button" aria-keyshortcuts="v" onClick={() => setDialog('columns')}>Columns <kbd>v</kbd></button>
              {filter.errors.length > 0 && (
                <span className="field-error filter-error" role="alert">
                  {filter.errors[0]}
                </span>
              )}
              <MaskBlindNote bridge={bridge} node={node} filter={filter} />
            </div>
            {node.state.phase !== 'live' && !hasPods ? (
              <div className="node-state-panel">
                <span className={`dot big tone-${state.tone}`} aria-hidden="true" />
                {/* An error's cause can run to a paragraph (a changed host key names both keys, the file and the fix): body text, not a heading. */}
                <h2>{node.state.phase === 'error' ? 'Connection failed' : state.title}</h2>
                {node.state.phase === 'error' && <p className="state-cause">{node.state.cause}</p>}
                {state.detail && <p className="muted">{state.detail}</p>}
                {(node.state.phase === 'error' || node.state.phase === 'disconnected' || node.state.phase === 'reconnecting') && (
                  <button type="button" className="button primary" onClick={() => void act(() => bridge.request('nodes.connect', { nodeId: node.id }))}>
                    {node.state.phase === 'reconnecting' ? 'Retry now' : 'Connect'}
                  </button>
                )}
              </div>
            ) : (
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
                      layout={columnsUi.layout}
                      rows={shownRows()}
                      order={order}
                      onSort={sortBy}
                      selectedUid={selectedUid}
                      onSelect={selectPod}
                      onOpen={(uid) => {
                        setSelectedUid(uid);
                        setOpenUid(uid);
                      }}
                      filter={filter}
                      metricsOf={metricsOf}
                      noMetrics={columnsUi.noMetrics}
                      manySources={false}
                    />
                  )}
                </FollowPods>
                {openUid && (
                  <FollowPods model={model}>
                    {() => (
                      <PodDetail
                        bridge={bridge}
                        nodeId={node.id}
                        uid={openUid}
                        row={model.pods.get(node.id, openUid)}
                        metrics={metricsOf(model.pods.get(node.id, openUid) ?? { uid: openUid, namespace: '', name: '' })}
                        onClose={() => setOpenUid(null)}
                        onCompareWith={() => setDialog('comparePod')}
                        logsRequest={logsRequest?.uid === openUid ? logsRequest.n : 0}
                        live={!offline}
                      />
                    )}
                  </FollowPods>
                )}
              </div>
            )}
          </>
        ) : (
          <div className="welcome">
            <h1>Inspect a node’s pods, live</h1>
            <p className="muted">Nodescope reaches the kubelet on a node over SSH and shows what it runs, as it changes.</p>
            <div className="welcome-actions">
              <button type="button" className="button primary" onClick={() => setDialog('addNode')}>
                Add node…
              </button>
              <button type="button" className="button" onClick={() => void act(startDemo)}>
                Start demo node
              </button>
              <button type="button" className="button" onClick={() => void act(pickFiles)}>
                Open snapshot…
              </button>
            </div>
            <p className="muted small">or drop a snapshot or recording file on this window</p>
          </div>
        )}
        {model.nodes.length > 0 && (
          <FollowPods model={model}>
            {() => (
              <EventsFeed
                lines={feedLines()}
                limit={model.feed.limit}
                nodeLabel={nodeLabel}
                onOpen={openFromFeed}
                // A deleted pod opens too: as it was deleted, from its history, while that is kept.
                canOpen={(l) => l.uid !== '' && (model.pods.get(l.nodeId, l.uid) !== undefined || l.type === 'DELETED')}
                collapsed={feedCollapsed}
                onToggle={() => setFeedCollapsed(!feedCollapsed)}
              />
            )}
          </FollowPods>
        )}
      </main>
      {dialog === 'addNode' && (
        <AddNodeDialog
          bridge={bridge}
          onClose={() => setDialog(null)}
          onAdded={(added) => {
            model.upsertNode(added);
            setDialog(null);
            selectNode(added.id);
          }}
        />
      )}
      {editingId && <EditNodeDialog bridge={bridge} node={model.node(editingId)} onClose={() => setEditingId(null)} onSaved={(saved, message) => { model.upsertNode(saved); setEditingId(null); setActionDone(message); }} />}
      {dialog === 'addMany' && (
        <AddManyDialog
          bridge={bridge}
          onClose={() => setDialog(null)}
          onAdded={(added) => {
            for (const n of added) model.upsertNode(n);
            setDialog(null);
            if (added.length === 1) selectNode(added[0]!.id);
            else setCheckedIds(added.map((n) => n.id));
          }}
        />
      )}
      {dialog === 'export' && node && (
        <FollowPods model={model}>
          {() => (
            <ExportDialog
              bridge={bridge}
              nodeId={node.id}
              nodeLabel={node.label}
              filteredUids={shownRows().map((r) => r.uid)}
              totalCount={model.pods.count(node.id)}
              mask={node.mask}
              onClose={() => setDialog(null)}
            />
          )}
        </FollowPods>
      )}
      {dialog === 'help' && <HelpPanel onClose={() => setDialog(null)} />}
      {dialog === 'palette' && <CommandPalette items={paletteItems(model.nodes, { node: selectNode, group: setCheckedIds }, columnsUi.paletteViews)} onClose={() => setDialog(null)} />}
      {dialog === 'columns' && columnsUi.chooser}
      {dialog === 'compareSources' && node && <CompareSourcesDialog bridge={bridge} nodes={model.nodes} initialLeft={node.id} onClose={() => setDialog(null)} />}
      {dialog === 'comparePod' && node && openUid && (
        <ComparePodsDialog
          bridge={bridge}
          nodes={model.nodes}
          rows={(id) => model.pods.rows(id)}
          from={{ nodeId: node.id, uid: openUid, row: model.pods.get(node.id, openUid) }}
          onClose={() => setDialog(null)}
        />
      )}
      {removed && (
        <UndoToast key={removed.id} message={`Removed ${removed.label}`} timeoutMs={UNDO_REMOVE_MS} onUndo={() => void act(() => undoRemove(removed))} onDismiss={dismissRemoved} />
      )}
      {prompt && <PromptDialog key={prompt.id} bridge={bridge} prompt={prompt} node={model.node(prompt.nodeId)} onDone={(id) => model.dropPrompt(id)} />}
    </div>
  );
}
