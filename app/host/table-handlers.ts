/**
 * The requests behind the pod table's columns: values of any pod field for the rows on screen, and the
 * column layouts and saved views the user keeps (table-views-store.ts).
 */
import type { RequestHandlers } from '../contract';
import type { Core } from '../core/core';
import { fieldValues } from '../pod/field-values';
import type { TableViewsStore } from './table-views-store';

export function tableHandlers(core: Pick<Core, 'shownPods'>, store: TableViewsStore): Pick<RequestHandlers, 'pods.fields' | 'ui.tableViews' | 'ui.setTableViews'> {
  return {
    'pods.fields': ({ nodeId, uids, paths }) => {
      const values: Record<string, (string[] | null)[]> = {};
      // The pods as shown, masked as the table's: a field the mask left out reads as absent here too.
      for (const pod of core.shownPods(nodeId, uids)) {
        const uid = (pod.metadata as { uid?: unknown } | undefined)?.uid;
        if (typeof uid === 'string') values[uid] = paths.map((path) => fieldValues(pod, path));
      }
      return { values };
    },
    'ui.tableViews': () => store.get(),
    'ui.setTableViews': (views) => store.set(views),
  };
}
