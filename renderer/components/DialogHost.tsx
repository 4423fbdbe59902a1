import type { MutableRefObject } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import type { PaletteItem } from '../keys/palette-match';
import type { AppModel } from '../state/app-model';
import { AddManyDialog } from './AddManyDialog';
import { AddNodeDialog } from './AddNodeDialog';
import { CommandPalette } from './CommandPalette';
import { ComparePodsDialog } from './ComparePodsDialog';
import { CompareSourcesDialog } from './CompareSourcesDialog';
import { EditNodeDialog } from './EditNodeDialog';
import { ExportDialog } from './ExportDialog';
import { FollowPods } from './FollowPods';
import { HelpPanel } from './HelpPanel';
import { paletteItems } from './palette-items';
import { PromptDialog } from './PromptDialog';
import { SettingsDialog } from './SettingsDialog';
import type { ColumnsUi } from './NodeView';
import type { PodView } from './use-pod-view';
import type { WindowSelectionView } from './use-window-selection';

/** The dialogs the window opens one at a time (from a button, a key or the palette). */
export type WindowDialog = 'addNode' | 'addMany' | 'export' | 'help' | 'compareSources' | 'comparePod' | 'palette' | 'columns' | 'settings';

/**
 * The window's dialogs: the one open, the node being edited, and the app core's pending question
 * (a host key, a password), which comes on its own.
 */
export function DialogHost(props: {
  model: AppModel;
  dialog: WindowDialog | null;
  onClose: () => void;
  editingId: string | null;
  onCloseEdit: () => void;
  selection: WindowSelectionView;
  view: PodView;
  columns: ColumnsUi;
  fleetPaletteViews: MutableRefObject<PaletteItem[]>;
  /** Added nodes, to be shown: one alone as the node, several ticked together. */
  onAdded: (nodes: NodeInfo[]) => void;
  onDone: (message: string) => void;
}) {
  const { model, dialog, onClose, selection } = props;
  const { node, openUid } = selection;
  const prompt = model.prompts[0];
  return (
    <>
      {dialog === 'addNode' && <AddNodeDialog model={model} onClose={onClose} onAdded={(added) => props.onAdded([added])} />}
      {props.editingId && (
        <EditNodeDialog
          model={model}
          node={model.node(props.editingId)}
          onClose={props.onCloseEdit}
          onSaved={(message) => {
            props.onCloseEdit();
            props.onDone(message);
          }}
        />
      )}
      {dialog === 'addMany' && <AddManyDialog model={model} onClose={onClose} onAdded={props.onAdded} />}
      {dialog === 'export' && node && (
        <FollowPods model={model}>
          {() => (
            <ExportDialog
              bridge={model.bridge}
              nodeId={node.id}
              nodeLabel={node.label}
              filteredUids={props.view.shownRows().map((r) => r.uid)}
              totalCount={model.pods.count(node.id)}
              mask={node.mask}
              onClose={onClose}
            />
          )}
        </FollowPods>
      )}
      {dialog === 'help' && <HelpPanel onClose={onClose} />}
      {dialog === 'settings' && <SettingsDialog bridge={model.bridge} onClose={onClose} onSaved={props.onDone} />}
      {/* A saved view applies to the table shown: one node's, or the one over several sources. */}
      {dialog === 'palette' && (
        <CommandPalette items={paletteItems(model.nodes, { node: selection.selectNode, group: selection.setChecked }, selection.fleet ? props.fleetPaletteViews.current : props.columns.paletteViews)} onClose={onClose} />
      )}
      {dialog === 'columns' && props.columns.chooser}
      {dialog === 'compareSources' && node && <CompareSourcesDialog bridge={model.bridge} nodes={model.nodes} initialLeft={node.id} onClose={onClose} />}
      {dialog === 'comparePod' && node && openUid && (
        <ComparePodsDialog bridge={model.bridge} nodes={model.nodes} rows={(id) => model.pods.rows(id)} from={{ nodeId: node.id, uid: openUid, row: model.pods.get(node.id, openUid) }} onClose={onClose} />
      )}
      {prompt && <PromptDialog key={prompt.id} bridge={model.bridge} prompt={prompt} node={model.node(prompt.nodeId)} onDone={(id) => model.dropPrompt(id)} />}
    </>
  );
}
