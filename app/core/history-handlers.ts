import { ContractError, type PodHistoryView } from '../contract';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { crashLogsOf, versionsOf, type CoreState, type NodeRecord } from './core-state';
import type { CoreHandlers } from './core-types';
import { describePodChange } from './pod-change';
import type { PodVersion } from './pod-history';
import { detailOf } from './pod-handlers';
import { KEEP_WHOLE_PODS, ROWS_ONLY_WHY } from './whole-pods';

/** Pod histories: a pod's versions and what changed in each, one version, and how much history is kept. */
export function historyHandlers(core: CoreState): Pick<CoreHandlers, 'pods.history' | 'pods.version' | 'history.limits' | 'history.setLimits' | 'memory.usage'> {
  const { nodes, recordOf, publish, limitsFor } = core;
  const rowOf = (record: NodeRecord, version: PodVersion) => ({ ...podRowFromTree(record.pods.shown(version.pod)), uid: '' });
  const describeVersion = (record: NodeRecord, version: PodVersion, before: PodVersion | undefined, trimmed: boolean): string => {
    if (version.event === 'DELETED') return 'deleted';
    const after = rowOf(record, version);
    // What the mask leaves out is never reported as changed.
    const hidden = record.pods.hiddenFields;
    if (!before) return trimmed ? 'earliest version kept' : describePodChange(undefined, after, hidden).replace(/^added/, version.event === 'LISTED' ? 'listed' : 'added');
    return describePodChange(rowOf(record, before), after, hidden);
  };

  const podHistory = (record: NodeRecord, uid: string): PodHistoryView => {
    if (record.info.rowsOnly) {
      throw new ContractError('unavailable', `Pod history is not kept for ${record.info.label}: ${ROWS_ONLY_WHY}, not each version.`, `${KEEP_WHOLE_PODS}; its history starts then.`);
    }
    const versions = versionsOf(record, uid);
    if (versions.length === 0) {
      throw new ContractError('not-found', `Pod ${uid} has no history on ${record.info.label}.`, 'It was deleted and its history has expired; pick another pod.');
    }
    const trimmed = record.history.trimmed(uid);
    const trimmedForBudget = record.history.trimmedForBudget(uid);
    const crashLogs = crashLogsOf(record, uid).map(({ time, container, instance, ended, reason, exitCode, finishedAt, lines, truncated, missing }) => ({
      time,
      container,
      instance,
      ended,
      lines,
      truncated,
      ...(reason !== undefined ? { reason } : {}),
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(finishedAt !== undefined ? { finishedAt } : {}),
      ...(missing !== undefined ? { missing } : {}),
    }));
    return {
      versions: versions.map((v, i) => ({ id: v.id, time: v.time, event: v.event, change: describeVersion(record, v, versions[i - 1], trimmed > 0) })),
      trimmed,
      ...(trimmedForBudget ? { trimmedForBudget } : {}),
      deleted: versions.at(-1)!.event === 'DELETED',
      limits: { ...core.limits },
      ...(crashLogs.length ? { crashLogs } : {}),
    };
  };
  return {
    'pods.history': ({ nodeId, uid }) => podHistory(recordOf(nodeId), uid),
    'pods.version': ({ nodeId, uid, version }) => {
      const record = recordOf(nodeId);
      const found = versionsOf(record, uid).find((v) => v.id === version);
      if (!found) {
        throw new ContractError('not-found', `Version ${version} of pod ${uid} is not kept any more.`, 'Older versions are dropped to stay within the history limits; pick one from the timeline.');
      }
      return { ...detailOf(record, found.pod), versionTime: found.time };
    },
    'history.limits': () => ({ ...core.limits }),
    'memory.usage': () => ({ held: core.memory.heldBytes, budget: core.memory.limitBytes }),
    'history.setLimits': (next) => {
      core.limits = { ...next };
      for (const record of nodes.values()) {
        record.history.setLimits(limitsFor(record));
        publish(record);
      }
      return { ...core.limits };
    },
  };
}
