/**
 * The requests behind the pod table's columns: values of any pod field for the rows on screen, one
 * field's values on every pod (to sort by it), and the column layouts and saved views the user keeps
 * (table-views-store.ts).
 */
import type { RequestHandlers } from '../contract';
import type { Core } from '../core/core';
import { fieldValues } from '../pod/field-values';
import type { PodTree } from '../pod/pod-tree';
import type { TableViewsStore } from './table-views-store';

/** Per UID, what `read` makes of each pod as shown, masked as the table's: a field the mask left out reads as absent here too. */
function byUid<T>(pods: Iterable<PodTree>, read: (pod: PodTree) => T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const pod of pods) {
    const uid = (pod.metadata as { uid?: unknown } | undefined)?.uid;
    if (typeof uid === 'string') out[uid] = read(pod);
  }
  return out;
}

export function tableHandlers(core: Pick<Core, 'shownPods'>, store: TableViewsStore): Pick<RequestHandlers, 'pods.fields' | 'pods.fieldColumn' | 'ui.tableViews' | 'ui.setTableViews'> {
  return {
    'pods.fields': async ({ nodeId, uids, paths }) => ({ values: byUid(await core.shownPods(nodeId, uids), (pod) => paths.map((path) => fieldValues(pod, path))) }),
    'pods.fieldColumn': async ({ nodeId, path }) => ({ values: byUid(await core.shownPods(nodeId, 'all'), (pod) => fieldValues(pod, path)) }),
    'ui.tableViews': () => store.get(),
    'ui.setTableViews': (views) => store.set(views),
  };
}
