import { useEffect, useMemo, useState } from 'react';
import type { AppModel } from '../state/app-model';
import { fieldPathOf, isFieldKey } from './field-key';
import { naturalKey, type FieldKeyOf, type OrderKey } from '../filter/sort-rows';

/** While a source changes, its pods' values are read again at most this often (a whole column each time). */
const REREAD_MS = 1000;

/**
 * The sort values of the field column the table is sorted by, on every pod of its sources
 * (pods.fieldColumn, per source): the values as the cell shows them, in natural order; a pod without the
 * field, or not read yet, sorts last. A source is read again, at most every second, while its pods
 * change. Undefined when the order is by a built-in column. `rowKey`: a row's key in the table (the
 * table over several sources keys rows by source and UID).
 */
export function useFieldSort(model: AppModel, nodeIds: readonly string[], key: OrderKey, rowKey: (nodeId: string, uid: string) => string = (_, uid) => uid): FieldKeyOf | undefined {
  const path = isFieldKey(key) ? fieldPathOf(key) : null;
  const [keys, setKeys] = useState<{ for: string; of: ReadonlyMap<string, string | null> } | null>(null);
  const asked = path && nodeIds.length > 0 ? JSON.stringify([path, ...nodeIds]) : null;
  useEffect(() => {
    if (!path || !asked) return;
    let stopped = false;
    const of = new Map<string, string | null>();
    const sources = nodeIds.map((nodeId) => ({ nodeId, readFor: null as readonly unknown[] | null, reading: false, timer: undefined as ReturnType<typeof setTimeout> | undefined }));
    const read = (source: (typeof sources)[number]) => {
      source.timer = undefined;
      if (stopped || source.reading) return;
      source.reading = true;
      const { nodeId } = source;
      // The store hands out a new list of a source's rows after each change to them.
      source.readFor = model.pods.rows(nodeId);
      model.bridge
        .request('pods.fieldColumn', { nodeId, path })
        .then(
          ({ values }) => {
            if (stopped) return;
            // The source's values as read now: its pods gone since go with their values (its keys share this prefix).
            for (const k of [...of.keys()]) if (k.startsWith(rowKey(nodeId, ''))) of.delete(k);
            for (const [uid, v] of Object.entries(values)) of.set(rowKey(nodeId, uid), v === null ? null : naturalKey(v.join(', ')));
            setKeys({ for: asked, of: new Map(of) });
          },
          // A host without it (the design preview) leaves every pod unread: they keep their tie order.
          () => undefined,
        )
        .finally(() => {
          source.reading = false;
          changed();
        });
    };
    const changed = () => {
      for (const source of sources) {
        if (!stopped && !source.reading && source.timer === undefined && model.pods.rows(source.nodeId) !== source.readFor) source.timer = setTimeout(() => read(source), REREAD_MS);
      }
    };
    sources.forEach(read);
    const unsubscribe = model.subscribePods(changed);
    return () => {
      stopped = true;
      for (const source of sources) clearTimeout(source.timer);
      unsubscribe();
    };
  }, [model, asked]);
  const current = keys?.for === asked ? keys.of : null;
  return useMemo(() => (asked ? (row: { uid: string }) => current?.get(row.uid) ?? null : undefined), [asked, current]);
}
