import { useEffect, useMemo, useState } from 'react';
import type { AppModel } from '../state/app-model';
import { fieldPathOf, isFieldKey } from './field-key';
import { naturalKey, type FieldKeyOf, type OrderKey } from '../filter/sort-rows';

/** While the node changes, its pods' values are read again at most this often (a whole column each time). */
const REREAD_MS = 1000;

/**
 * The sort values of the field column the table is sorted by, on every pod of the node (pods.fieldColumn):
 * the values as the cell shows them, in natural order; a pod without the field, or not read yet, sorts
 * last. Read again, at most every second, while the node's pods change. Undefined when the order is by
 * a built-in column.
 */
export function useFieldSort(model: AppModel, nodeId: string | null, key: OrderKey): FieldKeyOf | undefined {
  const path = isFieldKey(key) ? fieldPathOf(key) : null;
  const [keys, setKeys] = useState<{ for: string; of: ReadonlyMap<string, string | null> } | null>(null);
  const asked = nodeId && path ? `${nodeId}|${path}` : null;
  useEffect(() => {
    if (!nodeId || !path || !asked) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** The node's rows as last read (the store hands out a new list after each change). */
    let readFor: readonly unknown[] | null = null;
    let reading = false;
    const read = () => {
      timer = undefined;
      if (stopped || reading) return;
      reading = true;
      readFor = model.pods.rows(nodeId);
      model.bridge.request('pods.fieldColumn', { nodeId, path }).then(
        ({ values }) => {
          if (stopped) return;
          setKeys({ for: asked, of: new Map(Object.entries(values).map(([uid, v]) => [uid, v === null ? null : naturalKey(v.join(', '))])) });
        },
        // A host without it (the design preview) leaves every pod unread: they keep their tie order.
        () => undefined,
      ).finally(() => {
        reading = false;
        changed();
      });
    };
    const changed = () => {
      if (!stopped && !reading && timer === undefined && model.pods.rows(nodeId) !== readFor) timer = setTimeout(read, REREAD_MS);
    };
    read();
    const unsubscribe = model.subscribePods(changed);
    return () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    };
  }, [model, asked]);
  const current = keys?.for === asked ? keys.of : null;
  return useMemo(() => (asked ? (row: { uid: string }) => current?.get(row.uid) ?? null : undefined), [asked, current]);
}
