import { ContractError } from '../contract';
import { fetchedCovers } from '../mask/mask-coverage';
import { isUserAdded, labelOf, sameMachine } from '../source/kinds/source-kinds';
import { offlineState, timelineAt, type CoreState } from './core-state';
import type { CoreHandlers, CoreRequest } from './core-types';
import { checkMask } from './node-mask';

/** The nodes: adding, grouping, editing, removing and connecting them, the demo node, each one's mask and metrics, and a recording's instant. */
export function nodeHandlers(
  core: CoreState,
): Pick<CoreHandlers, Extract<CoreRequest, `nodes.${string}`> | 'sources.setTime'> {
  const { options, nodes, emit, infoOf, publish, linkReported, recordOf, persist, isRemembered, connect, disconnect, closeLink, addNode, addNodesSteps, setRecordMask, startDemo, removals, presets, podWatchers, inSlices } = core;
  return {
    'nodes.list': () => [...nodes.values()].map((r) => infoOf(r)),
    'nodes.add': async (spec) => {
      const record = addNode(spec);
      await persist();
      return infoOf(record);
    },
    'nodes.addMany': async ({ nodes: specs }) => {
      // All in the list, saved once; the Node side's limiter paces their dials. Added in time slices: a
      // thousand records and links made in one turn held the core for longer than a frame.
      const records = await inSlices(addNodesSteps(specs));
      await persist();
      return records.map(infoOf);
    },
    'nodes.setGroup': async ({ nodeIds, group }) => {
      // Each node once, however often the list names it: every mention would tell every window again.
      const records = new Set(nodeIds.map(recordOf));
      for (const record of records) {
        const spec = record.info.spec;
        if (isUserAdded(spec)) {
          if (group) spec.group = group;
          else delete spec.group;
        }
        publish(record);
      }
      await persist();
      return {};
    },
    'nodes.update': async ({ nodeId, spec }) => {
      const record = recordOf(nodeId);
      const before = record.info.spec;
      if (!isUserAdded(before)) {
        throw new ContractError('invalid-input', `${record.info.label} has no connection settings to edit.`, 'Only nodes added with Add node can be edited; remove this one instead.');
      }
      const kept = sameMachine(before, spec);
      // The same record: its id, mask and place in the list stay; what the old settings read does not.
      // The settings change first, so a connect asked for meanwhile already uses the new ones.
      record.info.spec = spec;
      record.info.label = labelOf(spec);
      record.info.maskHonoured = null;
      delete record.info.readFrom;
      delete record.info.sshClient;
      // Ends the old connection's session at once: nothing it still reports lands from here on.
      const closing = closeLink(record);
      record.pods.clear();
      // Another machine's pods are not this node's: kept, its next list would mark them all deleted.
      if (!kept) record.history.clear();
      linkReported(record, { phase: 'disconnected' });
      await closing;
      await options.edited?.(infoOf(record), kept);
      if (nodes.get(nodeId) !== record) throw new ContractError('not-found', `${record.info.label} was removed while it was being edited.`, 'Add it again with Add node.');
      void connect(record);
      await persist();
      return { node: infoOf(record), historyCleared: !kept };
    },
    'nodes.remove': async ({ nodeId }) => {
      const record = recordOf(nodeId);
      nodes.delete(nodeId);
      // Fewer nodes open: the others may keep whole pods again.
      core.rowsOnlyFleet.recount();
      const removal = (async () => {
        await disconnect(record);
        record.pods.close();
        record.history.clear();
        emit({ name: 'nodeRemoved', payload: { nodeId } });
        podWatchers.end(nodeId);
        await options.removed?.(record.info);
      })();
      removals.set(nodeId, removal);
      try {
        await removal;
      } finally {
        if (removals.get(nodeId) === removal) removals.delete(nodeId);
      }
      if (isRemembered(record)) await persist();
      return {};
    },
    'nodes.connect': async ({ nodeId }) => {
      await connect(recordOf(nodeId));
      return {};
    },
    'nodes.disconnect': async ({ nodeId }) => {
      await disconnect(recordOf(nodeId));
      return {};
    },
    'nodes.startDemo': async () => infoOf(await startDemo()),
    'nodes.setMask': async ({ nodeId, mask }) => {
      const record = recordOf(nodeId);
      const check = checkMask(mask, presets());
      if (!check.ok) return check;
      const wasLive = record.session !== null && record.info.state.phase !== 'error';
      const fetchedWith = record.info.maskPaths;
      setRecordMask(record, mask);
      delete record.keptMask;
      publish(record);
      // A node held back for its unreadable saved mask starts as it would have, now with this one.
      if (record.maskLeftOff) void connect(record);
      else if (wasLive) {
        // The kubelet is asked again with the new mask. Pods fetched with a narrower one lack what
        // the new one selects: they are not shown meanwhile, rather than shown with fields missing.
        // (A file's pods are whole: a mask there only changes what is shown.)
        await closeLink(record);
        if (!fetchedCovers(fetchedWith, record.info.maskPaths)) record.pods.clear();
        void connect(record);
      }
      // The demo node is not remembered, nor its mask, nor files.
      if (isRemembered(record)) await persist();
      return check;
    },
    'nodes.metrics': ({ nodeId }) => structuredClone(recordOf(nodeId).metrics),
    'sources.setTime': ({ nodeId, at }) => {
      const record = recordOf(nodeId);
      const source = record.offline;
      if (source?.kind !== 'recording') {
        throw new ContractError('invalid-input', `${record.info.label} is not a recording: it has no time axis.`, 'Open a recording to move through its time.');
      }
      const instant = timelineAt(source, at);
      // The history stays whole; only the set shown and the versions listed follow the instant.
      record.pods.replaceAll(source.podsAt(instant));
      linkReported(record, offlineState(source, instant));
      return infoOf(record);
    },
  };
}
