import { Banners } from './Banners';
import { EventsFeed } from './EventsFeed';
import { FleetView } from './FleetView';
import { FollowPods } from './FollowPods';
import { NodeView, type WindowViewProps } from './NodeView';
import { Welcome } from './Welcome';

/** The window beside the sidebar: banners, then the view over several sources, one node, or the welcome; the feed below. */
export function Workspace(props: WindowViewProps & { feedCollapsed: boolean; onToggleFeed: () => void; onStartDemo: () => void; onOpenFiles: () => void }) {
  const { model, selection, status } = props;
  const { node, fleet, checked } = selection;
  // Read when drawn (inside FollowPods): the feed moves with the pod batches, not with the window.
  const feedLines = () => (fleet ? model.feed.lines().filter((l) => checked.includes(l.nodeId)) : model.feed.lines());
  return (
    <main className="workspace">
      <Banners model={model} status={status} />
      {fleet ? (
        <FollowPods model={model}>{() => <FleetView model={model} nodeIds={checked} tableViews={props.tableViews} paletteViews={props.fleetPaletteViews} onError={status.fail} onClear={() => selection.setChecked([])} />}</FollowPods>
      ) : node ? (
        <NodeView {...props} node={node} />
      ) : (
        <Welcome onAddNode={() => props.openDialog('addNode')} onStartDemo={props.onStartDemo} onOpenFiles={props.onOpenFiles} />
      )}
      {model.nodes.length > 0 && (
        <FollowPods model={model}>
          {() => (
            <EventsFeed
              lines={feedLines()}
              limit={model.feed.limit}
              nodeLabel={(id) => model.node(id)?.label ?? id}
              onOpen={(line) => selection.showPod(line.nodeId, line.uid)}
              // A deleted pod opens too: as it was deleted, from its history, while that is kept.
              canOpen={(l) => l.uid !== '' && (model.pods.get(l.nodeId, l.uid) !== undefined || l.type === 'DELETED')}
              collapsed={props.feedCollapsed}
              onToggle={props.onToggleFeed}
            />
          )}
        </FollowPods>
      )}
    </main>
  );
}
